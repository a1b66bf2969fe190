import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { problems } from '../support/axe'
import { eventually } from '../support/eventually'
import { smallControls } from '../support/targets'
import { startWorld, type World } from '../support/world'
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
