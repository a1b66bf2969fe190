import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { CHROMIUM_PATH } from '../../scripts/ensure-chromium'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { DEMO_PASSWORD } from '../../src/bootstrap'
import { problems } from '../support/axe'
import { eventually } from '../support/eventually'
import { hydrated } from '../support/browser'
import { startWorld, type World } from '../support/world'

// Issue 33, in the pocket, in a real Chromium against the real server with the demo network: the manifest and
// Chromium's own installability check, the service worker and the matches screen offline, the notifications screen
// at 390 and 1440 px with axe, the browser's push subscription as far as it goes here, and "Share → Brokernet".

// A browser and a server: more than bun's 5 s, also when run without scripts/test.ts's --timeout.
setDefaultTimeout(120_000)

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }
const BROKER = 'rahul.sharma@brokernet.example'

let demo: World
let token: string

beforeAll(async () => {
  // The browser's subscription below names a push service on loopback, which the server must be told to accept.
  demo = await startWorld({ demo: true, env: { PUSH_ALLOW_HOSTS: '127.0.0.1' } })
  token = (await demo.account(BROKER)).token
})
afterAll(() => demo?.stop())

/** The page's service worker, once it controls the page (the worker claims the pages open when it activates). */
async function controlled(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined, undefined, { timeout: 30_000 })
}

/** Buttons, links, fields and checkboxes of the screen less than 44 px tall or wide (a checkbox counts its label). */
const smallTargets = (page: Page, scope: string) =>
  page.$$eval(`${scope} :is(button, a, input, select, textarea)`, (els) =>
    els
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const box = el instanceof HTMLInputElement && el.type === 'checkbox' ? el.closest('label')! : el
        const r = box.getBoundingClientRect()
        return { what: `${el.tagName.toLowerCase()} ${el.getAttribute('name') ?? el.textContent?.trim().slice(0, 30)}`, h: Math.round(r.height), w: Math.round(r.width) }
      })
      .filter((t) => t.h < 44 || t.w < 44),
  )

describe('installable', () => {
  test('every page links the manifest; its icons are PNGs of their sizes; Chromium reports no installability error', async () => {
    for (const path of ['/', '/login', '/dashboard'])
      expect(await (await fetch(demo.url + path, { headers: { cookie: `${SESSION_COOKIE}=${token}` } })).text()).toContain('<link rel="manifest" href="/manifest.webmanifest">')
    const manifest = await (await fetch(`${demo.url}/manifest.webmanifest`)).json()
    expect(manifest).toMatchObject({ name: 'Brokernet', short_name: 'Brokernet', start_url: '/dashboard', display: 'standalone', theme_color: '#0069b0' })
    expect(manifest.share_target).toMatchObject({ action: '/dashboard/paste/share', method: 'POST', params: { text: 'text' } })
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
    for (const icon of manifest.icons) {
      const bytes = new Uint8Array(await (await fetch(demo.url + icon.src)).arrayBuffer())
      const view = new DataView(bytes.buffer)
      expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG')
      expect(`${view.getUint32(16)}x${view.getUint32(20)}`).toBe(icon.sizes)
    }

    // A profile on disk: Chromium says any other context is "in-incognito", where nothing installs.
    const profile = mkdtempSync(join(tmpdir(), 'brokernet-pwa-profile-'))
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'], headless: true, viewport: LAPTOP })
    try {
      await context.addCookies([{ name: SESSION_COOKIE, value: token, url: demo.url }])
      const page = await context.newPage()
      await page.goto(`${demo.url}/dashboard`)
      await hydrated(page)
      await controlled(page)
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }
      expect(installabilityErrors).toEqual([])
      const { errors: manifestErrors } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] }
      expect(manifestErrors).toEqual([])
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})

