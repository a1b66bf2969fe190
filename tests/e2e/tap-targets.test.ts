import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { hydrated, openDialog, PHONE_CONTEXT } from '../support/browser'
import { measureTargets } from '../support/targets'
import { startWorld, type World } from '../support/world'

// Issue 32, finding 6: on a phone every control is at least 44 × 44 px ("58 of 63 controls of the dashboard are under
// 40 px"). A phone's Chrome (its user agent: the server sends the phone's page; 390 × 844, touch, DPR 2) on the demo
// network, every screen a broker and an admin reach, its menu and the dialogs a broker opens most: each lists every
// visible control under 44 × 44 (tests/support/targets.ts says what counts), and the list must be empty.
setDefaultTimeout(120_000)

const ACCOUNTS = { broker: 'rahul.sharma@brokernet.example', moduleAdmin: 'admin.mumbai@brokernet.example', masterAdmin: 'admin@brokernet.local' }
type Who = keyof typeof ACCOUNTS

let world: World
const tokens = {} as Record<Who, string>
const pages = new Map<Who, Page>()

beforeAll(async () => {
  world = await startWorld({ demo: true })
  for (const [who, email] of Object.entries(ACCOUNTS) as [Who, string][]) tokens[who] = (await world.account(email)).token
}, 120_000)
afterAll(() => world?.stop())

/** One phone window per account, reused from screen to screen. */
async function visit(who: Who, path: string): Promise<Page> {
  let page = pages.get(who)
  if (!page) {
    page = (await world.page(tokens[who], { viewport: { width: 390, height: 844 }, context: PHONE_CONTEXT })).page
    pages.set(who, page)
  }
  await page.goto(world.url + path)
  await hydrated(page)
  return page
}

/**
 * No control of the page (or of `scope`) under 44 × 44 px; and something was measured: a screen that failed to render
 * its controls must not pass for having none too small.
 */
async function expectBigTargets(page: Page, scope?: string) {
  const { measured, small, inline } = await measureTargets(page, scope)
  expect(small).toEqual([])
  expect(measured).toBeGreaterThanOrEqual(3)
  // No link of these screens sits inside a sentence: the inline exception (tests/support/targets.ts) is unused today.
  expect(inline).toEqual([])
  // Grown controls still fit the phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
}

const SCREENS: [Who, string][] = [
  ['broker', '/dashboard'],
  ['broker', '/dashboard/listings'],
  ['broker', '/dashboard/my-listings'],
  ['broker', '/dashboard/matches'],
  ['broker', '/dashboard/paste'],
  ['broker', '/dashboard/notifications'],
  ['broker', '/dashboard/security'],
  ['moduleAdmin', '/dashboard'],
  ['moduleAdmin', '/dashboard/approvals'],
  ['moduleAdmin', '/dashboard/brokers'],
  ['moduleAdmin', '/dashboard/listings'],
  ['moduleAdmin', '/dashboard/matches'],
  ['moduleAdmin', '/dashboard/analytics'],
  ['moduleAdmin', '/dashboard/audit'],
  ['masterAdmin', '/dashboard/admins'],
  ['masterAdmin', '/dashboard/geographic'],
  ['masterAdmin', '/dashboard/system'],
]

describe('every control of a phone screen is at least 44 × 44 px', () => {
  test.each(SCREENS)('%s %s', async (who, path) => {
    const page = await visit(who, path)
    await expectBigTargets(page)
  })

  test('the phone menu, open', async () => {
    const page = await visit('broker', '/dashboard/listings')
    await page.locator('header label[for="dashboard-drawer"]').click()
    await page.locator('.drawer-side').getByRole('link', { name: 'Saved searches' }).waitFor()
    await expectBigTargets(page, '.drawer-side')
  })

  test('the user menu (the profile: name, role, Sign out), open', async () => {
    const page = await visit('broker', '/dashboard/my-listings')
    await page.locator('[data-user-menu] > summary').click()
    await page.locator('[data-user-menu][open]').getByRole('button', { name: 'Sign out' }).waitFor()
    const { small } = await measureTargets(page, '[data-user-menu]')
    expect(small).toEqual([])
    expect(await page.locator('[data-user-menu]').getByRole('button', { name: 'Sign out' }).evaluate((b) => (b as HTMLElement).offsetHeight)).toBeGreaterThanOrEqual(44)
  })

  test('the listings’ filters and saved searches, open', async () => {
    const page = await visit('broker', '/dashboard/listings#saved-searches')
    await page.locator('[data-saved-searches][open]').waitFor()
    await page.locator('[data-filters-toggle]').click()
    await page.getByLabel('Min budget').waitFor()
    await expectBigTargets(page)
  })

  test('a listing’s details (another broker’s, with Call and WhatsApp; then the broker’s own)', async () => {
    const page = await visit('broker', '/dashboard/listings')
    await page.locator('[data-listing-card]:has([data-card-footer])').first().click()
    await openDialog(page).locator('[data-details-contact]').waitFor()
    await openDialog(page).waitFor()
    await expectBigTargets(page, 'dialog[open]')
    const mine = await visit('broker', '/dashboard/my-listings')
    await mine.locator('[data-listing-card]').first().click()
    await openDialog(mine).waitFor()
    await expectBigTargets(mine, 'dialog[open]')
  })

  test('the new listing form', async () => {
    const page = await visit('broker', '/dashboard/my-listings')
    await page.getByRole('button', { name: 'Add New Listing' }).click()
    await openDialog(page).getByLabel('Property Type').waitFor()
    await expectBigTargets(page, 'dialog[open]')
  })
})
