import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { hydrated } from '../support/browser'
import { seedPlace } from '../support/fixtures'
import { startWorld, type World } from '../support/world'

// The page's live stream (islands/shared/useLiveEvents.ts) when its session ends elsewhere: the server closes it with
// `session_ended` (src/platform/session-watch.ts), and the page stops following instead of connecting again and again
// to be refused.
let world: World

beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world?.stop())

describe('a page whose session ends elsewhere', () => {
  test('stops its live stream (one look at the session, refused; no new connection) and lands on sign-in at its next poll', async () => {
    const cityId = (await seedPlace(world.data, ['Nashik'])).cities[0]!.id
    const broker = await world.signIn('BROKER', { cityId })
    const master = await world.signIn('MASTER_ADMIN', { cityId: null })
    const w = await world.page(broker, { viewport: { width: 390, height: 844 } })
    const streams: string[] = []
    w.page.on('request', (r) => new URL(r.url()).pathname === '/api/events' && streams.push(r.url()))
    const opened = w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events')
    await w.page.goto(world.url + '/dashboard')
    await hydrated(w.page)
    expect((await opened).status()).toBe(200)

    // The master admin deactivates the broker: every session of theirs ends, this page's included.
    const asked = w.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/me', { timeout: 10_000 })
    const res = await world.api(master, 'PATCH', `/api/users/${broker.user.id}/activation`, { is_active: false, reason: 'Left the agency' })
    expect(res.status).toBe(200)
    expect((await asked).status()).toBe(401)
    // The stream gone, the matches badge polls (every 30 s, REFRESH_MS.unseenMatchesNav): its 401 goes to sign-in. By
    // then a browser that connected again would have done so twice (5 s after the close, and 30 s after that refusal).
    // Back to the dashboard after signing in, with the filters its URL carried (the own city, issue 32).
    await w.page.waitForURL((u) => u.pathname === '/login' && (u.searchParams.get('redirect') ?? '').startsWith('/dashboard'), { timeout: 60_000 })
    expect(streams).toHaveLength(1)
    expect(w.consoleErrors.filter((e) => !/status of 401\b/.test(e))).toEqual([])
    await w.page.context().close()
  }, 90_000)
})
