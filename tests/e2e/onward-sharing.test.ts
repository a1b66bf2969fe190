import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { problems } from '../support/axe'
import { PHONE_CONTEXT } from '../support/browser'
import { eventually } from '../support/eventually'
import { smallControls } from '../support/targets'
import { startWorld, type OpenPage, type World } from '../support/world'
import type { SignedIn } from '../support/auth'

// Issue 34, onward sharing, in a real Chromium against the real server at 1440 and 390 px with axe-core: the owner
// allows other brokers to share her listing from its form (named, then anonymous); another broker's Share gives a
// message linking to his own page for a client, which names him with his Call and WhatsApp buttons and the owner only
// when she chose to be named; she withdraws her consent and his page is a polite 410.

setDefaultTimeout(120_000)

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const
let world: World
let asha: SignedIn
let ravi: SignedIn
let entryId: string
let listingId: number

beforeAll(async () => {
  world = await startWorld({ geography: true })
  const mumbai = await world.cityId('Mumbai')
  asha = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Asha Verma', phone: '+91 98200 44556' })
  ravi = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Ravi Kumar', phone: '+91 98200 77889' })
  const made = await world.send<{ id: number; entry_id: string }>(asha, 'POST', '/api/listings', {
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    property_type: '3BHK',
    contact_value: '+91 98200 44556',
    locality: 'Bandra West',
    budget: 90_000,
    details: 'Sea view, call 98200 44556',
  })
  ;[listingId, entryId] = [made.id, made.entry_id]
})
afterAll(() => world?.stop())

const actions = async (page: Page) => {
  await page.getByRole('button', { name: `Actions for ${entryId}` }).locator('visible=true').first().click()
  return page.getByRole('menu', { name: `Actions for ${entryId}` })
}

describe('onward sharing with the owner’s consent', () => {
  for (const [size, choice] of [['desktop', 'NAMED'], ['phone', 'ANONYMOUS']] as const)
    test(`at ${SIZES[size].width} px: the owner allows it (${choice}), another broker shares his own page, the client reads it`, async () => {
      // The owner's form: the choice, axe, its tap target on a phone.
      const mine = await world.open(asha, '/dashboard/my-listings', { viewport: SIZES[size], axe: true })
      await (await actions(mine.page)).getByRole('menuitem', { name: 'Edit' }).click()
      const form = mine.page.locator('dialog[open]')
      const select = form.getByLabel('Other brokers may share it with their clients')
      await select.waitFor()
      expect(await select.inputValue()).toBe(size === 'desktop' ? 'OFF' : 'NAMED')
      await select.selectOption(choice)
      expect(await problems(mine.page, `the form's onward choice @${SIZES[size].width}`, 'dialog[open]')).toEqual([])
      if (size === 'phone') expect(await smallControls(mine.page, 'dialog[open] [data-onward-sharing]')).toEqual([])
      await form.getByRole('button', { name: 'Update Listing' }).click()
      await form.waitFor({ state: 'detached' })
      await eventually('the consent stored', async () => (await world.data.get<{ o: string }>('select onward_sharing as o from listings where id = ?', [listingId]))?.o === choice)
      expect(mine.errors).toEqual([])
      await mine.page.context().close()

      // Another broker's Share: the message links to his page for a client, and says so.
      const theirs = await world.open(ravi, '/dashboard/listings', { viewport: SIZES[size], axe: true })
      await (await actions(theirs.page)).getByRole('menuitem', { name: 'Share' }).click()
      const dialog = theirs.page.locator('dialog[open]').filter({ has: theirs.page.getByRole('heading', { name: `Share ${entryId}` }) })
      const note = dialog.locator('[data-public-url]')
      await note.waitFor()
      const url = (await note.getAttribute('data-public-url'))!
      const text = await dialog.getByLabel('Message to share').inputValue()
      expect(text.endsWith(url)).toBe(true)
      expect(text).toContain('Ravi Kumar')
      expect(text).not.toContain('44556')
      expect(await problems(theirs.page, `the share dialog with a client page @${SIZES[size].width}`, 'dialog[open]')).toEqual([])
      expect(theirs.errors).toEqual([])
      await theirs.page.context().close()

      // The client's page, signed out (it has no script: tests/api/share-links.test.ts).
      const client = await world.open(null, new URL(url).pathname, { viewport: SIZES[size], axe: true, hydrate: false })
      expect(client.response?.status()).toBe(200)
      const main = client.page.locator('main')
      expect(await main.getByText('Ravi Kumar').first().isVisible()).toBe(true)
      expect(await main.getByRole('link', { name: 'Call +91 98200 77889' }).isVisible()).toBe(true)
      expect(await main.getByRole('link', { name: 'WhatsApp' }).isVisible()).toBe(true)
      const html = await client.page.content()
      expect(html).not.toContain('44556')
      if (choice === 'NAMED') expect(await main.getByText('Listed on Brokernet by Asha Verma, a verified broker').isVisible()).toBe(true)
      else expect(html).not.toContain('Asha')
      expect(await problems(client.page, `the onward page @${SIZES[size].width}`)).toEqual([])
      if (size === 'phone') expect(await smallControls(client.page, 'main')).toEqual([])
      await client.page.context().close()
    })

  test('consent withdrawn: the other broker’s page is a polite 410', async () => {
    const { url } = await world.send<{ url: string }>(ravi, 'POST', `/api/listings/${listingId}/share-link`)
    await world.send(asha, 'PATCH', `/api/listings/${listingId}`, { onward_sharing: 'OFF' })
    const client = await world.open(null, new URL(url).pathname, { viewport: SIZES.phone, axe: true, hydrate: false })
    expect(client.response?.status()).toBe(410)
    expect(await client.page.getByRole('heading', { name: 'This link no longer works' }).isVisible()).toBe(true)
    expect(await problems(client.page, 'the 410 page @390')).toEqual([])
    await client.page.context().close()
  })
})

