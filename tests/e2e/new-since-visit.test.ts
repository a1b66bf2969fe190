import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { seedGeography } from '../../db/seed/demo'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn, type SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, launchBrowser } from '../support/browser'
import { cityIdByName, dataLayer } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'

// "N new since your last visit" (issue 17's hotsheet) in a real Chromium on a phone (390 px): a broker whose last
// visit ended an hour ago finds another broker's new listing counted on the dashboard (not her own), follows the link
// to the listings filtered by changed_since, sees the filter as a chip and removes it. axe-core and the page's width.
let server: RunningServer
let browser: Browser
let db: Database
let asha: SignedIn
let bo: SignedIn
const PHONE = { width: 390, height: 844 }

/** Posts a listing through the API, as a browser sends it. */
async function post(who: SignedIn, details: string): Promise<{ entry_id: string }> {
  const res = await fetch(server.url + '/api/listings', {
    method: 'POST',
    headers: { cookie: `${SESSION_COOKIE}=${who.token}`, origin: new URL(server.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2 BHK', contact_value: '+91 98200 12345', details }),
  })
  if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`)
  return res.json()
}

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  // The test shares the server's SQLite file (WAL allows it) for the geography, users, sessions and the visit.
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  const mumbai = await cityIdByName(db, 'Mumbai')
  asha = await signIn(db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  bo = await signIn(db, 'BROKER', { cityId: mumbai, fullName: 'Bo Kumar' })
}, 60_000)
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

describe('new since your last visit', () => {
  test('at 390 px the dashboard counts the news of others since the last visit, and its link leads to them; the chip clears the filter', async () => {
    // Asha's last visit: 90 to 60 minutes ago. Since then Bo posted a listing, and so did she.
    const now = Date.now()
    await dataLayer(db).run('insert into user_visits (user_id, last_at, since_at) values (?, ?, ?)', [asha.user.id, now - 60 * 60_000, now - 90 * 60_000])
    const news = await post(bo, 'Sea-facing, posted while Asha was away')
    const own = await post(asha, 'Her own, not news to her')

    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true })
    await context.addCookies([{ name: SESSION_COOKIE, value: asha.token, url: server.url }])
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(server.url + '/dashboard')
    await hydrated(page)
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
    await context.close()
  })
})
