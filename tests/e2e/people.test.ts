import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { and, count, eq } from 'drizzle-orm'
import type { Browser, Page } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { users } from '../../db/schema'
import { seedGeography } from '../../db/seed/demo'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn, sessionFor } from '../support/auth'
import { launchBrowser, openPage, type WatchedPage, hydrated, openDialog, typeOnPausedClock } from '../support/browser'
import { eventually } from '../support/eventually'
import { FILE_BYTES, cityIdByName, dataLayer } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'

// Broker and module admin management in a real Chromium against the real server (SPEC section 2).
let server: RunningServer
let browser: Browser
let db: Database
let pune: number
let mumbai: number

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  // The test shares the server's SQLite file (WAL allows it) to create users and sessions directly.
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
  await seedGeography(dataLayer(db))
  const cityId = (name: string) => cityIdByName(db, name)
  pune = await cityId('Pune')
  mumbai = await cityId('Mumbai')
})
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

const dialog = openDialog
const row = (page: Page, email: string) => page.locator(`tr[data-user-email="${email}"]`)
const bodyRows = (page: Page) => page.locator('table tbody tr')
/** Browsers log refused requests ("status of 403"); those answers are under test here, not faults. */
const realErrors = (w: WatchedPage) => w.consoleErrors.filter((e) => !/status of (400|401|403|409|413|422)\b/.test(e))

async function openAs(who: Awaited<ReturnType<typeof signIn>>, path: string): Promise<WatchedPage> {
  const w = await openPage(browser, server.url)
  await w.page.context().addCookies([{ name: SESSION_COOKIE, value: who.token, url: server.url }])
  await w.page.goto(server.url + path)
  return w
}

let seq = 0
/** A broker stored directly, as if added earlier. */
function addBroker(fullName: string, cityId: number | null, extra: Partial<typeof users.$inferInsert> = {}) {
  seq++
  return db
    .insert(users)
    .values({
      email: `${fullName.toLowerCase().replace(/\W+/g, '.')}.${seq}@people.example`,
      passwordHash: 'fixture',
      fullName,
      phone: `+91 90000 ${String(seq).padStart(5, '0')}`,
      role: 'BROKER',
      isActive: true,
      registrationStatus: 'APPROVED',
      cityId,
      ...extra,
    })
    .returning()
    .get()
}

const userByEmail = (email: string) => db.select().from(users).where(eq(users.email, email)).get()

