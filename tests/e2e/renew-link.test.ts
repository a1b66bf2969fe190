import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { renewKey, renewToken } from '../../src/modules/listings/renew-link'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { startWorld, type World } from '../support/world'

// Expiry reminders (issue 17) in a real Chromium: the mail's renew link opened on a phone (390 px) shows the offer and
// renews nothing until its one button is pressed; then it confirms, and the same link is refused. The owner's
// navigation counts their listings ending within 3 days beside My Listings. axe-core and the page's width each time.
let world: World
let asha: SignedIn
const PHONE = { width: 390, height: 844 }
const DAY = 86_400_000

/** Posts a listing ending in `days` through the API. */
const post = (days: number) =>
  world.send<{ id: number; entry_id: string; expires_at: string }>(asha, 'POST', '/api/listings', {
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    property_type: '2 BHK',
    contact_value: '+91 98200 12345',
    expires_at: new Date(Date.now() + days * DAY).toISOString(),
  })
const stored = async (id: number) => (await world.data.get<{ status: string; expires_at: number }>('select status, expires_at from listings where id = ?', [id]))!

beforeAll(async () => {
  world = await startWorld({ geography: true })
  asha = await world.signIn('BROKER', { cityId: await world.cityId('Pune'), fullName: 'Asha Renew' })
}, 60_000)
afterAll(() => world?.stop())

describe('the renew link', () => {
  test('at 390 px: the page offers, the button renews and confirms, the link then refuses', async () => {
    const listing = await post(2)
    // The link the reminder mails (src/modules/listings/reminders.ts), signed with the key the server shares.
    const link = `${world.url}/renew/${renewToken(await renewKey(world.data), { id: listing.id, expiresAt: Date.parse(listing.expires_at) }, Date.now())}`
    const { page, errors } = await world.page(null, { viewport: PHONE, axe: true })

    expect((await page.goto(link))!.status()).toBe(200)
    await page.getByRole('heading', { name: 'Renew your listing' }).waitFor()
    expect(await page.getByText(`Renew ${listing.entry_id} (2 BHK, Pune) until`).isVisible()).toBe(true)
    expect(await problems(page, 'renew offer @390')).toEqual([])
    expect((await stored(listing.id)).expires_at).toBe(Date.parse(listing.expires_at))

    await page.getByRole('button', { name: `Renew ${listing.entry_id}` }).click()
    await page.getByRole('heading', { name: 'Listing renewed' }).waitFor()
    expect(await page.getByRole('status').textContent()).toMatch(new RegExp(`^${listing.entry_id} renewed until [A-Z][a-z]{2} \\d{1,2}, \\d{4}`))
    expect(await problems(page, 'renewed @390')).toEqual([])
    const after = await stored(listing.id)
    expect(after.status).toBe('ACTIVE')
    expect(after.expires_at).toBeGreaterThan(Date.now() + 29 * DAY)

    expect((await page.goto(link))!.status()).toBe(410)
    expect(await page.getByRole('alert').textContent()).toContain('used already')
    expect(await page.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true)
    expect(await problems(page, 'renew link used @390')).toEqual([])
    expect(errors.filter((e) => !e.includes('410'))).toEqual([])
    await page.context().close()
  }, 60_000)

  test('the owner’s navigation counts their listings ending within 3 days beside My Listings', async () => {
    await post(1)
    await post(20)
    const { page } = await world.open(asha, '/dashboard/my-listings', { axe: true })
    const badge = page.locator('[data-expiring-badge]')
    await badge.waitFor()
    expect(await badge.textContent()).toBe('1 expiring')
    expect(await page.getByRole('link', { name: /My Listings.*1 of your listings expires within 3 days/ }).isVisible()).toBe(true)
    expect(await problems(page, 'my listings with an expiring badge')).toEqual([])
    await page.context().close()
  }, 60_000)
})
