import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { users } from '../../db/schema'
import { seedGeography } from '../../db/seed/demo'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn } from '../support/auth'
import { launchBrowser, openPage, type WatchedPage, hydrated, openDialog } from '../support/browser'
import { cityIdByName, dataLayer } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'

// The approvals screen in a real Chromium against the real server: registrations come in through the public API
// (documents stored for real), admins decide in the browser, and other open windows follow live.
let server: RunningServer
let browser: Browser
let db: Database
let mumbai: number
let pune: number

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  // The server's own SQLite file (WAL allows sharing): geography, admins and their sessions are made directly.
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  const cityId = (name: string) => cityIdByName(db, name)
  mumbai = await cityId('Mumbai')
  pune = await cityId('Pune')
})
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

/** A 1×1 PNG: a real image by its bytes, as the server checks. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

type Applicant = { full_name: string; email: string; city_id: number; phone?: string; id_card_number?: string; document?: boolean }

/** Registers through the public API, as the /register page does (multipart, the document as id_card_file). */
async function register(a: Applicant) {
  const fd = new FormData()
  fd.set('email', a.email)
  fd.set('password', 'Str0ng!Pass')
  fd.set('full_name', a.full_name)
  fd.set('city_id', String(a.city_id))
  if (a.phone) fd.set('phone', a.phone)
  if (a.id_card_number) fd.set('id_card_number', a.id_card_number)
  if (a.document) fd.set('id_card_file', new File([PNG], 'card.png', { type: 'image/png' }))
  const res = await fetch(server.url + '/api/auth/register', { method: 'POST', body: fd })
  expect(res.status).toBe(201)
}

/** A signed-in window on `path`; `watch` sees the page before it loads, `streaming` waits for the live connection. */
async function openAs(who: Awaited<ReturnType<typeof signIn>>, path: string, opts: { watch?: (page: Page) => unknown; streaming?: boolean } = {}) {
  const w = await openPage(browser, server.url)
  await w.page.context().addCookies([{ name: SESSION_COOKIE, value: who.token, url: server.url }])
  await opts.watch?.(w.page)
  // The server subscribes the stream to changes before it answers, so once the answer is here nothing is missed.
  const stream = opts.streaming ? w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events') : null
  await w.page.goto(server.url + path)
  await hydrated(w.page)
  if (stream) expect((await stream).headers()['content-type']).toStartWith('text/event-stream')
  return w
}

const dialog = openDialog
const card = (page: Page, email: string) => page.locator(`[data-pending-user="${email}"]`)
const totalBadge = (page: Page) => page.locator('[data-pending-total]')
const navBadge = (page: Page) => page.locator('[data-pending-badge]')
/** Browsers log refused requests ("status of 404"); those answers are under test here, not faults. */
const realErrors = (w: WatchedPage) => w.consoleErrors.filter((e) => !/status of (400|401|403|404|409|422)\b/.test(e))

async function done(w: WatchedPage) {
  expect(realErrors(w)).toEqual([])
  // Chromium's own PDF viewer loads its parts from chrome: and chrome-extension: URLs: inside the browser, not off host.
  expect(w.offHostRequests.filter((u) => !/^chrome(-extension)?:/.test(u))).toEqual([])
  await w.page.context().close()
}

const ASHA = { full_name: 'Asha Verma', email: 'asha.verma@example.com', city_id: 0, phone: '+91 98200 12345', id_card_number: 'MH-1234-5678', document: true }
const RAVI = { full_name: 'Ravi Kumar', email: 'ravi.kumar@example.com', city_id: 0 }
const NEHA = { full_name: 'Neha Shah', email: 'neha.shah@example.com', city_id: 0 }
const PRIYA = { full_name: 'Priya Nair', email: 'priya.nair@example.com', city_id: 0, id_card_number: 'PN-42' }

