// Read-after-write across instances on PostgreSQL (issue 36; docs/decisions/072-read-after-write.md). Two apps in this
// process, each with its own pool and change-feed listener, on one throwaway PostgreSQL: A takes the writes, B answers
// the reads. B's listener connects through a proxy that delivers the server's bytes late (tests/support/feed-proxy.ts),
// so B hears A's writes after its next request has come: only the position A's answer names, sent back to B, makes
// B's answer show the write.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDataSource, type DataSource } from '../db/open'
import { PgFeed, READ_AFTER_WAIT_MS } from '../db/pg-feed'
import { connectPostgres, PostgresDb } from '../db/postgres'
import { createApp } from '../src/app'
import { loadConfig } from '../src/platform/config'
import { createContext, type AppContext } from '../src/platform/context'
import { READ_AFTER_COOKIE, READ_AFTER_HEADER } from '../src/platform/http/read-after'
import { signIn, type SignedIn } from './support/auth'
import { eventually } from './support/eventually'
import { feedProxy, type FeedProxy } from './support/feed-proxy'
import { seedPlace } from './support/fixtures'
import { startCluster, type Cluster } from './support/postgres'

type Instance = { ctx: AppContext; app: ReturnType<typeof createApp>; source: Pick<DataSource, 'db' | 'feed' | 'close'>; dir: string }

let cluster: Cluster
let proxy: FeedProxy
let a: Instance
let b: Instance
let broker: SignedIn
let cityId: number

function instance(url: string, source: Instance['source']): Instance {
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-raw-'))
  const config = loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: url, MATCH_DIGEST_HOURS: '0' })
  const ctx = createContext(source, config)
  return { ctx, app: createApp(ctx), source, dir }
}

beforeAll(async () => {
  cluster = await startCluster()
  const url = await cluster.createDatabase()
  proxy = feedProxy(`${new URL(url).searchParams.get('host')}/.s.PGSQL.5432`)
  a = instance(url, await openDataSource({ databasePath: '', databaseUrl: url }))
  // B: its own pool straight to the server, its listener through the proxy.
  const feed = await PgFeed.start(proxy.url(url))
  const db = new PostgresDb(connectPostgres(url), feed)
  b = instance(url, { db, feed, close: async () => (feed.close(), await db.close()) })
  cityId = (await seedPlace(a.ctx.db, ['Nagpur'])).cities[0]!.id
  broker = await signIn(a.ctx.db, 'BROKER', { cityId, fullName: 'Read After Write' })
}, 120_000)

afterAll(async () => {
  for (const i of [a, b]) {
    if (!i) continue
    await i.ctx.features.stop()
    await i.ctx.mail.close()
    await i.source.close()
    rmSync(i.dir, { recursive: true, force: true })
  }
  proxy?.close()
  await cluster?.stop()
})

const page = () => `/api/listings/?per_page=10&city_id=${cityId}`
let posted = 0

