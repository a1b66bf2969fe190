// Screenshots of the listing screens on the demo data, for README.md's "Screens" section: a broker's dashboard,
// My Listings and the admin grid on a 390 x 844 phone, a listing's details and the new-listing form there, and the
// broker's table on a 1280 x 800 laptop. `bun run screens` (after `bun run build:assets`) writes docs/screens/*.png.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { chromium, type Page } from 'playwright-core'
import { closeDatabase, openDatabase } from '../db/client'
import { users } from '../db/schema'
import { SESSION_COOKIE } from '../src/platform/http/auth'
import { sessionFor } from '../tests/support/auth'
import { startServer } from '../tests/support/server'
import { CHROMIUM_PATH, ensureChromium } from './ensure-chromium'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'docs/screens')
mkdirSync(out, { recursive: true })
if (!ensureChromium()) process.exit(1)

const server = await startServer({ env: { DEMO_DATA: '1' }, timeoutMs: 60_000 })
const db = openDatabase(join(server.dataDir, 'brokernet.db'))
const sessionOf = (email: string) => sessionFor(db, db.select().from(users).where(eq(users.email, email)).get()!.id)
const broker = await sessionOf('rahul.sharma@brokernet.example')
const admin = await sessionOf('admin.mumbai@brokernet.example')
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})

async function open(token: string, path: string, viewport: { width: number; height: number }): Promise<Page> {
  // A phone as Chromium emulates one (touch, overlay scrollbars); a laptop as it is.
  const mobile = viewport.width < 640
  const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile })
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }])
  const page = await context.newPage()
  await page.goto(server.url + path)
  await page.waitForSelector('html[data-islands="hydrated"]')
  return page
}
/** Waits for an opened dialog's transitions, then shoots. */
async function shootDialog(page: Page, file: string) {
  await page.locator('dialog[open] .modal-box').evaluate((box) => Promise.all(box.getAnimations().map((a) => a.finished)))
  await page.screenshot({ path: join(out, file) })
}

const phone = { width: 390, height: 844 }
try {
  let page = await open(broker, '/dashboard/listings', phone)
  await page.screenshot({ path: join(out, 'listings-phone.png') })
  await page.locator('[data-listing-card]').nth(1).click({ position: { x: 40, y: 60 } })
  await shootDialog(page, 'listing-details-phone.png')
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'New Listing' }).click()
  await shootDialog(page, 'new-listing-phone.png')
  await page.context().close()

  page = await open(broker, '/dashboard/my-listings', phone)
  await page.screenshot({ path: join(out, 'my-listings-phone.png') })
  await page.context().close()

  page = await open(admin, '/dashboard/listings', phone)
  await page.screenshot({ path: join(out, 'admin-listings-phone.png') })
  await page.context().close()

  page = await open(broker, '/dashboard/listings', { width: 1280, height: 800 })
  // Scrolled into the list: the header row stays under the top bar.
  await page.locator('table[aria-label="Listings"]').evaluate((t) => window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY - 64 + 160))
  await page.waitForFunction(() => window.scrollY > 0)
  await page.screenshot({ path: join(out, 'listings-1280.png') })
  await page.context().close()
  console.log(`screenshots written to ${out}`)
} finally {
  await browser.close()
  closeDatabase(db)
  await server.stop()
}
