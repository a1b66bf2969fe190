import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { users } from '../../db/schema'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { sessionFor } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, launchBrowser, openDialog } from '../support/browser'
import { startServer, type RunningServer } from '../support/server'

// Saved searches in the filter bar (issue 17), in a real Chromium on a phone (390 px) against the real server with the
// demo network: save the filters in view, see a new count, reopen it from the menu (filters and URL), delete it.
let server: RunningServer
let browser: Browser
let db: Database
let token: string
let otherToken: string

beforeAll(async () => {
  server = await startServer({ env: { DEMO_DATA: '1' }, timeoutMs: 60_000 })
  browser = await launchBrowser()
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  const broker = db.select().from(users).where(eq(users.email, 'rahul.sharma@brokernet.example')).get()!
  const other = db.select().from(users).where(eq(users.role, 'BROKER')).all().find((u) => u.id !== broker.id && u.cityId === broker.cityId && u.isActive && u.registrationStatus === 'APPROVED')!
  token = await sessionFor(db, broker.id)
  otherToken = await sessionFor(db, other.id)
})
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

const api = async (path: string, as: string, init: RequestInit = {}) =>
  fetch(server.url + path, { ...init, headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json', ...init.headers } })

/** A signed-in page on `path`; `streaming`: once its live event stream is connected too. */
async function open(path: string, viewport: { width: number; height: number }, { streaming = false } = {}): Promise<{ page: Page; errors: string[] }> {
  // bypassCSP: axe-core is injected into the page (tests/support/axe.ts).
  const context = await browser.newContext({ viewport, bypassCSP: true })
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }])
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  // The server subscribes the stream to changes before it answers, so once the answer is here nothing is missed.
  const stream = streaming ? page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events') : null
  await page.goto(server.url + path)
  await hydrated(page)
  if (stream) expect((await stream).headers()['content-type']).toStartWith('text/event-stream')
  return { page, errors }
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
    const [saved] = (await (await api('/api/saved-searches', token)).json()).saved_searches
    expect(saved).toMatchObject({ name: 'Rentals wanted', alert: 'DAILY', filters: { post_type: 'REQ', sale_or_rent: 'RENT' }, new_count: 0 })

    // Another broker posts a rental requirement: after a reload the menu counts it.
    const posted = await api('/api/listings', otherToken, {
      method: 'POST',
      body: JSON.stringify({ post_type: 'REQ', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: '2 BHK', details: 'Wanted soon' }),
    })
    expect(posted.status).toBe(201)
    await page.goto(server.url + '/dashboard/listings')
    await hydrated(page)
    expect(page.url()).toBe(server.url + '/dashboard/listings')
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
    expect((await (await api('/api/saved-searches', token)).json()).saved_searches).toEqual([])
    // Nothing wider than the phone once the toast has slid in (under load its entrance may still be under way here).
    await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth, undefined, { timeout: 20_000 })
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('at 1440 px the bar holds the buttons beside Clear filters, and the dialog and menu pass axe', async () => {
    for (const s of (await (await api('/api/saved-searches', token)).json()).saved_searches) await api(`/api/saved-searches/${s.id}`, token, { method: 'DELETE' })
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
    const res = await api('/api/saved-searches', token, { method: 'POST', body: JSON.stringify({ name: 'Live lofts', filters: { property_type: 'Live Loft' }, alert: 'INSTANT' }) })
    expect(res.status).toBe(201)
    // Once the page's event stream is connected (not after a fixed moment: issue 37), another broker posts a loft.
    const { page, errors } = await open('/dashboard/listings', { width: 390, height: 844 }, { streaming: true })
    const posted = await api('/api/listings', otherToken, {
      method: 'POST',
      body: JSON.stringify({ post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: 'Live Loft', details: 'A loft' }),
    })
    expect(posted.status).toBe(201)
    const { entry_id } = await posted.json()
    await page.locator('[data-toast]').filter({ hasText: `New in "Live lofts": ${entry_id}` }).waitFor()
    await openMenu(page)
    await entry(page, 'Live lofts').locator('[data-new-count="1"]').waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })
})