/** A listing posted through A: its answer's position (header) and cookie. */
async function write(): Promise<{ position: string | null; cookie: string | null }> {
  const res = await a.app.handle(
    new Request('http://localhost/api/listings/', {
      method: 'POST',
      headers: { ...broker.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Flat', budget: 20_000 + ++posted, location: 'West', locality: 'Sitabuldi', details: `Posted ${posted}`, confirm_duplicate: true }),
    }),
  )
  expect(res.status).toBe(201)
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${READ_AFTER_COOKIE}=`)) ?? null
  return { position: res.headers.get(READ_AFTER_HEADER), cookie }
}

/** B's total of the city's listings, read with these extra headers, and how long B took. */
async function totalOnB(headers: Record<string, string> = {}): Promise<{ total: number; ms: number }> {
  const t0 = performance.now()
  const res = await b.app.handle(new Request(`http://localhost${page()}`, { headers: { ...broker.bearer, ...headers } }))
  expect(res.status).toBe(200)
  const { total } = (await res.json()) as { total: number }
  return { total, ms: performance.now() - t0 }
}

/** What the database says (the truth the answers are checked against). */
const truth = async () => (await a.ctx.db.all<{ n: number }>('select count(*)::int as n from listings where city_id = ?', [cityId]))[0]!.n

/** `rounds` times: a write through A, then at once a read on B with `echo(answer)`; how many of B's answers missed the write. */
async function staleReads(rounds: number, echo: (w: Awaited<ReturnType<typeof write>>) => Record<string, string>): Promise<number> {
  let stale = 0
  // B's answer is cached before the first write (a read answered from the database could not be stale).
  await totalOnB()
  for (let i = 0; i < rounds; i++) {
    const before = await truth()
    const w = await write()
    const { total } = await totalOnB(echo(w))
    if (total !== before + 1) stale++
  }
  return stale
}

describe('read-after-write across two instances on one PostgreSQL (B hears the feed late)', () => {
  test("a write's answer names its position: header and a short HttpOnly cookie", async () => {
    const { position, cookie } = await write()
    expect(position).toMatch(/^\d+$/)
    expect(cookie).toContain(`${READ_AFTER_COOKIE}=${position}`)
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).toMatch(/Max-Age=60/)
    // A read's answer names none.
    const read = await a.app.handle(new Request(`http://localhost${page()}`, { headers: broker.bearer }))
    expect(read.headers.get(READ_AFTER_HEADER)).toBeNull()
    // An edit (200) and a deletion (204, no body) name theirs, no older than the post's; a refused write (422) none.
    const id = ((await read.json()) as { listings: { id: number }[] }).listings[0]!.id
    const send = (method: string, path: string, body?: unknown) =>
      a.app.handle(new Request(`http://localhost${path}`, { method, headers: { ...broker.bearer, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }))
    const edited = await send('PATCH', `/api/listings/${id}`, { budget: 99_999 })
    expect(edited.status).toBe(200)
    expect(Number(edited.headers.get(READ_AFTER_HEADER))).toBeGreaterThanOrEqual(Number(position))
    const refused = await send('PATCH', `/api/listings/${id}`, { budget: 'lots' })
    expect(refused.status).toBe(422)
    expect(refused.headers.get(READ_AFTER_HEADER)).toBeNull()
    const deleted = await send('DELETE', `/api/listings/${id}`)
    expect(deleted.status).toBe(204)
    expect(Number(deleted.headers.get(READ_AFTER_HEADER))).toBeGreaterThan(Number(edited.headers.get(READ_AFTER_HEADER)))
  })

  test('without the position, B answers from its caches before it has heard the write: stale (the test can fail)', async () => {
    proxy.delayMs = 100
    const stale = await staleReads(20, () => ({}))
    console.log(`[read-after-write] without the position: ${stale} of 20 answers on B stale`)
    expect(stale).toBeGreaterThan(0)
  }, 120_000)

  test('with the header echoed, B never answers stale (200 of 200)', async () => {
    proxy.delayMs = 30
    const before = { ...(b.ctx.feed as PgFeed).readAfter }
    const stale = await staleReads(200, (w) => ({ [READ_AFTER_HEADER]: w.position! }))
    const after = (b.ctx.feed as PgFeed).readAfter
    console.log(`[read-after-write] with the header: ${stale} of 200 stale; B found it heard ${after.heard - before.heard}, waited ${after.waited - before.waited}, gave up ${after.timedOut - before.timedOut}`)
    expect(stale).toBe(0)
    // B did wait: the proxy held the notification back.
    expect(after.waited - before.waited).toBeGreaterThan(0)
  }, 240_000)

  test('with the cookie (a browser), B never answers stale', async () => {
    proxy.delayMs = 100
    const stale = await staleReads(20, (w) => ({ cookie: w.cookie!.split(';')[0]! }))
    expect(stale).toBe(0)
  }, 120_000)

  test('a bad position is ignored: never refused, never waited for', async () => {
    // B's listener hears nothing now: a position B waited for would take the whole second (counted as given up).
    proxy.delayMs = Number.POSITIVE_INFINITY
    const counts = () => ({ ...(b.ctx.feed as PgFeed).readAfter })
    const before = counts()
    for (const value of ['abc', '-5', '12.5', '', '1e9', '0x10', '99999999999999999999', String(2 ** 52), String(Number.MAX_SAFE_INTEGER)]) {
      await totalOnB({ [READ_AFTER_HEADER]: value })
      await totalOnB({ cookie: `${READ_AFTER_COOKIE}=${encodeURIComponent(value)}` })
    }
    const after = counts()
    expect(after.timedOut).toBe(before.timedOut)
    expect(after.waited).toBe(before.waited)
    // The numbers far past any transaction id the database has handed out, by header and by cookie.
    expect(after.ignored - before.ignored).toBe(4)
    expect(b.ctx.feed.sync()).toBe(true)
  }, 60_000)

  test("a feed that never catches up: B waits at most a second, then answers from the database, and serves no cache until it has caught up", async () => {
    proxy.delayMs = Number.POSITIVE_INFINITY
    await totalOnB()
    const before = await truth()
    const w = await write()
    const timedOut = (b.ctx.feed as PgFeed).readAfter.timedOut
    const { total, ms } = await totalOnB({ [READ_AFTER_HEADER]: w.position! })
    console.log(`[read-after-write] feed held: answered after ${ms.toFixed(0)} ms (wait capped at ${READ_AFTER_WAIT_MS} ms)`)
    expect(total).toBe(before + 1)
    expect((b.ctx.feed as PgFeed).readAfter.timedOut).toBe(timedOut + 1)
    // Without the cap it never comes (the feed is held): any bound shows the cap. The time itself is logged above
    // (about 1,020 ms on a quiet machine, 1,240 ms at load 20); a tight bound would fail on a busy one (issue 37).
    expect(ms).toBeLessThan(READ_AFTER_WAIT_MS + 14_000)
    // Until B's feed catches up, a read without a position is not served from a cache either.
    await write()
    expect((await totalOnB()).total).toBe(before + 2)
    proxy.delayMs = 0
    await eventually('B caught up', async () => b.ctx.feed.sync(), 20_000, 10)
    expect((await totalOnB()).total).toBe(before + 2)
    // What an operator sees: the wait that ran out is counted.
    expect(await b.ctx.metrics.render()).toMatch(/^brokernet_read_after_total\{result="timed_out"\} [1-9]/m)
  }, 60_000)
})
