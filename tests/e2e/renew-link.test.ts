import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { seedGeography } from '../../db/seed/demo'
import { renewKey, renewToken } from '../../src/modules/listings/renew-link'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn, type SignedIn } from '../support/auth'
import { problems } from '../support/axe'
import { hydrated, launchBrowser } from '../support/browser'
import { cityIdByName, dataLayer } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'

// Expiry reminders (issue 17) in a real Chromium: the mail's renew link opened on a phone (390 px) shows the offer and
// renews nothing until its one button is pressed; then it confirms, and the same link is refused. The owner's
// navigation counts their listings ending within 3 days beside My Listings. axe-core and the page's width each time.
let server: RunningServer
let browser: Browser
let db: Database
let asha: SignedIn
const PHONE = { width: 390, height: 844 }
const DAY = 86_400_000

/** Posts a listing ending in `days` through the API, as a browser sends it. */
async function post(days: number): Promise<{ id: number; entry_id: string; expires_at: string }> {
  const res = await fetch(server.url + '/api/listings', {
    method: 'POST',
    headers: { cookie: `${SESSION_COOKIE}=${asha.token}`, origin: new URL(server.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify({ post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2 BHK', contact_value: '+91 98200 12345', expires_at: new Date(Date.now() + days * DAY).toISOString() }),
  })
  if (res.status !== 201) throw new Error(`post: ${res.status} ${await res.text()}`)
  return res.json()
}
const stored = async (id: number) => (await dataLayer(db).get<{ status: string; expires_at: number }>('select status, expires_at from listings where id = ?', [id]))!

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  // The test shares the server's SQLite file (WAL allows it): geography, the user, and the key renew links are signed with.
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  asha = await signIn(db, 'BROKER', { cityId: await cityIdByName(db, 'Pune'), fullName: 'Asha Renew' })
}, 60_000)
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

describe('the renew link', () => {
  test('at 390 px: the page offers, the button renews and confirms, the link then refuses', async () => {
    const listing = await post(2)
    // The link the reminder mails (src/modules/listings/reminders.ts), signed with the key the server shares.
    const link = `${server.url}/renew/${renewToken(await renewKey(dataLayer(db)), { id: listing.id, expiresAt: Date.parse(listing.expires_at) }, Date.now())}`
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    page.on('pageerror', (e) => errors.push(e.message))

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
    await context.close()
  }, 60_000)

  test('the owner’s navigation counts their listings ending within 3 days beside My Listings', async () => {
    await post(1)
    await post(20)
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true })
    await context.addCookies([{ name: SESSION_COOKIE, value: asha.token, url: server.url }])
    const page = await context.newPage()
    await page.goto(server.url + '/dashboard/my-listings')
    await hydrated(page)
    const badge = page.locator('[data-expiring-badge]')
    await badge.waitFor()
    expect(await badge.textContent()).toBe('1')
    expect(await page.getByRole('link', { name: /My Listings.*1 of your listings expires within 3 days/ }).isVisible()).toBe(true)
    expect(await problems(page, 'my listings with an expiring badge')).toEqual([])
    await context.close()
  }, 60_000)
})
