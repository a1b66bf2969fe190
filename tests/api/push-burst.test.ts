// A popular saved search's burst of push alerts (issue 33; docs/decisions/0XX-burst-off-thread.md): which INSTANT
// searches a new listing satisfies, their owners' settings, and one message each are judged and queued in the push
// sender's thread over its own database connection, not on the server's. Counted by the server's own statements
// (/metrics: the thread's connection is not timed there), so it holds however slow the machine: judged on the server,
// every INSTANT search of the installation was a read of its own for each listing with news (and every alert an
// insert); off it, the server's statements for the listing are those of its write. In process, against the binary
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

/** The server's statements from one listing of `type` posted to every follower's alert delivered (and the sender idle). */
async function statementsOfBurst(poster: SignedIn, type: string, followers: { sub: BrowserSubscription }[]): Promise<number> {
  const before = await serverStatements()
  const res = await h.request('/api/listings', withJson(poster.browser, { post_type: 'AVL', sale_or_rent: 'RENT', property_type: type, contact_value: '9876543210' }))
  expect(res.status).toBe(201)
  await eventually(`every alert of ${type} delivered`, () => followers.every((f) => service.delivered(f.sub).length === 1), 60_000)
  await eventually('the outbox empty', async () => Number((await h.ctx.db.get<{ n: number }>('select count(*) as n from push_outbox'))!.n) === 0, 60_000)
  return (await serverStatements()) - before
}

test('a listing 40 INSTANT searches catch costs the server’s database handle fewer statements than there are searches: they are judged and queued in the sender thread', async () => {
  const poster = await signIn(h.ctx.db, 'BROKER', { cityId })
  const crowd: { sub: BrowserSubscription }[] = []
  for (let i = 0; i < 40; i++) crowd.push(await follower('Burst Crowd Kind'))
  // One listing first, not counted: the first listing and the first push of an app do one-time work (the thread's start).
  await statementsOfBurst(poster, 'Burst Warm Kind', [])
  const statements = await statementsOfBurst(poster, 'Burst Crowd Kind', crowd)
  // On the server, the 40 searches were 40 reads (each one's filters against the listing) and a transaction: 90 or
  // more statements in all here, the write's included. Off it, the write's own (10–13 here).
  expect(statements).toBeLessThan(40)
  // Each alert arrived once, decrypted with its subscription's keys by the stand-in.
  for (const f of crowd) expect(JSON.parse(service.delivered(f.sub)[0]!.payload).title).toBe('Saved search: Watching Burst Crowd Kind')
}, 180_000)