describe('user approvals', () => {
  let master: Awaited<ReturnType<typeof signIn>>

  beforeAll(async () => {
    master = await signIn(db, 'MASTER_ADMIN', { fullName: 'Maya Master' })
    for (const a of [
      { ...ASHA, city_id: mumbai },
      { ...RAVI, city_id: mumbai },
      { ...NEHA, city_id: mumbai },
      { ...PRIYA, city_id: pune },
    ])
      await register(a)
  })

  test('the first view is complete from the server: heading, count, every pending user, the nav badge', async () => {
    const res = await fetch(server.url + '/dashboard/approvals', { headers: { cookie: `${SESSION_COOKIE}=${master.token}` } })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<title>User Approvals · Brokernet</title>')
    expect(html).toContain('Review and approve new user registrations. Manage access to the platform for new brokers.')
    expect(html).toContain('4 pending approvals')
    for (const a of [ASHA, RAVI, NEHA, PRIYA]) expect(html).toContain(a.full_name)
    expect(html).toMatch(/data-pending-badge[^>]*>4</)
    expect(html).toContain('Registered Just now')
  })

  test('each pending user: avatar initial, badge, contact, place, relative time, ID card and its document button', async () => {
    const w = await openAs(master, '/dashboard/approvals')
    const { page } = w
    const asha = card(page, ASHA.email)
    expect(await asha.locator('.avatar').textContent()).toBe('A')
    for (const text of ['Asha Verma', 'Pending Approval', ASHA.email, ASHA.phone, 'Mumbai, Maharashtra', 'Registered Just now', 'ID Card: MH-1234-5678'])
      expect(await asha.getByText(text, { exact: true }).count()).toBe(1)
    expect(await asha.getByRole('button', { name: 'View Document' }).count()).toBe(1)
    // An ID card number without a document: no document button.
    const priya = card(page, PRIYA.email)
    expect(await priya.getByText('ID Card: PN-42').count()).toBe(1)
    expect(await priya.getByRole('button', { name: 'View Document' }).count()).toBe(0)
    expect(await card(page, RAVI.email).getByText(/ID Card/).count()).toBe(0)
    expect(await totalBadge(page).textContent()).toBe('4 pending approvals')
    expect(await navBadge(page).getAttribute('aria-label')).toBe('4 pending approvals')
    await done(w)
  })

  test('the ID card dialog: hidden until asked, a failed load retried, shown as an image, downloaded by name, released on close', async () => {
    // Records the blob: URLs the page releases (fetching one to find out is refused by connect-src 'self').
    const watch = (page: Page) =>
      page.addInitScript(() => {
        const released: string[] = ((window as unknown as { released: string[] }).released = [])
        const revoke = URL.revokeObjectURL.bind(URL)
        URL.revokeObjectURL = (url: string) => (released.push(url), revoke(url))
      })
    const w = await openAs(master, '/dashboard/approvals', { watch })
    const { page } = w
    await card(page, ASHA.email).getByRole('button', { name: 'View Document' }).click()
    await dialog(page).getByText('ID card document is hidden for privacy').waitFor()
    expect(await dialog(page).locator('img').count()).toBe(0)

    // A failure shows the server's reason and 'Try again'.
    await page.route('**/api/users/*/id-card', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ detail: 'No ID card document on file' }) }),
    )
    await dialog(page).getByRole('button', { name: 'Load ID Card' }).click()
    await dialog(page).getByText('No ID card document on file').waitFor()
    await page.unroute('**/api/users/*/id-card')
    await dialog(page).getByRole('button', { name: 'Try again' }).click()

    // Loaded, still hidden; Show reveals the image, Hide hides it again.
    await dialog(page).getByRole('button', { name: 'Show Document' }).waitFor()
    expect(await dialog(page).getByText('ID card document is hidden for privacy').count()).toBe(1)
    await dialog(page).getByRole('button', { name: 'Show Document' }).click()
    const img = dialog(page).locator('img')
    await img.waitFor()
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1)
    const blobUrl = (await img.getAttribute('src'))!
    expect(blobUrl).toStartWith('blob:')
    await dialog(page).getByRole('button', { name: 'Hide Document' }).click()
    await dialog(page).getByText('ID card document is hidden for privacy').waitFor()

    const [download] = await Promise.all([page.waitForEvent('download'), dialog(page).getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('Asha_Verma_id_card.png')
    expect(Buffer.from(readFileSync((await download.path())!)).equals(PNG)).toBe(true)

    await page.keyboard.press('Escape')
    expect(await dialog(page).count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { released: string[] }).released)).toEqual([blobUrl])
    await done(w)
  })

  test('a PDF document is shown in a frame (the CSP allows blob: frames, no plugins) and downloads as .pdf', async () => {
    const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')
    const fd = new FormData()
    for (const [k, v] of Object.entries({ email: 'dev.pdf@example.com', password: 'Str0ng!Pass', full_name: 'Dev Pdf Rao', city_id: String(pune) })) fd.set(k, v)
    fd.set('id_card_file', new File([PDF], 'card.pdf', { type: 'application/pdf' }))
    expect((await fetch(server.url + '/api/auth/register', { method: 'POST', body: fd })).status).toBe(201)

    const w = await openAs(master, '/dashboard/approvals')
    const { page } = w
    await card(page, 'dev.pdf@example.com').getByRole('button', { name: 'View Document' }).click()
    await dialog(page).getByRole('button', { name: 'Load ID Card' }).click()
    await dialog(page).getByRole('button', { name: 'Show Document' }).click()
    const frame = dialog(page).locator('iframe')
    await frame.waitFor()
    expect(await frame.getAttribute('src')).toStartWith('blob:')
    expect(await dialog(page).getByRole('link', { name: 'Open it in a new tab' }).count()).toBe(1)
    const [download] = await Promise.all([page.waitForEvent('download'), dialog(page).getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('Dev_Pdf_Rao_id_card.pdf')
    expect(Buffer.from(readFileSync((await download.path())!)).equals(Buffer.from(PDF))).toBe(true)
    await page.keyboard.press('Escape')
    // Rejected so the rest of the suite sees only its own applicants.
    await card(page, 'dev.pdf@example.com').getByRole('button', { name: 'Reject' }).click()
    await dialog(page).getByRole('button', { name: 'Reject Registration' }).click()
    await card(page, 'dev.pdf@example.com').waitFor({ state: 'detached' })
    await done(w)
  })

  test('approve: confirmation, success toast, gone from the list, both counts go down, the user is active', async () => {
    const w = await openAs(master, '/dashboard/approvals')
    const { page } = w
    await card(page, RAVI.email).getByRole('button', { name: 'Approve' }).click()
    await dialog(page).getByRole('heading', { name: 'Approve User Registration' }).waitFor()
    expect(await dialog(page).textContent()).toContain('Ravi Kumar')
    expect(await dialog(page).textContent()).toContain('able to log in')
    await dialog(page).getByRole('button', { name: 'Approve User' }).click()
    await page.locator('[data-toast="success"]', { hasText: 'Ravi Kumar has been approved successfully!' }).waitFor()
    await card(page, RAVI.email).waitFor({ state: 'detached' })
    expect(await dialog(page).count()).toBe(0)
    expect(await totalBadge(page).textContent()).toBe('3 pending approvals')
    expect(await navBadge(page).textContent()).toBe('3')
    const ravi = db.select().from(users).where(eq(users.email, RAVI.email)).get()!
    expect([ravi.registrationStatus, ravi.isActive]).toEqual(['APPROVED', true])
    await done(w)
  })

  test('reject with a reason: confirmation, info toast, gone from the list, the reason kept', async () => {
    const w = await openAs(master, '/dashboard/approvals')
    const { page } = w
    await card(page, NEHA.email).getByRole('button', { name: 'Reject' }).click()
    await dialog(page).getByRole('heading', { name: 'Reject User Registration' }).waitFor()
    expect(await dialog(page).textContent()).toContain('inactive')
    await dialog(page).getByLabel('Reason (optional)').fill('The ID card photo is unreadable & expired')
    await dialog(page).getByRole('button', { name: 'Reject Registration' }).click()
    await page.locator('[data-toast="info"]', { hasText: "Neha Shah's registration has been rejected." }).waitFor()
    await card(page, NEHA.email).waitFor({ state: 'detached' })
    expect(await totalBadge(page).textContent()).toBe('2 pending approvals')
    expect(await navBadge(page).textContent()).toBe('2')
    const neha = db.select().from(users).where(eq(users.email, NEHA.email)).get()!
    expect([neha.registrationStatus, neha.isActive, neha.rejectionReason]).toEqual(['REJECTED', false, 'The ID card photo is unreadable & expired'])
    await done(w)
  })

  test('a failed load shows the error panel with Retry; a refused approval says so and keeps the dialog', async () => {
    const w = await openAs(master, '/dashboard/approvals')
    const { page } = w
    await page.route('**/api/users/pending/approvals', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ detail: 'Not today' }) }),
    )
    await page.getByRole('button', { name: 'Refresh' }).click()
    const panel = page.getByRole('alert').filter({ hasText: 'Error Loading Pending Users' })
    await panel.getByText('Not today').waitFor()
    await page.unroute('**/api/users/pending/approvals')
    // Retry brings the list back. A refetch of the screen's own (a retry still in flight) may get there first and take
    // the panel away under the click: then there is nothing left to click, and the panel must simply be gone.
    await panel
      .getByRole('button', { name: 'Retry' })
      .click({ timeout: 20_000 })
      .catch(async (e) => {
        if ((await panel.count()) > 0) throw e
      })
    await panel.waitFor({ state: 'detached' })

    await page.route('**/api/users/*/approve', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ detail: 'This user is already approved' }) }),
    )
    await card(page, ASHA.email).getByRole('button', { name: 'Approve' }).click()
    await dialog(page).getByRole('button', { name: 'Approve User' }).click()
    await page.locator('[data-toast="error"]', { hasText: 'Failed to approve user. Please try again.' }).waitFor()
    await dialog(page).getByText('This user is already approved').waitFor()
    // Its own error handling: not also the global 'An unexpected error occurred'.
    expect(await page.locator('[data-toast="error"]').count()).toBe(1)
    await page.keyboard.press('Escape')
    await page.unroute('**/api/users/*/approve')
    expect(await card(page, ASHA.email).count()).toBe(1)
    await done(w)
  })

  test("a module admin sees only their city's registrations, and 'All caught up!' once they are handled", async () => {
    const admin = await signIn(db, 'MODULE_ADMIN', { cityId: pune })
    const w = await openAs(admin, '/dashboard/approvals')
    const { page } = w
    expect(await page.locator('[data-pending-user]').count()).toBe(1)
    expect(await card(page, PRIYA.email).count()).toBe(1)
    expect(await totalBadge(page).textContent()).toBe('1 pending approvals')
    expect(await navBadge(page).textContent()).toBe('1')
    // Nothing of Mumbai reaches this admin, not even through the API.
    const api = await page.evaluate(() => fetch('/api/users/pending/approvals').then((r) => r.json()))
    expect(api.pending_users.map((u: { email: string }) => u.email)).toEqual([PRIYA.email])

    await card(page, PRIYA.email).getByRole('button', { name: 'Approve' }).click()
    await dialog(page).getByRole('button', { name: 'Approve User' }).click()
    await page.getByText('All caught up!').waitFor()
    expect(await page.getByText('No pending user registrations at the moment.').count()).toBe(1)
    expect(await page.getByText('New registrations will appear here automatically.').count()).toBe(1)
    expect(await totalBadge(page).textContent()).toBe('0 pending approvals')
    await navBadge(page).waitFor({ state: 'detached' }) // hidden at zero
    await done(w)
  })

  test('other windows follow live: a new registration appears without reload, nav badges go up and down, one stream per page', async () => {
    // The master admin handles the last pending registration: the screen is empty and its badge hidden.
    const streams: string[] = []
    const board = await openAs(master, '/dashboard/approvals', {
      streaming: true,
      watch: (page) => page.on('request', (r) => new URL(r.url()).pathname === '/api/events' && streams.push(r.url())),
    })
    await board.page.waitForSelector('[data-stream="live"]')
    await card(board.page, ASHA.email).getByRole('button', { name: 'Approve' }).click()
    await dialog(board.page).getByRole('button', { name: 'Approve User' }).click()
    await board.page.getByText('All caught up!').waitFor()
    await navBadge(board.page).waitFor({ state: 'detached' })

    // A second approvals window (the Mumbai module admin's), and the master admin's home page, where only the badge listens.
    const second = await openAs(await signIn(db, 'MODULE_ADMIN', { cityId: mumbai }), '/dashboard/approvals', { streaming: true })
    const home = await openAs(master, '/dashboard', { streaming: true })
    await second.page.getByText('All caught up!').waitFor()
    expect(await navBadge(home.page).count()).toBe(0)
    for (const w of [board, second, home]) await w.page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))

    const KARAN = 'karan.mehta@example.com'
    await register({ full_name: 'Karan Mehta', email: KARAN, city_id: mumbai, id_card_number: 'MH-777' })
    // Through the stream, with no reload: a live board does not poll (it would only every 10 s when not live), and it is
    // still live after (checked below), so the card came over the stream. Waited for up to 20 s, not timed (issue 37).
    for (const w of [board, second]) {
      await card(w.page, KARAN).waitFor({ timeout: 20_000 })
      expect(await w.page.locator('[data-stream="live"]').count()).toBe(1)
      expect(await totalBadge(w.page).textContent()).toBe('1 pending approvals')
      expect(await navBadge(w.page).textContent()).toBe('1')
    }
    await home.page.locator('[data-pending-badge]', { hasText: '1' }).waitFor({ timeout: 20_000 })
    for (const w of [board, second, home]) expect(await w.page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)

    // Approved in the second window: the first loses the card, and every badge hides again.
    await card(second.page, KARAN).getByRole('button', { name: 'Approve' }).click()
    await dialog(second.page).getByRole('button', { name: 'Approve User' }).click()
    await second.page.locator('[data-toast="success"]', { hasText: 'Karan Mehta has been approved successfully!' }).waitFor()
    await card(board.page, KARAN).waitFor({ state: 'detached', timeout: 20_000 })
    await board.page.getByText('All caught up!').waitFor()
    for (const w of [board, second, home]) await navBadge(w.page).waitFor({ state: 'detached', timeout: 20_000 })

    // The board and the badge of a page share one connection.
    expect(streams.length).toBe(1)
    for (const w of [home, second, board]) await done(w)
  })
})