/** A link's page on the test's server (PUBLIC_URL is not the test server's address). */
const local = (url: string) => world.url + new URL(url).pathname
const linkTo = (who: SignedIn) => world.send<{ id: number; url: string }>(who, 'POST', `/api/listings/${listingId}/share-link`)
const row = (page: Page, id: number) => page.locator(`[data-share-links] [data-share-link="${id}"]`).locator('visible=true')

/** Revoke with the confirmation: Cancel keeps the link; Revoke ends it, and the row says so. */
async function revoke(w: OpenPage, id: number, size: string) {
  const { page } = w
  const button = () => row(page, id).getByRole('button', { name: `Revoke the link to ${entryId}` })
  await button().click()
  const dialog = page.locator('dialog[open]')
  await dialog.getByRole('heading', { name: 'Revoke this link?' }).waitFor()
  expect(await dialog.innerText()).toContain(`The page for ${entryId} stops working`)
  expect(await problems(page, `the revoke confirmation @${size}`, 'dialog[open]')).toEqual([])
  if (size === '390') expect(await smallControls(page, 'dialog[open]')).toEqual([])
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await dialog.waitFor({ state: 'detached' })
  expect(await row(page, id).locator('[data-link-state]').innerText()).toBe('Live')

  await button().click()
  await page.locator('dialog[open]').getByRole('button', { name: 'Revoke', exact: true }).click()
  await page.getByText('Link revoked: its page no longer opens').waitFor()
  await row(page, id).locator('[data-link-state="Revoked"]').waitFor()
  expect(await button().count()).toBe(0)
}

describe('the screen of one’s public links', () => {
  test('at 1440 px: from the navigation, the owner’s link with its views and sharing; revoked after a confirmation, its page is gone', async () => {
    // Consent given again after the withdrawal above: the old links stay dead (their rows say Revoked), new ones open.
    await world.send(asha, 'PATCH', `/api/listings/${listingId}`, { onward_sharing: 'NAMED' })
    const { id, url } = await linkTo(asha)
    await fetch(local(url))
    const w = await world.open(asha, '/dashboard', { axe: true })
    await w.page.locator('.drawer-side').getByRole('link', { name: 'Public links' }).click()
    await w.page.waitForURL('**/dashboard/share-links')
    await w.page.waitForSelector('html[data-islands="hydrated"]', { state: 'attached' })
    const mine = row(w.page, id)
    await mine.waitFor()
    expect(await w.page.getByRole('table', { name: 'Your public links' }).isVisible()).toBe(true)
    const text = await mine.innerText()
    for (const shown of ['Availability', '3BHK', 'Bandra West', 'Your listing · others may share it, naming you', 'Live']) expect(text).toContain(shown)
    expect(await mine.locator('[data-views]').innerText()).toBe('1')
    expect(new URL((await mine.getByRole('link', { name: `Open page of ${entryId}` }).getAttribute('href'))!).pathname).toBe(new URL(url).pathname)
    expect(await problems(w.page, 'the public links @1440')).toEqual([])

    await revoke(w, id, '1440')
    expect((await fetch(local(url))).status).toBe(410)
    expect((await world.send<{ links: { url: string; revoked_at: string | null }[] }>(asha, 'GET', '/api/share-links')).links.find((l) => l.url === url)!.revoked_at).not.toBeNull()
    expect(w.errors).toEqual([])
    await w.page.context().close()
  })

  test('on a phone (390 px, touch): from the menu, another broker’s listing shared onward, 44 px targets, revoked after a confirmation', async () => {
    const { id, url } = await linkTo(ravi)
    const w = await world.open(ravi, '/dashboard', { viewport: { width: 390, height: 844 }, axe: true, context: PHONE_CONTEXT })
    const { page } = w
    await page.locator('header label[for="dashboard-drawer"]').click()
    await page.locator('.drawer-side').getByRole('link', { name: 'Public links' }).click()
    await page.waitForURL('**/dashboard/share-links')
    await page.waitForSelector('html[data-islands="hydrated"]', { state: 'attached' })
    const theirs = row(page, id)
    await theirs.waitFor()
    expect(await theirs.innerText()).toContain('Another broker’s listing · their page names them')
    // His link that the owner's withdrawal ended is listed as revoked, with nothing to do.
    const ended = page.locator('[data-share-links] [data-share-link]').locator('visible=true').filter({ has: page.locator('[data-link-state="Revoked"]') })
    expect(await ended.count()).toBeGreaterThanOrEqual(1)
    expect(await ended.getByRole('button').count()).toBe(0)
    expect(await smallControls(page, 'main')).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
    expect(await problems(page, 'the public links @390')).toEqual([])

    await revoke(w, id, '390')
    expect((await fetch(local(url))).status).toBe(410)
    expect(w.errors).toEqual([])
    await page.context().close()
  })

  test('no links yet: the screen says how to make one', async () => {
    const w = await world.open(await world.signIn('BROKER', { cityId: asha.user.cityId }), '/dashboard/share-links', { viewport: { width: 390, height: 844 }, axe: true })
    expect(await w.page.getByRole('heading', { name: 'No public links yet' }).isVisible()).toBe(true)
    expect(await problems(w.page, 'no public links @390')).toEqual([])
    expect(w.errors).toEqual([])
    await w.page.context().close()
  })
})
