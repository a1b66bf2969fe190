import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { users } from '../../db/schema'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { sessionFor } from './auth'
import { hydrated, launchBrowser } from './browser'
import { startServer, type RunningServer } from './server'

/**
 * A browser suite's world: the real server on the demo network (DEMO_DATA=1), a Chromium, and the server's own SQLite
 * file (WAL allows sharing), where demo accounts get sessions directly. `stop` ends all three.
 */
export type Demo = {
  server: RunningServer
  browser: Browser
  db: Database
  /** A demo account by email (it must exist) and a new session of theirs. */
  signIn: (email: string) => Promise<{ user: typeof users.$inferSelect; token: string }>
  /**
   * A page signed in with `token` (bypassing the CSP, for axe-core: tests/support/axe.ts), opened at `path` and hydrated;
   * `errors` collects page errors and console errors, but those `ignore` matches (e.g. a refusal under test).
   */
  open: (token: string, path: string, viewport: { width: number; height: number }, options?: { context?: BrowserContextOptions; ignore?: RegExp }) => Promise<{ page: Page; errors: string[] }>
  stop: () => Promise<void>
}

export async function startDemo(env: Record<string, string> = {}): Promise<Demo> {
  const server = await startServer({ env: { DEMO_DATA: '1', ...env }, timeoutMs: 60_000 })
  const browser = await launchBrowser()
  const db = openDatabase(join(server.dataDir, 'brokernet.db'))
  return {
    server,
    browser,
    db,
    async signIn(email) {
      const user = db.select().from(users).where(eq(users.email, email)).get()
      if (!user) throw new Error(`no demo account ${email}`)
      return { user, token: await sessionFor(db, user.id) }
    },
    async open(token, path, viewport, { context: options = {}, ignore } = {}) {
      const context = await browser.newContext({ viewport, bypassCSP: true, ...options })
      await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }])
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      page.on('console', (m) => m.type() === 'error' && !ignore?.test(m.text()) && errors.push(m.text()))
      await page.goto(server.url + path)
      await hydrated(page)
      return { page, errors }
    },
    async stop() {
      closeDatabase(db)
      await browser.close()
      await server.stop()
    },
  }
}