describe('the matches badge in the navigation', () => {
  test('the unseen count from the server, then live: up when a match arrives, down when seen, hidden at zero, on the page’s one stream', async () => {
    const seeker = await signIn(db, 'BROKER', { cityId: pune, fullName: 'Sana Seeker' })
    const offerer = await signIn(db, 'BROKER', { cityId: pune, fullName: 'Omar Offerer' })
    const api = (as: typeof seeker, path: string, body?: unknown) =>
      fetch(server.url + path, { method: body === undefined ? 'GET' : 'POST', headers: { ...as.bearer, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    const post = async (as: typeof seeker, post_type: 'REQ' | 'AVL', budget: number) =>
      expect((await api(as, '/api/listings', { post_type, sale_or_rent: 'RENT', property_type: 'Studio Loft', budget, contact_value: '9876543210' })).status).toBe(201)
    await post(seeker, 'REQ', 60_000)
    await post(offerer, 'AVL', 55_000)

    const streams: string[] = []
    const w = await openAs(seeker, '/dashboard', { streaming: true, watch: (page) => page.on('request', (r) => new URL(r.url()).pathname === '/api/events' && streams.push(r.url())) })
    const badge = w.page.locator('[data-matches-badge]')
    expect(await badge.textContent()).toBe('1')
    expect(await badge.getAttribute('aria-label')).toBe('1 unseen match')
    // The link says what the badge shows.
    expect(await w.page.getByRole('link', { name: 'Matches 1 unseen match', exact: true }).getAttribute('href')).toBe('/dashboard/matches')
    await w.page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))

    await post(offerer, 'AVL', 58_000)
    // Over the page's one stream (checked below: a dropped one would have been opened again), waited for up to 20 s.
    await w.page.locator('[data-matches-badge]', { hasText: '2' }).waitFor({ timeout: 20_000 })
    expect(await badge.getAttribute('aria-label')).toBe('2 unseen matches')

    // Seen elsewhere (another tab, the matches page): the badge follows, and hides at zero.
    const inbox = (await (await api(seeker, '/api/matches?unseen=1')).json()) as { matches: { id: number }[] }
    for (const m of inbox.matches) expect((await api(seeker, `/api/matches/${m.id}/seen`, {})).status).toBe(204)
    await badge.waitFor({ state: 'detached', timeout: 20_000 })
    expect(await w.page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
    expect(streams.length).toBe(1)
    await done(w)
  })
})