describe('offline', () => {
  test('the matches screen seen once renders offline under "Offline: as of HH:MM" (its time logged); a write offline is refused in words', async () => {
    const { page } = await demo.open(token, '/dashboard/matches', { viewport: PHONE, axe: true, context: { serviceWorkers: 'allow' } })
    await controlled(page)
    // Seen with the worker in charge: kept.
    await page.goto(`${demo.url}/dashboard/matches`)
    await hydrated(page)
    const online = await page.locator('main').innerText()
    const context: BrowserContext = page.context()
    await context.setOffline(true)
    await page.goto(`${demo.url}/dashboard/matches`)
    const banner = page.locator('[data-offline-banner]')
    await banner.waitFor()
    // The page's own clock, from the navigation's start to its first paint of content (the test's round trips apart).
    const took = await page.evaluate(() => Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.getEntriesByType('navigation')[0]!.duration))
    expect(await banner.innerText()).toMatch(/^Offline: as of \d\d:\d\d\./)
    // The same inbox as online, from what was kept.
    expect(await page.locator('main').innerText()).toBe(online)
    // Logged, not asserted (a test must not depend on the machine's speed): 136–220 ms here (goal: 1 s; decision 035).
    console.info(`offline render of the matches screen: ${took} ms`)
    expect(took).toBeGreaterThan(0)
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/listings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      return [res.status, (await res.json()).detail]
    })
    expect(refused).toEqual([503, "You're offline: nothing was saved. Try again once you're back online."])
    // A screen never opened here says so instead of the browser's error page.
    await page.goto(`${demo.url}/dashboard/notifications`)
    await page.getByRole('heading', { name: "You're offline" }).waitFor()
    await context.setOffline(false)
    await context.close()
  })
})

describe('the assets on a revisit', () => {
  test("come from the worker's cache by its static route, without its fetch handler; one it has not kept comes from the network", async () => {
    const { page } = await demo.open(token, '/dashboard/listings', { viewport: PHONE, context: { serviceWorkers: 'allow' } })
    await controlled(page)
    // Each answer as Chromium tells it: whether a static route of the worker matched it and where the answer came from.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.enable')
    const answers = new Map<string, { fromServiceWorker?: boolean; serviceWorkerRouterInfo?: { matchedSourceType?: string; actualSourceType?: string } }>()
    cdp.on('Network.responseReceived', (e) => answers.set(new URL(e.response.url).pathname, e.response))
    await page.goto(`${demo.url}/dashboard/listings`)
    await hydrated(page)
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.startsWith('/assets/')))
    expect(scripts.length).toBeGreaterThan(10)
    await eventually('an answer seen for every asset', () => scripts.every((p) => answers.has(p)))
    const routed = (p: string) => answers.get(p)?.serviceWorkerRouterInfo
    expect(scripts.filter((p) => routed(p)?.matchedSourceType !== 'cache' || routed(p)?.actualSourceType !== 'cache')).toEqual([])

    // An asset this version did not keep (a name no build makes): the route finds nothing in the cache and the
    // network answers it, as it answers without the worker (not an error of the route).
    const path = '/assets/not-kept-0000000000.js'
    const direct = await fetch(demo.url + path, { headers: { cookie: `${SESSION_COOKIE}=${token}` } })
    const viaRoute = await page.evaluate(async (p) => {
      const r = await fetch(p)
      return { status: r.status, body: await r.text() }
    }, path)
    expect(viaRoute).toEqual({ status: direct.status, body: await direct.text() })
    await page.context().close()
  })
})

