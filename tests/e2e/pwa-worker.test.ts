import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page, Worker } from 'playwright-core'
import { problems } from '../support/axe'
import { eventually } from '../support/eventually'
import { hydrated } from '../support/browser'
import { startWorld, type World } from '../support/world'

// Issue 33, the service worker's conversations with the page, in a real Chromium against the real server: a new
// version waiting is offered as "New version of Brokernet. Reload" and Reload makes it the one in charge; a tapped
// notification opens its screen in the window already open (islands/shell/app-worker.ts, src/modules/pwa/service-worker.js).

setDefaultTimeout(120_000)

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }
const BROKER = 'rahul.sharma@brokernet.example'

let demo: World
let token: string
/**
 * The site as the browser sees it in the new-version tests: the server behind a pass-through on another port, which
 * serves /sw.js with the VERSION of `nextVersion` once it is set: the next build, found by the browser on a later visit.
 * (Playwright's routes do not see the browser's own fetch of a worker's script.) Cookies ignore ports: the session
 * set for the server's address is sent here too. No idle limit of its own (Bun.serve's is 10 s): it would cut the
 * page's live event stream (GET /api/events), quiet for 25 s between keep-alives, which the server itself keeps open
 * (src/platform/http/sse.ts); on a loaded machine the steps from a page's load to its Reload take more than 10 s, and
 * Chromium logged the cut as "Failed to load resource: net::ERR_INCOMPLETE_CHUNKED_ENCODING" (issue 37).
 */
let site: { url: string; stop: () => void }
let nextVersion: string | null = null

beforeAll(async () => {
  demo = await startWorld({ demo: true })
  token = (await demo.account(BROKER)).token
  const proxy = Bun.serve({
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const { pathname, search } = new URL(request.url)
      const headers = new Headers(request.headers)
      headers.delete('host')
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
      const swapped = pathname === '/sw.js' && nextVersion !== null
      const res = await fetch(demo.url + pathname + search, { method: request.method, headers, body, redirect: 'manual', decompress: swapped })
      if (!swapped) return res
      const code = (await res.text()).replace(/^const VERSION = .*$/m, `const VERSION = ${JSON.stringify(nextVersion)}`)
      const out = new Headers(res.headers)
      out.delete('content-encoding')
      out.delete('content-length')
      return new Response(code, { status: res.status, headers: out })
    },
  })
  site = { url: `http://localhost:${proxy.port}`, stop: () => proxy.stop(true) }
})
afterAll(async () => {
  site?.stop()
  await demo?.stop()
})

async function controlled(page: Page) {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, undefined, { timeout: 30_000 })
}

/** The script URL and state of the worker in charge of the page, and whether another waits. */
const workers = (page: Page) =>
  page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration('/'))!
    return { active: reg.active?.state ?? null, waiting: reg.waiting !== null, shells: (await caches.keys()).filter((k) => k.startsWith('shell-')).sort() }
  })

/**
 * The page's requests that failed, each with its URL, the browser's reason, and whether the worker answered it: a
 * console's "Failed to load resource" names no URL, so a failing test names them beside its console errors.
 */
