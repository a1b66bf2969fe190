import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import type { SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, openDialog } from '../support/browser'
import { startWorld, type World } from '../support/world'
import { CITY_SCOPE_COOKIE } from '../../src/shared/constants'

// Saved searches in the filter bar (issue 17), in a real Chromium on a phone (390 px) against the real server with the
// demo network: save the filters in view, see a new count, reopen it from the menu (filters and URL), delete it.
let world: World
let broker: SignedIn
let other: SignedIn // another broker of the same city

beforeAll(async () => {
  world = await startWorld({ demo: true })
  broker = await world.account('rahul.sharma@brokernet.example')
  const colleague = (await world.data.get<{ email: string }>(
    "select email from users where role = 'BROKER' and id <> ? and city_id = ? and is_active = 1 and registration_status = 'APPROVED' order by id",
    [broker.user.id, broker.user.cityId],
  ))!
  other = await world.account(colleague.email)
})
afterAll(() => world?.stop())

/**
 * The broker's window on `path`, axe-core allowed; the list widened to every city (issue 32: it opens on the broker's
 * own otherwise, which would add the city to the filters and the URL).
 */
async function windowFor(viewport: { width: number; height: number }) {
  const w = await world.page(broker, { viewport, axe: true })
  await w.page.context().addCookies([{ name: CITY_SCOPE_COOKIE, value: 'all', url: world.url + '/dashboard' }])
  return w
}
async function open(path: string, viewport: { width: number; height: number }) {
  const w = await windowFor(viewport)
  w.response = await w.page.goto(world.url + path)
  await hydrated(w.page)
  return w
}

const menu = (page: Page) => page.locator('[data-saved-searches]')
const entry = (page: Page, name: string) => menu(page).locator(`[data-saved-search="${name}"]`)
async function openMenu(page: Page) {
  if (!(await menu(page).evaluate((d) => (d as HTMLDetailsElement).open))) await menu(page).locator('summary').click()
}

describe('saved searches in the filter bar (issue 17)', () => {
  test('at 390 px: save the filters in view, see its new count, reopen it from the menu (filters and URL), delete it', async () => {
    const { page, errors } = await open('/dashboard/listings?post_type=REQ&sale_or_rent=RENT', { width: 390, height: 844 })
    // The first view, menu included, is in the server's HTML.
    expect(await menu(page).locator('summary').innerText()).toContain('Saved searches')

    await page.getByRole('button', { name: 'Save search' }).click()
    const dialog = openDialog(page)
    await dialog.getByLabel('Name').fill('Rentals wanted')
    await dialog.getByLabel('Alert me').selectOption('DAILY')
    expect(await problems(page, 'Save search dialog at 390 px', 'dialog[open]')).toEqual([])
    await dialog.getByRole('button', { name: 'Save', exact: true }).click()
    await page.locator('[data-toast="success"]').filter({ hasText: 'Search "Rentals wanted" saved' }).waitFor()
    await dialog.waitFor({ state: 'detached' }).catch(() => dialog.waitFor({ state: 'hidden' }))
    const [saved] = (await world.send<{ saved_searches: { id: number }[] }>(broker, 'GET', '/api/saved-searches')).saved_searches
    expect(saved).toMatchObject({ name: 'Rentals wanted', alert: 'DAILY', filters: { post_type: 'REQ', sale_or_rent: 'RENT' }, new_count: 0 })

    // Another broker posts a rental requirement: after a reload the menu counts it.
    const posted = await world.api(other, 'POST', '/api/listings', { post_type: 'REQ', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: '2 BHK', details: 'Wanted soon' })
    expect(posted.status).toBe(201)
    await page.goto(world.url + '/dashboard/listings')
    await hydrated(page)
    expect(page.url()).toBe(world.url + '/dashboard/listings')
    await openMenu(page)
    await entry(page, 'Rentals wanted').locator('[data-new-count="1"]').waitFor()
    expect(await problems(page, 'Saved searches menu open at 390 px')).toEqual([])

    // Opened: its filters are the screen's and the URL's, and it is seen.
    await entry(page, 'Rentals wanted').getByRole('button', { name: /^Rentals wanted/ }).click()
    await page.waitForURL((u) => u.search === '?post_type=REQ&sale_or_rent=RENT')
    await page.locator('[data-filters-toggle]').click()
    expect(await page.locator('#listing-filter-post_type').inputValue()).toBe('REQ')
    expect(await page.locator('#listing-filter-sale_or_rent').inputValue()).toBe('RENT')
    await page.waitForFunction(async () => (await (await fetch('/api/saved-searches')).json()).saved_searches[0].new_count === 0)
    await openMenu(page)
    await expect(entry(page, 'Rentals wanted').locator('[data-new-count]').count()).resolves.toBe(0)

    // Deleted from the menu.
    await entry(page, 'Rentals wanted').getByRole('button', { name: 'Delete saved search Rentals wanted' }).click()
    await page.locator('[data-toast="success"]').filter({ hasText: 'Search "Rentals wanted" deleted' }).waitFor()
    await entry(page, 'Rentals wanted').waitFor({ state: 'detached' })
    expect((await world.send<{ saved_searches: { id: number }[] }>(broker, 'GET', '/api/saved-searches')).saved_searches).toEqual([])
    // Nothing wider than the phone once the toast has slid in (under load its entrance may still be under way here).
    await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 20_000 })
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('at 1440 px the bar holds the buttons beside Clear filters, and the dialog and menu pass axe', async () => {
    for (const s of (await world.send<{ saved_searches: { id: number }[] }>(broker, 'GET', '/api/saved-searches')).saved_searches) await world.api(broker, 'DELETE', `/api/saved-searches/${s.id}`)
    const { page, errors } = await open('/dashboard/listings?location=West', { width: 1440, height: 900 })
    await page.getByRole('button', { name: 'Save search' }).click()
    expect(await problems(page, 'Save search dialog at 1440 px', 'dialog[open]')).toEqual([])
    // A name is required: said in the dialog, nothing sent.
    await openDialog(page).getByRole('button', { name: 'Save', exact: true }).click()
    await openDialog(page).getByText('Name is required').waitFor()
    await openDialog(page).getByRole('button', { name: 'Cancel' }).click()
    await openMenu(page)
    await menu(page).getByText('No saved searches yet').waitFor()
    expect(await problems(page, 'Saved searches menu open at 1440 px')).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('an INSTANT search: a listing posted into it is said at once, and its count follows', async () => {
    const res = await world.api(broker, 'POST', '/api/saved-searches', { name: 'Live lofts', filters: { property_type: 'Live Loft' }, alert: 'INSTANT' })
    expect(res.status).toBe(201)
    const w = await windowFor({ width: 390, height: 844 })
    const { page, errors } = w
    // Once the page's event stream has answered, it is subscribed (the server subscribes before it answers): then
    // another broker posts a loft.
    const stream = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
    await page.goto(world.url + '/dashboard/listings')
    await hydrated(page)
    await stream
    const posted = await world.api(other, 'POST', '/api/listings', { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: 'Live Loft', details: 'A loft' })
    expect(posted.status).toBe(201)
    const { entry_id } = await posted.json()
    await page.locator('[data-toast]').filter({ hasText: `New in "Live lofts": ${entry_id}` }).waitFor()
    await openMenu(page)
    await entry(page, 'Live lofts').locator('[data-new-count="1"]').waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })
})