describe('broker management by a module admin', () => {
  let w: WatchedPage
  let kavya: ReturnType<typeof addBroker>
  const NEW_EMAIL = 'rohan.kulkarni@people.example'

  beforeAll(async () => {
    const admin = await signIn(db, 'MODULE_ADMIN', { cityId: pune, fullName: 'Priya Nair' })
    w = await openAs(admin, '/dashboard/brokers')
    await hydrated(w.page)
  })
  afterAll(async () => {
    await w?.page.context().close()
  })

  test('the empty list invites adding the first broker', async () => {
    const { page } = w
    await page.getByRole('heading', { name: 'Broker Management' }).waitFor()
    await page.getByText('No brokers found').waitFor()
    expect(await page.getByText('Get started by adding your first broker').isVisible()).toBe(true)
    // The server scopes a module admin to their city: no country/state/city filters to offer.
    expect(await page.locator('#user-filter-country_id').count()).toBe(0)
    expect(await page.getByPlaceholder('Search by name, email, or ID card number...').isVisible()).toBe(true)
  })

  test('add a broker: the city is preset and read-only, empty fields are named, the new broker appears in the table', async () => {
    const { page } = w
    await page.getByRole('button', { name: 'Add Broker' }).click()
    const d = dialog(page)
    const city = d.getByLabel('City', { exact: true })
    expect(await city.inputValue()).toBe('Pune, Maharashtra')
    expect(await city.getAttribute('readonly')).not.toBeNull()

    await d.getByRole('button', { name: 'Create Broker' }).click()
    for (const message of ['Email is required', 'Password is required', 'Full name is required', 'Phone number is required']) await d.getByText(message).waitFor()
    expect(await d.getByText('JPG, PNG, PDF, max 10MB').isVisible()).toBe(true)
    // Editing a field clears its message only.
    await d.getByLabel('Email', { exact: true }).fill(NEW_EMAIL)
    expect(await d.getByText('Email is required').count()).toBe(0)
    expect(await d.getByText('Password is required').count()).toBe(1)

    await d.getByLabel('Full Name', { exact: true }).fill('Rohan Kulkarni')
    await d.getByLabel('Phone', { exact: true }).fill('+91 98200 11111')
    await d.getByLabel('Password', { exact: true }).fill('short')
    await d.getByRole('button', { name: 'Create Broker' }).click()
    await d.getByText('Password must be at least 8 characters').waitFor()
    await d.getByLabel('Password', { exact: true }).fill('Broker#Pass1')
    await d.getByLabel('ID Card Number (optional)', { exact: true }).fill('MH-PN-0001')
    await d.locator('input[type="file"]').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: Buffer.from(FILE_BYTES.png()) })
    await d.getByText('card.png').waitFor()
    await d.getByRole('button', { name: 'Create Broker' }).click()

    await page.locator('[data-toast="success"]').filter({ hasText: 'Broker created successfully' }).waitFor()
    expect(await dialog(page).count()).toBe(0)
    const r = row(page, NEW_EMAIL)
    await r.waitFor()
    expect(await r.textContent()).toContain('Rohan Kulkarni')
    expect(await r.textContent()).toContain('ID: MH-PN-0001')
    expect(await r.textContent()).toContain('Pune')
    expect(await r.textContent()).toContain('Active')
    expect(await r.getByRole('button', { name: 'View ID card of Rohan Kulkarni' }).isVisible()).toBe(true)
    expect(await r.locator('td').nth(4).textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)

    const stored = userByEmail(NEW_EMAIL)!
    expect(stored).toMatchObject({ role: 'BROKER', cityId: pune, isActive: true, registrationStatus: 'APPROVED', idCardNumber: 'MH-PN-0001' })
    expect(stored.idCardDocument).not.toBeNull()

    // The same email again: the server's reason, in the banner at the top of the form.
    await page.getByRole('button', { name: 'Add Broker' }).click()
    const again = dialog(page)
    expect(await again.getByLabel('Email', { exact: true }).inputValue()).toBe('') // the form starts empty
    await again.getByLabel('Email', { exact: true }).fill(NEW_EMAIL)
    await again.getByLabel('Full Name', { exact: true }).fill('Rohan Again')
    await again.getByLabel('Phone', { exact: true }).fill('+91 98200 22222')
    await again.getByLabel('Password', { exact: true }).fill('Broker#Pass1')
    await again.getByRole('button', { name: 'Create Broker' }).click()
    await again.getByRole('alert').filter({ hasText: 'email already registered' }).waitFor()
    await page.keyboard.press('Escape')
    expect(await dialog(page).count()).toBe(0)
  })

  test('search waits for typing to pause (300 ms), then narrows the table; other cities never show', async () => {
    const { page } = w
    kavya = addBroker('Kavya Rao', pune, { idCardNumber: 'MH-PN-0777' })
    addBroker('Arjun Mehta', pune)
    addBroker('Kavya Mumbaikar', mumbai)
    // The page's own clock from here (Playwright's), so that the search below waits on the page's time (issue 37).
    await page.clock.install()
    await page.reload()
    await hydrated(page)
    await row(page, kavya.email).waitFor()
    expect(await bodyRows(page).count()).toBe(3) // Rohan, Kavya, Arjun: not the Mumbai broker
    expect(await page.getByText('Kavya Mumbaikar').count()).toBe(0)

    const searches: string[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname === '/api/users' && url.searchParams.has('search')) searches.push(url.searchParams.get('search')!)
    })
    // 299 ms between keys on the page's paused clock: no search mid-word; 300 ms after the last key, one.
    await typeOnPausedClock(page, page.getByPlaceholder('Search by name, email, or ID card number...'), ['ka', 'vy', 'a'], 299)
    await page.clock.runFor(1)
    await eventually('the search request 300 ms after the last key', () => searches.includes('kavya'), 20_000)
    await page.clock.resume()
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)
    expect(searches).toEqual(['kavya'])
    expect(await bodyRows(page).first().textContent()).toContain('Kavya Rao')

    // By ID card number too.
    await page.getByPlaceholder('Search by name, email, or ID card number...').fill('PN-0001')
    await row(page, NEW_EMAIL).waitFor()
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)

    await page.getByPlaceholder('Search by name, email, or ID card number...').fill('nobody-like-this')
    await page.getByText('No brokers found').waitFor()
    expect(await page.getByText('Try adjusting your search or filters').isVisible()).toBe(true)

    await page.getByPlaceholder('Search by name, email, or ID card number...').fill('')
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3)
  })

  test('an ID card number without a document: the dialog says so plainly, with the number, and offers no retry', async () => {
    const { page } = w
    await row(page, kavya.email).getByRole('button', { name: 'View ID card of Kavya Rao' }).click()
    const d = dialog(page)
    await d.getByText('No ID card document on file').waitFor()
    expect(await d.textContent()).toContain('ID card number: MH-PN-0777')
    // A fact, not a failure: no error box, no Try again, nothing to load.
    expect(await d.getByRole('alert').count()).toBe(0)
    expect(await d.locator('.alert-error').count()).toBe(0)
    expect(await d.getByRole('button', { name: 'Try again' }).count()).toBe(0)
    expect(await d.getByRole('button', { name: 'Load ID Card' }).count()).toBe(0)
    await page.keyboard.press('Escape')
    expect(await dialog(page).count()).toBe(0)
  })

  test('deactivate after the confirmation, the status becomes Inactive; then activate again', async () => {
    const { page } = w
    const r = row(page, kavya.email)
    await r.getByRole('button', { name: 'Deactivate Kavya Rao' }).click()
    const d = dialog(page)
    await d.getByText('Are you sure you want to deactivate Kavya Rao? They will lose access to the platform.').waitFor()
    expect(await d.getByRole('button', { name: 'Deactivate', exact: true }).getAttribute('class')).toContain('btn-error')
    await d.getByRole('button', { name: 'Deactivate', exact: true }).click()
    await page.locator('[data-toast="success"]').filter({ hasText: 'Kavya Rao has been deactivated' }).waitFor()
    await r.getByText('Inactive', { exact: true }).waitFor()
    expect(userByEmail(kavya.email)!.isActive).toBe(false)

    // The status filter.
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Inactive' })
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)
    await r.waitFor()
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'All Status' })
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3)

    await r.getByRole('button', { name: 'Activate Kavya Rao' }).click()
    await d.getByText('Are you sure you want to activate Kavya Rao? They will regain access to the platform.').waitFor()
    expect(await d.getByRole('button', { name: 'Activate', exact: true }).getAttribute('class')).toContain('btn-info')
    await d.getByRole('button', { name: 'Activate', exact: true }).click()
    await r.getByText('Active', { exact: true }).waitFor()
    expect(userByEmail(kavya.email)!.isActive).toBe(true)
  })

  test("edit a broker's phone; a required field left empty is named", async () => {
    const { page } = w
    const r = row(page, kavya.email)
    await r.getByRole('button', { name: 'Edit Kavya Rao' }).click()
    const d = dialog(page)
    expect(await d.getByLabel('Full Name', { exact: true }).inputValue()).toBe('Kavya Rao')
    await d.getByLabel('Full Name', { exact: true }).fill('')
    await d.getByRole('button', { name: 'Save Changes' }).click()
    await d.getByText('Full name is required').waitFor()
    await d.getByLabel('Full Name', { exact: true }).fill('Kavya Rao')
    await d.getByLabel('Phone', { exact: true }).fill('+91 99887 76655')
    await d.getByRole('button', { name: 'Save Changes' }).click()
    await page.locator('[data-toast="success"]').filter({ hasText: 'Broker updated successfully' }).waitFor()
    expect(await dialog(page).count()).toBe(0)
    await r.getByText('+91 99887 76655').waitFor()
    expect(userByEmail(kavya.email)!.phone).toBe('+91 99887 76655')
    expect(realErrors(w)).toEqual([])
    expect(w.offHostRequests).toEqual([])
  })

  test('a module admin opening Module Admin Management is told Access Denied', async () => {
    const admin = await signIn(db, 'MODULE_ADMIN', { cityId: pune })
    const denied = await openAs(admin, '/dashboard/admins')
    await denied.page.getByText('Access Denied').waitFor()
    expect(await denied.page.getByText('Only Master Admins can manage Module Admins.').isVisible()).toBe(true)
    await denied.page.context().close()
  })
})

