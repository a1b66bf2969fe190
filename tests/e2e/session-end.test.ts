import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { signIn } from '../support/auth'
import { hydrated, launchBrowser, openPage } from '../support/browser'
import { seedPlace } from '../support/fixtures'
import { startServer, type RunningServer } from '../support/server'

// The page's live stream (islands/shared/useLiveEvents.ts) when its session ends elsewhere: the server closes it with
// `session_ended` (src/platform/session-watch.ts), and the page stops following instead of connecting again and again
// to be refused.
let server: RunningServer
let browser: Browser
let db: Database

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  db = openDatabase(join(server.dataDir, 'brokernet.db'))
})
afterAll(async () => {
  if (db) closeDatabase(db)
  await browser?.close()
  await server?.stop()
})

describe('a page whose session ends elsewhere', () => {
  test('stops its live stream (one look at the session, refused; no new connection) and lands on sign-in at its next poll', async () => {
    const cityId = (await seedPlace(db, ['Nashik'])).cities[0]!.id
    const broker = await signIn(db, 'BROKER', { cityId })
    const master = await signIn(db, 'MASTER_ADMIN', { cityId: null })
    const w = await openPage(browser, server.url, { width: 390, height: 844 })
    await w.page.context().addCookies([{ name: SESSION_COOKIE, value: broker.token, url: server.url }])
    const streams: string[] = []
    w.page.on('request', (r) => new URL(r.url()).pathname === '/api/events' && streams.push(r.url()))
    const opened = w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
    await w.page.goto(server.url + '/dashboard')
    await hydrated(w.page)
    expect((await opened).status()).toBe(200)

    // The master admin deactivates the broker: every session of theirs ends, this page's included.
    const asked = w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/me', { timeout: 10_000 })
    const res = await fetch(`${server.url}/api/users/${broker.user.id}/activation`, {
      method: 'PATCH',
      headers: { ...master.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ is_active: false, reason: 'Left the agency' }),
    })
    expect(res.status).toBe(200)
    expect((await asked).status()).toBe(401)
    // The stream gone, the matches badge polls (every 30 s, REFRESH_MS.unseenMatchesNav): its 401 goes to sign-in. By
    // then a browser that connected again would have done so twice (5 s after the close, and 30 s after that refusal).
    await w.page.waitForURL(`${server.url}/login?redirect=%2Fdashboard`, { timeout: 60_000 })
    expect(streams).toHaveLength(1)
    expect(w.consoleErrors.filter((e) => !/status of 401\b/.test(e))).toEqual([])
    await w.page.context().close()
  }, 90_000)
})
