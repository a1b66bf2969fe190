import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated } from '../support/browser'
import { insertRow } from '../support/fixtures'
import { startWorld, type World } from '../support/world'

// "N new since your last visit" (issue 17's hotsheet) in a real Chromium on a phone (390 px): a broker whose last
// visit ended an hour ago finds another broker's new listing counted on the dashboard (not her own), follows the link
// to the listings filtered by changed_since, sees the filter as a chip and removes it. axe-core and the page's width.
let world: World
let asha: SignedIn
let bo: SignedIn
const PHONE = { width: 390, height: 844 }

/** Posts a listing through the API. */
const post = (who: SignedIn, details: string) =>
  world.send<{ entry_id: string }>(who, 'POST', '/api/listings', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2 BHK', contact_value: '+91 98200 12345', details })

beforeAll(async () => {
  world = await startWorld({ geography: true })
  const mumbai = await world.cityId('Mumbai')
  asha = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  bo = await world.signIn('BROKER', { cityId: mumbai, fullName: 'Bo Kumar' })
}, 60_000)
afterAll(() => world?.stop())

describe('new since your last visit', () => {
  test('at 390 px the dashboard counts the news of others since the last visit, and its link leads to them; the chip clears the filter', async () => {
    // Asha's last visit: 90 to 60 minutes ago. Since then Bo posted a listing, and so did she.
    const now = Date.now()
    // (A visit is recorded by the dashboard itself: one in the past has to be written.)
    await insertRow(world.data, 'user_visits', { userId: asha.user.id, lastAt: now - 60 * 60_000, sinceAt: now - 90 * 60_000 }, 'user_id')
    const news = await post(bo, 'Sea-facing, posted while Asha was away')
    const own = await post(asha, 'Her own, not news to her')

    const { page, errors } = await world.open(asha, '/dashboard', { viewport: PHONE, axe: true })
    const link = page.getByRole('link', { name: '1 new since your last visit' })
    expect(await link.isVisible()).toBe(true)
    expect(await problems(page, 'broker dashboard with news @390')).toEqual([])

    await link.click()
    await page.waitForURL(/\/dashboard\/listings\?changed_since=/)
    await hydrated(page)
    const since = new URL(page.url()).searchParams.get('changed_since')!
    expect(since).toBe(new Date(now - 60 * 60_000).toISOString())
    // Both listings with news since then are listed (hers marked as hers); nothing older.
    await page.locator(`[data-entry-id="${news.entry_id}"]:visible`).first().waitFor()
    expect(await page.locator(`[data-entry-id="${own.entry_id}"]:visible`).count()).toBeGreaterThan(0)
    const chip = page.locator('[data-changed-since]')
    expect(await chip.textContent()).toContain('New or changed since')
    expect(await problems(page, 'listings filtered by changed_since @390')).toEqual([])

    await chip.getByRole('button', { name: /^Remove filter: new or changed since/ }).click()
    await chip.waitFor({ state: 'detached' })
    await page.waitForURL((url) => !url.searchParams.has('changed_since'))
    expect(errors).toEqual([])
    await page.context().close()
  })
})