describe('management by the master admin', () => {
  test('add a module admin choosing country, state and city; an admin without a city is marked', async () => {
    const master = await signIn(db, 'MASTER_ADMIN')
    await signIn(db, 'MODULE_ADMIN', { fullName: 'Unplaced Admin', cityId: null })
    const w = await openAs(master, '/dashboard/admins')
    const { page } = w
    await hydrated(page)
    await page.getByRole('heading', { name: 'Module Admin Management' }).waitFor()
    const unplaced = page.locator('tr', { hasText: 'Unplaced Admin' })
    await unplaced.getByText('No city assigned').waitFor()
    expect(await page.locator('thead').textContent()).toContain('Assigned City')

    await page.getByRole('button', { name: 'Add Module Admin' }).click()
    const d = dialog(page)
    await d.getByRole('button', { name: 'Create Module Admin' }).click()
    for (const message of ['Country is required', 'Email is required']) await d.getByText(message).waitFor()
    // State and City are disabled until their parent is chosen: their messages wait until then (issue 13).
    expect(await d.getByText('State is required').count()).toBe(0)
    expect(await d.getByText('City is required').count()).toBe(0)

    const email = 'farah.sheikh@people.example'
    await d.getByLabel('Full Name', { exact: true }).fill('Farah Sheikh')
    await d.getByLabel('Email', { exact: true }).fill(email)
    await d.getByLabel('Phone', { exact: true }).fill('+91 98111 22233')
    await d.getByLabel('Password', { exact: true }).fill('Admin#Pass1')
    await d.getByLabel('Country', { exact: true }).selectOption({ label: 'India' })
    expect(await d.getByText('Country is required').count()).toBe(0)
    await d.getByText('State is required').waitFor()
    expect(await d.getByText('City is required').count()).toBe(0)
    const state = d.getByLabel('State', { exact: true })
    await state.locator('option', { hasText: 'Maharashtra' }).waitFor({ state: 'attached' })
    await state.selectOption({ label: 'Maharashtra' })
    await d.getByText('City is required').waitFor()
    const city = d.getByLabel('City', { exact: true })
    await city.locator('option', { hasText: 'Mumbai' }).waitFor({ state: 'attached' })
    await city.selectOption({ label: 'Mumbai' })
    await d.getByRole('button', { name: 'Create Module Admin' }).click()

    await page.locator('[data-toast="success"]').filter({ hasText: 'Module Admin created successfully' }).waitFor()
    const r = row(page, email)
    await r.waitFor()
    expect(await r.textContent()).toContain('Mumbai')
    expect(await r.textContent()).toContain('No ID card')
    expect(userByEmail(email)).toMatchObject({ role: 'MODULE_ADMIN', cityId: mumbai, isActive: true })

    // The module-admin wording of the confirmation.
    await r.getByRole('button', { name: 'Deactivate Farah Sheikh' }).click()
    await d.getByText('Are you sure you want to deactivate Farah Sheikh? They will lose administrative access to their assigned city.').waitFor()
    await d.getByRole('button', { name: 'Cancel' }).click()
    expect(await dialog(page).count()).toBe(0)

    expect(realErrors(w)).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await page.context().close()
  })

  test('with more than 10 brokers and 10 per page: the footer and the pager appear; filters narrow by city', async () => {
    for (let i = 1; i <= 12; i++) addBroker(`Mumbai Broker ${String(i).padStart(2, '0')}`, mumbai)
    const total = db.select({ n: count() }).from(users).where(eq(users.role, 'BROKER')).get()!.n
    const inPune = db.select({ n: count() }).from(users).where(and(eq(users.role, 'BROKER'), eq(users.cityId, pune))).get()!.n
    expect(total).toBeGreaterThan(10)

    const w = await openAs(await signIn(db, 'MASTER_ADMIN'), '/dashboard/brokers')
    const { page } = w
    await hydrated(page)
    // All of them fit on one page of 50: no footer text, no pager.
    expect(await bodyRows(page).count()).toBe(total)
    expect(await page.getByText(/^Showing \d+ to/).count()).toBe(0)
    expect(await page.getByRole('navigation', { name: 'Broker pages' }).count()).toBe(0)

    await page.getByLabel('Per page').selectOption('10')
    await page.getByText(`Showing 1 to 10 of ${total} brokers`).waitFor()
    const pager = page.getByRole('navigation', { name: 'Broker pages' })
    expect(await pager.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page')
    expect(await bodyRows(page).count()).toBe(10)
    await pager.getByRole('button', { name: 'Page 2' }).click()
    await page.getByText(`Showing 11 to ${Math.min(20, total)} of ${total} brokers`).waitFor()
    expect(await bodyRows(page).count()).toBe(Math.min(20, total) - 10)

    // A filter goes back to page 1; one page, so no footer.
    await page.locator('#user-filter-country_id').selectOption({ label: 'India' })
    await page.locator('#user-filter-state_id option', { hasText: 'Maharashtra' }).waitFor({ state: 'attached' })
    await page.locator('#user-filter-state_id').selectOption({ label: 'Maharashtra' })
    await page.locator('#user-filter-city_id option', { hasText: 'Pune' }).waitFor({ state: 'attached' })
    await page.locator('#user-filter-city_id').selectOption({ label: 'Pune' })
    await page.waitForFunction((n) => document.querySelectorAll('table tbody tr').length === n, inPune)
    expect(await page.getByText(/^Showing \d+ to/).count()).toBe(0)
    expect(await page.getByText('Mumbai Broker 01').count()).toBe(0)

    expect(realErrors(w)).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await page.context().close()
  })
  test('a failed load shows the error panel with the server\'s reason, and Retry recovers', async () => {
    const w = await openAs(await signIn(db, 'MASTER_ADMIN'), '/dashboard/admins')
    const { page } = w
    await hydrated(page)
    await bodyRows(page).first().waitFor()
    // Refuse the list from now on (a 4xx is not retried, so the panel shows at once).
    await page.route(/\/api\/users\?/, (route) => route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ detail: 'Not allowed right now' }) }))
    await page.getByPlaceholder('Search by name, email, or ID card number...').fill('farah')
    const panel = page.getByRole('alert').filter({ hasText: 'Error Loading Module Admins' })
    await panel.getByText('Not allowed right now').waitFor()
    expect(await page.locator('table').count()).toBe(0) // no rows of the previous search shown as if they matched
    await page.unroute(/\/api\/users\?/)
    await panel.getByRole('button', { name: 'Retry' }).click()
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1)
    expect(await panel.count()).toBe(0)
    expect(realErrors(w)).toEqual([])
    await page.context().close()
  })
})

