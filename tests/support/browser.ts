import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import { CHROMIUM_PATH, ensureChromium } from '../../scripts/ensure-chromium'

// Quiet on a closed network: no background traffic, no component updates.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export async function launchBrowser(): Promise<Browser> {
  if (!ensureChromium()) throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}: run apt-get install -y chromium`)
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS })
}

/**
 * A phone's Chrome (issue 32): its user agent, so the server sends the phone's page; touch, so the 44 px rule of
 * `pointer: coarse` holds (docs/decisions/042-tap-targets.md); DPR 2. The viewport (390 × 844) is the caller's.
 */
export const PHONE_CONTEXT = {
  userAgent: 'Mozilla/5.0 (Linux; Android 13; Pixel 7a) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
}

export type WatchedPage = { page: Page; consoleErrors: string[]; offHostRequests: string[] }

/** A page that records console errors, page errors and any request that would leave the app's host. */
export async function openPage(browser: Browser, baseUrl: string, viewport = { width: 1440, height: 900 }): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block' }) // as tests/support/world.ts
  context.setDefaultTimeout(60_000) // as tests/support/world.ts: a loaded machine (issue 37)
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const offHostRequests: string[] = []
  const host = new URL(baseUrl).host
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  page.on('pageerror', (e) => consoleErrors.push(e.message))
  page.on('request', (r) => {
    const u = new URL(r.url())
    if (!['data:', 'blob:'].includes(u.protocol) && u.host !== host) offHostRequests.push(r.url())
  })
  return { page, consoleErrors, offHostRequests }
}

/**
 * Resolves once every island on the page is live: islands/client.tsx sets the flag when every island's hydration has
 * committed (issue 32; before, when it had started). Hydration runs in slices between the browser's other work, so on a
 * crowded machine it may take long: a generous deadline.
 */
export const hydrated = (page: Page) => page.waitForSelector('html[data-islands="hydrated"]', { timeout: 90_000 })

/**
 * Types `parts` into `field` on the page's own clock, paused: each part at once, then `pauseMs` of the page's time
 * before the next (and after the last). A debounced search is then tested on the page's time alone: typed in real time,
 * a loaded machine delivers keys more than the debounce apart (issue 37). The page must run on Playwright's clock
 * (`page.clock.install()`, before it loads or after); the caller advances it further (`runFor`) and `resume`s it.
 */
export async function typeOnPausedClock(page: Page, field: Locator, parts: string[], pauseMs: number): Promise<void> {
  // Paused a second ahead of the page's time; once more if a slow machine let that second pass before the pause.
  for (;;) {
    const now = await page.evaluate(() => Date.now())
    try {
      await page.clock.pauseAt(now + 1000)
      break
    } catch (e) {
      if (!/to the past/.test((e as Error).message)) throw e
    }
  }
  for (const part of parts) {
    await field.pressSequentially(part)
    await page.clock.runFor(pauseMs)
  }
}

/** The dialog open on the page (the app's Modal is a <dialog>). */
export const openDialog = (page: Page) => page.locator('dialog[open]')

/** The Geographic screen's row of a city, its country and state opened in the tree. */
export async function cityRow(page: Page, country: string, state: string, city: string) {
  await page.locator(`[data-country="${country}"]`).getByRole('button', { name: new RegExp(`^${country}`) }).click()
  await page.locator(`[data-state="${state}"]`).getByRole('button', { name: new RegExp(`^${state}`) }).click()
  return page.locator(`[data-city="${city}"]`)
}

/** Opens a city's Edit form from its row, sets the field labelled `label` and saves; answers what the field showed before. */
export async function saveCityField(page: Page, city: string, label: string, value: string): Promise<string> {
  await page.locator(`[data-city="${city}"]`).getByRole('button', { name: `Edit ${city}` }).click()
  const input = openDialog(page).getByLabel(label)
  const before = await input.inputValue()
  await input.fill(value)
  await openDialog(page).getByRole('button', { name: 'Save Changes' }).click()
  return before
}
