import { join } from 'node:path'
import type { Browser, BrowserContextOptions, Response as PageResponse } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { seedGeography } from '../../db/seed/demo'
import type { Queryable } from '../../db/sql'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import type { Role } from '../../src/shared/constants'
import { sessionFor, signIn, type SignedIn } from './auth'
import { hydrated, launchBrowser, type WatchedPage } from './browser'
import { cityIdByName, dataLayer, userByEmail, type UserValues } from './fixtures'
import { startServer, type RunningServer } from './server'

/**
 * A browser suite's world (issue 31: one fixture instead of each file's own set-up): the real server on a fresh data
 * folder, a Chromium, and the server's SQLite file opened once here (WAL lets the test and the server share it).
 * People get sessions the way sign-in makes them (tests/support/auth.ts); everything a user could do goes through the
 * API (`send`, `api`); `data` is for what no request can set up (a visit an hour ago, an event of last year) and for
 * the fixture helpers of tests/support/fixtures.ts, `db` for checking what a request stored.
 */
export type World = {
  server: RunningServer
  /** The server's address, `http://localhost:<port>`. */
  url: string
  browser: Browser
  /** The server's database, to check what the pages and requests stored (the browser suites run on SQLite). */
  db: Database
  /** The same database through the data layer, for fixtures (tests/support/fixtures.ts takes it). */
  data: Queryable
  /** A city's id by its name (the demo geography's, or one the test made). */
  cityId: (name: string) => Promise<number>
  /** A new user of the role (overrides as given) and a session of theirs. */
  signIn: (role: Role, overrides?: UserValues) => Promise<SignedIn>
  /** A new session of an existing user (a demo account, or one a test registered), by email. */
  account: (email: string) => Promise<SignedIn>
  /** A request to the API as a script sends it (the user's bearer token; JSON body): the answer as it is. */
  api: (who: Caller | null, method: string, path: string, body?: unknown) => Promise<Response>
  /** The same, expecting success: answers the body (undefined for 204); any other status throws with the answer. */
  send: <T = unknown>(who: Caller | null, method: string, path: string, body?: unknown) => Promise<T>
  /** A new browser window signed in as `who` (anonymous with null), not yet on a page. */
  page: (who: Caller | null, options?: PageOptions) => Promise<OpenPage>
  /** The same, opened at `path` and (unless `hydrate: false`) with its islands live. */
  open: (who: Caller | null, path: string, options?: OpenOptions) => Promise<OpenPage>
  /** Closes the database, the browser (unless it was lent) and stops the server. */
  stop: () => Promise<void>
}

/** Whoever makes a request or opens a page: a SignedIn, or just their session token. */
export type Caller = { token: string } | string

export type PageOptions = {
  /** 1440 × 900 unless said. */
  viewport?: { width: number; height: number }
  /** Lets axe-core be injected (tests/support/axe.ts): the window bypasses the app's CSP, which forbids it. */
  axe?: boolean
  /** More options of the window (permissions, …). */
  context?: BrowserContextOptions
  /** Console errors that are the answers under test (a refused request's "status of 409"), left out of `errors`. */
  ignore?: RegExp
  /**
   * The page runs on Playwright's clock, installed before anything loads, so that a test can pause and advance the
   * page's own time (a debounced search typed with `typeOnPausedClock`, tests/support/browser.ts: issue 37).
   */
  clock?: boolean
}

export type OpenOptions = PageOptions & {
  /** Waits for its islands to be live (the default). */
  hydrate?: boolean
  /**
   * Waits for the page's live event stream (GET /api/events) to be answered as one: the server subscribes the stream
   * before it answers, so a change made after `open` returns is not missed (no fixed "moment to connect": issue 37).
   */
  streaming?: boolean
}

/**
 * A window: its page, what it logged (`consoleErrors`: every console error and page error; `errors`: those but the
 * ignored ones; `pageErrors`: the page's uncaught errors alone), the requests that would have left the app's host, and
 * the answer of its first page, if opened.
 */
export type OpenPage = WatchedPage & { errors: string[]; pageErrors: string[]; response: PageResponse | null }