describe('the notifications screen', () => {
  for (const viewport of [PHONE, LAPTOP])
    test(`at ${viewport.width} px: axe finds nothing serious, targets are 44 px, kinds and quiet hours are saved`, async () => {
      const { page, errors } = await demo.open(token, '/dashboard/notifications', { viewport: viewport, axe: true, context: { serviceWorkers: 'allow' } })
      await page.locator('[data-push-here]:not([data-push-here="checking"])').waitFor()
      expect(await problems(page, `notifications ${viewport.width}`)).toEqual([])
      if (viewport.width === PHONE.width) expect(await smallTargets(page, '[data-push-settings]')).toEqual([])
      // A broker: no registrations to review.
      expect(await page.getByText('Registrations to review').count()).toBe(0)
      // Co-broking steps are brokers' alerts (issue 35).
      expect(await page.getByText('Co-broking', { exact: true }).count()).toBe(1)
      await page.getByLabel('Saved searches').uncheck()
      await page.getByLabel('From').fill('21:30')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.locator('[data-toast]').filter({ hasText: 'Notification settings saved' }).waitFor()
      const saved = await page.evaluate(async () => (await fetch('/api/notifications/settings')).json())
      expect(saved).toMatchObject({ kinds: { saved_search: false, match: true }, quiet_hours: { from: '21:30', to: '07:00' } })
      await page.evaluate(async () => fetch('/api/notifications/settings', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kinds: { saved_search: true }, quiet_hours: { from: '22:00', to: '07:00' } }) }))
      expect(errors).toEqual([])
      await page.context().close()
    })

  test('turning alerts on: the permission asked, PushManager.subscribe called with the server’s key, the device listed', async () => {
    const { page, errors } = await demo.open(token, '/dashboard/notifications', { viewport: LAPTOP, axe: true, context: { serviceWorkers: 'allow', permissions: ['notifications'] } })
    await controlled(page)
    await page.locator('[data-push-here]:not([data-push-here="checking"])').waitFor()
    const key = await page.evaluate(async () => (await (await fetch('/api/notifications/key')).json()).public_key)
    // Chromium here reaches no push service: PushManager.subscribe is stood in for by one that answers a subscription
    // of the stand-in's shape and records the key it was given; everything after it (the API, the list) is the app's.
    await page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.getRegistration('/'))!
      const asked: string[] = []
      ;(window as unknown as { asked: string[] }).asked = asked
      const toB64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes as ArrayBuffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
      const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
      const p256dh = toB64(await crypto.subtle.exportKey('raw', pair.publicKey))
      const auth = toB64(crypto.getRandomValues(new Uint8Array(16)))
      let current: object | null = null
      Object.defineProperty(reg.pushManager, 'getSubscription', { value: async () => current })
      Object.defineProperty(reg.pushManager, 'subscribe', {
        value: async (options: { applicationServerKey: Uint8Array }) => {
          asked.push(toB64(options.applicationServerKey))
          current = { toJSON: () => ({ endpoint: 'http://127.0.0.1:9/push/e2e-device', expirationTime: null, keys: { p256dh, auth } }), unsubscribe: async () => ((current = null), true) }
          return current
        },
      })
    })
    await page.getByRole('button', { name: 'Turn on alerts here' }).click()
    await page.locator('[data-push-here="on"]').waitFor()
    expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toEqual([key])
    await page.locator('[data-push-devices] li').filter({ hasText: 'This device' }).waitFor()
    await page.getByRole('button', { name: 'Turn off alerts here' }).click()
    await page.locator('[data-push-here="off"]').waitFor()
    expect(await page.evaluate(async () => (await (await fetch('/api/notifications/devices')).json()).devices)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})

describe('Share → Brokernet', () => {
  const SHARED = 'AVL 2 BHK for rent in Andheri West, 700 sqft, 55k. Call 98200 12345'

  /** Android's share sheet posting to the manifest's share_target, as a form of the page would. */
  const share = (page: Page, text: string) =>
    page.evaluate((text) => {
      const form = Object.assign(document.createElement('form'), { method: 'POST', action: '/dashboard/paste/share' })
      form.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'text', value: text }))
      document.body.append(form)
      form.submit()
    }, text)

  test('signed in: the paste screen opens with the shared text read into a draft', async () => {
    const { page } = await demo.open(token, '/dashboard', { viewport: PHONE, axe: true, context: { serviceWorkers: 'allow' } })
    await share(page, SHARED)
    await page.waitForURL(/\/dashboard\/paste\?shared=1$/)
    await page.locator('[data-drafts]').waitFor()
    expect(await page.getByLabel('WhatsApp messages').inputValue()).toBe(SHARED)
    expect(await page.locator('article[data-draft]').count()).toBe(1)
    // Read once: the screen opened again is empty.
    await page.goto(`${demo.url}/dashboard/paste?shared=1`)
    await hydrated(page)
    expect(await page.getByLabel('WhatsApp messages').inputValue()).toBe('')
    await page.context().close()
  })

  test('signed out: the share survives the sign-in', async () => {
    const context = await demo.browser.newContext({ viewport: PHONE })
    const page = await context.newPage()
    await page.goto(`${demo.url}/login`)
    await share(page, SHARED)
    await page.waitForURL(/\/login\?redirect=/)
    await hydrated(page)
    await page.getByLabel('Email', { exact: true }).fill(BROKER)
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/dashboard\/paste\?shared=1$/)
    await page.locator('[data-drafts]').waitFor()
    expect(await page.getByLabel('WhatsApp messages').inputValue()).toBe(SHARED)
    await context.close()
  })
})
