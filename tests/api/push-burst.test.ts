// A popular saved search's burst of push alerts (issue 33; docs/decisions/055-burst-off-thread.md): which INSTANT
// searches a new listing satisfies, their owners' settings, and one message each are judged and queued in the push
// sender's thread over its own database connection, not on the server's. Counted by the server's own statements
// (/metrics: the thread's connection is not timed there), so it holds however slow the machine: judged on the server,
// every INSTANT search of the installation was a read of its own for each listing with news; off it, the server's
// statements for a listing are those of its write, however many searches there are. In process, against the binary
// (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { seedPlace } from '../support/fixtures'
import { startPushService, type BrowserSubscription, type PushService } from '../support/push-service'

const TOKEN = 'push-burst-metrics-token-Qe83vLm'
let h: TestApp
let service: PushService
let cityId: number

beforeAll(async () => {
  h = await createTestApp({ PUSH_ALLOW_HOSTS: '127.0.0.1', METRICS_TOKEN: TOKEN })
  cityId = (await seedPlace(h.ctx.db, ['Nagpur'])).cities[0]!.id
  const reader = await signIn(h.ctx.db, 'BROKER', { cityId })
  service = await startPushService({ vapidPublicKey: async () => (await (await h.request('/api/notifications/key', { headers: reader.bearer })).json()).public_key })
})
afterAll(async () => {
  await service?.stop()
  await h?.close()
})

/** Statements the server has run on its own database handle (reads, writes and transactions), from its /metrics. */
async function serverStatements(): Promise<number> {
  const res = await h.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  let n = 0
  for (const m of (await res.text()).matchAll(/^brokernet_db_statement_duration_seconds_count\{[^}]*\} (\S+)$/gm)) n += Number(m[1])
  return n
}

/** A broker with a device, no quiet hours, and an INSTANT search for listings of `type`. */
async function follower(type: string): Promise<{ as: SignedIn; sub: BrowserSubscription }> {
  const as = await signIn(h.ctx.db, 'BROKER', { cityId })
  const sub = await service.subscribe()
  expect((await h.request('/api/notifications/devices', withJson(as.browser, { endpoint: sub.endpoint, keys: sub.keys }))).status).toBe(201)
  expect((await h.request('/api/notifications/settings', withJson(as.browser, { quiet_hours: null }, 'PUT'))).status).toBe(200)
  expect((await h.request('/api/saved-searches', withJson(as.browser, { name: `Watching ${type}`, filters: { property_type: type }, alert: 'INSTANT' }))).status).toBe(201)
  return { as, sub }
}

/** The server's statements from one listing of `type` posted to every follower's alert delivered. */
async function statementsOfBurst(poster: SignedIn, type: string, followers: { sub: BrowserSubscription }[]): Promise<number> {
  const before = await serverStatements()
  const res = await h.request('/api/listings', withJson(poster.browser, { post_type: 'AVL', sale_or_rent: 'RENT', property_type: type, contact_value: '9876543210' }))
  expect(res.status).toBe(201)
  // Waited for at the stand-in only: a look at the outbox through the app's handle would be one of the server's statements.
  await eventually(`every alert of ${type} delivered`, () => followers.every((f) => service.delivered(f.sub).length === 1), 60_000)
  return (await serverStatements()) - before
}

test('40 more INSTANT searches add next to nothing to the server’s statements for a listing they all catch: they are judged and queued in the sender thread', async () => {
  const poster = await signIn(h.ctx.db, 'BROKER', { cityId })
  const lone = [await follower('Burst Lone Kind')]
  // One listing first, not counted, each time: the first listing and the first push do one-time work (the thread's start).
  await statementsOfBurst(poster, 'Burst Warm Kind', [])
  const one = await statementsOfBurst(poster, 'Burst Lone Kind', lone)
  const crowd: { sub: BrowserSubscription }[] = []
  for (let i = 0; i < 40; i++) crowd.push(await follower('Burst Crowd Kind'))
  await statementsOfBurst(poster, 'Burst Warm Kind', [])
  const forty = await statementsOfBurst(poster, 'Burst Crowd Kind', crowd)
  // Judged on the server, every INSTANT search was a read of its own for each listing (its filters against it): the
  // 40 more were 40 more statements at least (here 80 against 10 on SQLite, 121 against 44 on PostgreSQL, the write's
  // own included). In the thread, the write's own only, about the same for both listings. The bound is those 40: the
  // count also takes in what the server does meanwhile on its own (both processes' queue sweeps and timers, against the
  // binary), more while forty alerts go out than one, and a full run on PostgreSQL against the binary beside two others
  // counted 24 more with the burst off the server (the bound was 20 then).
  expect(forty - one).toBeLessThan(40)
  // Each alert arrived once, decrypted with its subscription's keys by the stand-in.
  for (const f of crowd) expect(JSON.parse(service.delivered(f.sub)[0]!.payload).title).toBe('Saved search: Watching Burst Crowd Kind')
}, 180_000)