export type WorldOptions = {
  /** The demo network (DEMO_DATA=1): its geography, accounts, listings and documents. */
  demo?: boolean
  /** The demo's geography alone (countries, states and cities, no people): for a world that makes its own. */
  geography?: boolean
  /** More of the server's environment (SMTP_URL, PUBLIC_URL, …). */
  env?: Record<string, string>
  /** A browser to share with another world of the same file (not closed by this one's `stop`). */
  browser?: Browser
}

const tokenOf = (who: Caller) => (typeof who === 'string' ? who : who.token)

export async function startWorld({ demo = false, geography = false, env = {}, browser: lent }: WorldOptions = {}): Promise<World> {
  // Start-up (the demo network's seeding too) within startServer's generous deadline: 60 s (issue 37).
  const server = await startServer({ env: { ...(demo ? { DEMO_DATA: '1' } : {}), ...env } })
  const browser = lent ?? (await launchBrowser())
  const db = openDatabase(join(server.dataDir, 'brokernet.db'))
  const data = dataLayer(db)
  if (geography) await seedGeography(data)
  const url = server.url

  const api = (who: Caller | null, method: string, path: string, body?: unknown) =>
    fetch(url + path, {
      method,
      headers: { ...(who ? { authorization: `Bearer ${tokenOf(who)}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  async function page(who: Caller | null, { viewport = { width: 1440, height: 900 }, axe = false, context: options = {}, ignore, clock = false }: PageOptions = {}): Promise<OpenPage> {
    const context = await browser.newContext({ viewport, ...(axe ? { bypassCSP: true } : {}), ...options })
    // Playwright's 30 s for a locator or a navigation was too short at a load of 50 on 2 cores (a toast, Swagger UI):
    // a condition is given the time a loaded machine needs, within the test's own 120 s (issue 37).
    context.setDefaultTimeout(60_000)
    if (who) await context.addCookies([{ name: SESSION_COOKIE, value: tokenOf(who), url }])
    const page = await context.newPage()
    if (clock) await page.clock.install()
    const consoleErrors: string[] = []
    const errors: string[] = []
    const pageErrors: string[] = []
    const offHostRequests: string[] = []
    const host = new URL(url).host
    page.on('console', (m) => {
      if (m.type() !== 'error') return
      consoleErrors.push(m.text())
      if (!ignore?.test(m.text())) errors.push(m.text())
    })
    page.on('pageerror', (e) => (consoleErrors.push(e.message), errors.push(e.message), pageErrors.push(e.message)))
    page.on('request', (r) => {
      const u = new URL(r.url())
      if (!['data:', 'blob:'].includes(u.protocol) && u.host !== host) offHostRequests.push(r.url())
    })
    return { page, consoleErrors, errors, pageErrors, offHostRequests, response: null }
  }

  return {
    server,
    url,
    browser,
    db,
    data,
    cityId: (name) => cityIdByName(data, name),
    signIn: (role, overrides) => signIn(data, role, overrides),
    async account(email) {
      const user = await userByEmail(data, email)
      if (!user) throw new Error(`no account ${email}`)
      const token = await sessionFor(data, user.id)
      return { user, token, bearer: { authorization: `Bearer ${token}` }, browser: { cookie: `${SESSION_COOKIE}=${token}`, origin: new URL(url).origin } }
    },
    api,
    async send<T>(who: Caller | null, method: string, path: string, body?: unknown) {
      const res = await api(who, method, path, body)
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return (res.status === 204 ? undefined : await res.json()) as T
    },
    page,
    async open(who, path, { hydrate = true, streaming = false, ...options } = {}) {
      const w = await page(who, options)
      const stream = streaming ? w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events', { timeout: 20_000 }) : null
      w.response = await w.page.goto(url + path)
      if (hydrate) await hydrated(w.page)
      if (stream) {
        const type = (await stream).headers()['content-type'] ?? ''
        if (!type.startsWith('text/event-stream')) throw new Error(`the page's event stream was answered as ${type || 'nothing'}`)
      }
      return w
    },
    async stop() {
      closeDatabase(db)
      if (!lent) await browser.close()
      await server.stop()
    },
  }
}