function failedRequests(page: Page): string[] {
  const failed: string[] = []
  page.on('requestfailed', (r) => {
    const at = failed.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`) - 1
    // The answer's headers, if they came (the body was then cut); a window closed meanwhile leaves the line as it is.
    r.response().then(
      (res) => (failed[at] += res ? ` (answered${res.fromServiceWorker() ? ' by the worker' : ''}, then cut)` : ' (before an answer)'),
      () => {},
    )
  })
  return failed
}

describe('a new version', () => {
  for (const viewport of [PHONE, LAPTOP])
    test(`at ${viewport.width} px: a new worker waiting is offered with Reload (axe, a 44 px button); Reload puts it in charge and reloads once`, async () => {
      nextVersion = null
      const { page, errors } = await demo.page(token, { viewport, axe: true, context: { serviceWorkers: 'allow' } })
      const failed = failedRequests(page)
      await page.goto(`${site.url}/dashboard`)
      await hydrated(page)
      const context: BrowserContext = page.context()
      await controlled(page)
      const first = await workers(page)
      expect(first).toMatchObject({ active: 'activated', waiting: false })
      expect(first.shells).toHaveLength(1)
      expect(await page.locator('[data-app-offer]').count()).toBe(0)

      // The next build: the same worker with another VERSION (a new build's /sw.js differs exactly there). The browser
      // finds it on the next visit, installs it in the background, and it waits while this version has pages.
      const next = `${first.shells[0]!.slice('shell-'.length)}-next-${viewport.width}`
      nextVersion = next
      await page.reload()
      await hydrated(page)
      const offer = page.locator('[data-app-offer]')
      await offer.getByText('New version of Brokernet.').waitFor()
      expect(await workers(page)).toMatchObject({ active: 'activated', waiting: true })
      expect(await problems(page, `new version ${viewport.width}`)).toEqual([])
      const reload = offer.getByRole('button', { name: 'Reload' })
      const box = (await reload.boundingBox())!
      if (viewport === PHONE) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44)

      // Reload: the waiting worker takes over (it deletes the old version's files), and the page reloads under it.
      const reloaded = page.waitForEvent('load')
      await reload.click()
      await reloaded
      await hydrated(page)
      await controlled(page)
      expect(await workers(page)).toEqual({ active: 'activated', waiting: false, shells: [`shell-${next}`] })
      expect(await page.locator('[data-app-offer]').count()).toBe(0)
      expect(errors, `console errors ${JSON.stringify(errors)}; the page's failed requests: ${failed.join('; ') || 'none'}`).toEqual([])
      await context.close()
    })

  test('never in the middle of a form: offered only once the changed field is put back', async () => {
    nextVersion = null
    const { page, errors } = await demo.page(token, { viewport: PHONE, context: { serviceWorkers: 'allow' } })
    const failed = failedRequests(page)
    await page.goto(`${site.url}/dashboard/notifications`)
    await hydrated(page)
    const context = page.context()
    await controlled(page)
    const { shells } = await workers(page)
    nextVersion = `${shells[0]!.slice('shell-'.length)}-form`
    await page.locator('[data-push-settings]').waitFor()
    const from = page.getByLabel('From')
    const was = await from.inputValue()
    await from.fill('21:15')
    // The new version is found (as on a later visit) while the form is being filled in.
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))!.update())
    await eventually('the new version waiting', async () => (await workers(page)).waiting, 60_000, 200)
    expect(await page.locator('[data-app-offer]').count()).toBe(0)
    // Put back and left: no form in progress any more, so it is offered.
    await from.fill(was)
    await page.getByRole('heading').first().click()
    await page.locator('[data-app-offer]').getByText('New version of Brokernet.').waitFor()
    expect(shells).toHaveLength(1)
    expect(errors, `console errors ${JSON.stringify(errors)}; the page's failed requests: ${failed.join('; ') || 'none'}`).toEqual([])
    await context.close()
  })
})

/** The page's service worker, as Playwright reaches it (to run code inside it). */
async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
}

/**
 * A notification shown by the worker, as a push would, then clicked: the worker's own `notificationclick` listener
 * runs on the notification the browser gives back. (Headless Chromium shows no notification to click: the event is
 * dispatched in the worker with that notification, the only untrusted part.)
 */
async function clickNotification(context: BrowserContext, url: string) {
  const sw = await serviceWorkerOf(context)
  await sw.evaluate(async (url) => {
    // The worker's own globals (ServiceWorkerGlobalScope, NotificationEvent), not in this file's DOM types.
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent: (e: Event) => boolean; NotificationEvent: new (type: string, init: { notification: Notification }) => Event }
    await scope.registration.showNotification('New match for AVL-1', { body: 'e2e', tag: 'e2e-click', data: { url } })
    const [shown] = await scope.registration.getNotifications({ tag: 'e2e-click' })
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: shown! }))
  }, url)
}

describe('a tapped notification', () => {
  test('opens its screen in the window already open', async () => {
    const { page, errors } = await demo.open(token, '/dashboard', { viewport: PHONE, context: { serviceWorkers: 'allow', permissions: ['notifications'] } })
    await controlled(page)
    await clickNotification(page.context(), '/dashboard/matches')
    await page.waitForURL(`${demo.url}/dashboard/matches`)
    await hydrated(page)
    expect(page.context().pages()).toHaveLength(1)
    expect(errors).toEqual([])
    await page.context().close()
  })

  test('in the middle of a form: offered as "Open it", which then opens it', async () => {
    const { page, errors } = await demo.open(token, '/dashboard/notifications', { viewport: PHONE, axe: true, context: { serviceWorkers: 'allow', permissions: ['notifications'] } })
    await controlled(page)
    await page.locator('[data-push-settings]').waitFor()
    await page.getByLabel('From').fill('21:45')
    await clickNotification(page.context(), '/dashboard/listings?search=AVL-1')
    const offer = page.locator('[data-app-offer]')
    await offer.getByText('A notification is waiting.').waitFor()
    expect(new URL(page.url()).pathname).toBe('/dashboard/notifications')
    expect(await problems(page, 'notification offer 390')).toEqual([])
    await offer.getByRole('button', { name: 'Open it' }).click()
    await page.waitForURL(`${demo.url}/dashboard/listings?search=AVL-1`)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