describe('the demo data (DEMO_DATA=1)', () => {
  let demo: RunningServer
  let demoDb: Database
  beforeAll(async () => {
    demo = await startServer({ env: { DEMO_DATA: '1' }, timeoutMs: 60_000 })
    demoDb = openDatabase(join(demo.dataDir, 'brokernet.db'))
  })
  afterAll(async () => {
    if (demoDb) closeDatabase(demoDb)
    await demo?.stop()
  })

  /** A window signed in as a demo account (a session made for it directly, as sign-in would). */
  async function openAsDemo(email: string, path: string, viewport?: { width: number; height: number }) {
    const user = demoDb.select().from(users).where(eq(users.email, email)).get()!
    const token = await sessionFor(demoDb, user.id)
    const w = await openPage(browser, demo.url, viewport)
    await w.page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
    await w.page.goto(demo.url + path)
    await hydrated(w.page)
    return w
  }

  for (const [size, viewport] of [
    ['1440×900', { width: 1440, height: 900 }],
    ['390×844 (a phone)', { width: 390, height: 844 }],
  ] as const)
    test(`broker management at ${size}: no sideways scroll, emails whole, actions on one line and on screen`, async () => {
      const w = await openAsDemo('admin@brokernet.local', '/dashboard/brokers', viewport)
      const { page } = w
      await row(page, 'omar.almansoori@brokernet.example').waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)

      // Every email: on one line at 1440 (the row has room); on a phone at most broken right after the @.
      const emails = await page.locator('tbody tr td:nth-child(2) p:first-child').evaluateAll((els) =>
        // The lines each address is laid out on, read from where each character is drawn.
        els.map((el) => {
          const lines: { top: number; text: string }[] = []
          const text = el.firstChild ? [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE) : []
          for (const node of text)
            for (let i = 0; i < node.textContent!.length; i++) {
              const range = document.createRange()
              range.setStart(node, i)
              range.setEnd(node, i + 1)
              const top = range.getBoundingClientRect().top
              const line = lines.find((l) => Math.abs(l.top - top) < 2)
              if (line) line.text += node.textContent![i]
              else lines.push({ top, text: node.textContent![i]! })
            }
          return lines.map((l) => l.text)
        }),
      )
      expect(emails.length).toBeGreaterThanOrEqual(20)
      for (const lines of emails) {
        if (viewport.width >= 1440) expect(lines).toHaveLength(1)
        for (const line of lines.slice(0, -1)) expect(line).toEndWith('@')
      }

      // Row actions never wrap: each row's buttons share one line.
      const wrapped = await page.locator('tbody tr').evaluateAll((rows) =>
        rows.filter((r) => {
          const buttons = [...r.querySelectorAll('td:last-child :is(button, a)')].map((b) => b.getBoundingClientRect().top)
          return Math.max(...buttons) - Math.min(...buttons) > 1
        }).length,
      )
      expect(wrapped).toBe(0)

      // The first row that can be switched on or off: its action is visible, inside the window, and not scrolled to.
      const first = page.locator('tbody tr').filter({ has: page.getByRole('button', { name: /^(Deactivate|Activate) / }) }).first()
      const action = first.getByRole('button', { name: /^(Deactivate|Activate) / })
      expect(await action.isVisible()).toBe(true)
      const box = await action.evaluate((el) => {
        const r = el.getBoundingClientRect()
        const hit = document.elementFromPoint(r.left + r.width / 2, Math.min(r.top + r.height / 2, innerHeight - 1))
        const scroller = el.closest('.overflow-x-auto')
        return { left: r.left, right: r.right, scrollX, scrolled: scroller?.scrollLeft ?? 0, reachable: r.top > innerHeight || el.contains(hit) }
      })
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(viewport.width)
      expect([box.scrollX, box.scrolled]).toEqual([0, 0])
      expect(box.reachable).toBe(true)
      expect(realErrors(w)).toEqual([])
      await page.context().close()
    })

  test("a demo broker's sample ID card: Load ID Card, Show Document shows a real image", async () => {
    const w = await openAsDemo('admin.mumbai@brokernet.example', '/dashboard/brokers')
    const { page } = w
    await row(page, 'rahul.sharma@brokernet.example').getByRole('button', { name: 'View ID card of Rahul Sharma' }).click()
    const d = dialog(page)
    await d.getByRole('button', { name: 'Load ID Card' }).click()
    await d.getByRole('button', { name: 'Show Document' }).click()
    const img = d.locator('img')
    await img.waitFor()
    await page.waitForFunction(() => (document.querySelector('dialog[open] img') as HTMLImageElement | null)?.complete)
    expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual([856, 540])
    expect(await d.getByText('No ID card document on file').count()).toBe(0)
    const [download] = await Promise.all([page.waitForEvent('download'), d.getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('Rahul_Sharma_id_card.png')
    await page.keyboard.press('Escape')
    expect(realErrors(w)).toEqual([])
    expect(w.offHostRequests).toEqual([])
    await page.context().close()
  })
})
