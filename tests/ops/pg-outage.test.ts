// A PostgreSQL outage seen from two instances of the binary (issue 29, finding 4; docs/decisions/028-database-faults.md):
// while the database is away every request is answered within 2 s with a 503 and Retry-After (never a 500, never a
// long hold), liveness stays 200 and readiness says 503; once the database accepts connections again, each instance
// serves within 2 s and no request started after that fails. Away means stopped (fast and immediate: the cluster is
// this file's own), seen directly and through a TCP balancer (a proxy that accepts, then closes: what HAProxy does
// with no live server), and a network gone silent (the proxy accepts connections and never answers).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { postgresDb, type PostgresDb } from '../../db/postgres'
import { signIn, type SignedIn } from '../support/auth'
import { currentBinary } from '../support/builds'
import { seedPlace } from '../support/fixtures'
import { startCluster, type Cluster } from '../support/postgres'
import { jsonLines } from '../support/app'
import { eventually } from '../support/eventually'
import { startServer, type RunningServer } from '../support/server'
import { tcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { watchLag } from '../support/lag'

/** The promise: an answer within this while the database is away, and serving again within this once it is back. */
const PROMISED_MS = 2000
/**
 * What the assertions allow on this shared, loaded machine: the product's own timers are within PROMISED_MS (logged
 * below); scheduling on a busy 2-core machine may add to a single answer, never the tens of seconds of issue 29. The
 * margin grows with how late this process's own timers fired meanwhile (three times the worst lateness): three suites
 * beside helpers' builds (load 30–40) kept answers 3.5–4.8 s that an idle machine gives in about one (issue 37).
 */
const lag = watchLag()
const allowedMs = () => PROMISED_MS + 1500 + 3 * lag.worst()

let binary: ReturnType<typeof currentBinary>
let cluster: Cluster
let url: string
/** Two instances on the database's socket; two more through the proxy (a balancer, then a silent network). */
let instances: RunningServer[] = []
let proxied: RunningServer[] = []
let proxy: TcpProxy
let master: SignedIn
let broker: SignedIn
let stateId: number
let cityId: number
let names = 0

/** A direct connection for fixtures; closed before the database stops (it is a client like any other). */
async function withDb<T>(work: (db: PostgresDb) => Promise<T>): Promise<T> {
  const db = postgresDb(url, { max: 1 })
  try {
    return await work(db)
  } finally {
    await db.close()
  }
}

beforeAll(async () => {
  binary = currentBinary()
  cluster = await startCluster()
  url = await cluster.createDatabase()
  proxy = tcpProxy(`${new URL(url).searchParams.get('host')}/.s.PGSQL.5432`)
  const throughProxy = new URL(url)
  throughProxy.searchParams.delete('host')
  throughProxy.hostname = '127.0.0.1'
  throughProxy.port = String(proxy.port)
  const start = (databaseUrl: string) => startServer({ command: [binary.path], env: { DATABASE_URL: databaseUrl, MATCH_DIGEST_HOURS: '0' }, timeoutMs: 60_000 })
  ;[instances, proxied] = await Promise.all([Promise.all([start(url), start(url)]), Promise.all([start(throughProxy.toString()), start(throughProxy.toString())])])
  await withDb(async (db) => {
    const place = await seedPlace(db, ['Nashik'])
    stateId = place.state.id
    cityId = place.cities[0]!.id
    master = await signIn(db, 'MASTER_ADMIN', { cityId: null })
    broker = await signIn(db, 'BROKER', { cityId, fullName: 'Outage Broker' })
  })
}, 240_000)

afterAll(async () => {
  lag.stop()
  await Promise.all([...instances, ...proxied].map((s) => s.stop()))
  proxy?.close()
  await cluster?.stop()
  binary?.cleanup()
})

type Answer = { what: string; status: number; retryAfter: string | null; ms: number; body: string }

/** The requests a client might be making: cached reads, a session check, a write, a page, the health routes. */
const requests = (): { what: string; path: string; init?: RequestInit }[] => [
  { what: 'listings page (cached)', path: `/api/listings/?per_page=10&city_id=${cityId}`, init: { headers: broker.bearer } },
  { what: 'who am I (session cache)', path: '/api/auth/me', init: { headers: broker.bearer } },
  { what: 'countries', path: '/api/geographic/countries', init: { headers: master.bearer } },
  {
    what: 'create a city',
    path: '/api/geographic/cities',
    init: { method: 'POST', headers: { ...master.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Outage City ${++names}`, state_id: stateId }) },
  },
  { what: 'a page', path: '/dashboard/listings', init: { headers: { cookie: broker.browser.cookie } } },
]

async function ask(server: RunningServer, what: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const t0 = performance.now()
  // Far beyond any promise: a request held this long has failed the test anyway, and the file must not hang.
  const res = await fetch(server.url + path, { ...init, redirect: 'manual', signal: AbortSignal.timeout(90_000) })
  const body = await res.text()
  return { what: `${new URL(server.url).port} ${what}`, status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - t0, body }
}

/** Every request of `requests()` on every one of `servers` at once, `rounds` times over. */
async function everything(servers: RunningServer[], rounds: number): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let i = 0; i < rounds; i++)
    answers.push(...(await Promise.all(servers.flatMap((s) => requests().map((r) => ask(s, r.what, r.path, r.init))))))
  return answers
}

const slowest = (answers: Answer[]) => Math.max(...answers.map((a) => a.ms))

/**
 * Polls each instance's readiness from the moment the database is back: milliseconds until each says ready, and the
 * slowest answer of its polls (the instance's own lateness: its "not yet" takes no database, only its turn).
 */
async function readyAfter(servers: RunningServer[], since: number): Promise<{ ms: number; slowestPoll: number }[]> {
  return Promise.all(
    servers.map(async (s) => {
      let slowestPoll = 0
      for (;;) {
        const t0 = performance.now()
        const status = await fetch(s.url + '/api/health/ready').then((r) => r.status, () => 0)
        slowestPoll = Math.max(slowestPoll, performance.now() - t0)
        if (status === 200) return { ms: performance.now() - since, slowestPoll }
        if (performance.now() - since > 30_000) throw new Error(`${s.url} not ready 30 s after the database came back`)
        await Bun.sleep(10)
      }
    }),
  )
}

async function expectAway(servers: RunningServer[], label: string) {
  lag.reset()
  // An instance serves from its caches until it hears its listening connection end (the stop's or the cut's FIN): a
  // request that reaches it in the same turn as that FIN is rightly answered from memory, as it would have been a
  // moment before (a full run on 2 cores saw one such 200 in the first round after the cut). That moment is bounded:
  // every instance's cached page must turn 503 within the promise; from then on every request is checked.
  const cached = requests()[0]!
  const noticed = performance.now()
  await eventually(
    'every instance stops answering from its caches',
    async () => (await Promise.all(servers.map((s) => ask(s, cached.what, cached.path, cached.init)))).every((a) => a.status === 503),
    allowedMs(),
    10,
  )
  console.log(`[outage] ${label}: every instance stopped answering from its caches after ${(performance.now() - noticed).toFixed(0)} ms`)
  // Several rounds: each failed attempt to connect must not make the next one wait longer (the driver's own backoff
  // grew to 20 s between attempts, the holds of issue 29).
  const answers = await everything(servers, 6)
  const wrong = answers.filter((a) => a.status !== 503 || !a.retryAfter)
  expect(wrong.map((a) => `${a.what}: ${a.status} retry-after ${a.retryAfter} ${a.body.slice(0, 200)}`)).toEqual([])
  for (const a of answers) expect(Number(a.retryAfter)).toBeGreaterThan(0)
  // The API answers JSON with a detail to show; a page is the error page a person can act on.
  for (const a of answers.filter((x) => !x.what.endsWith('a page'))) expect(typeof JSON.parse(a.body).detail).toBe('string')
  const allowed = allowedMs()
  console.log(`[outage] ${label}: ${answers.length} answers 503, slowest ${slowest(answers).toFixed(0)} ms (allowed ${allowed.toFixed(0)} ms: this process's timers up to ${lag.worst().toFixed(0)} ms late)`)
  // Each one past the promise named, with when it was asked (its round) and how long it took: which kind holds.
  expect(answers.flatMap((a, i) => (a.ms < allowed ? [] : [`round ${Math.floor(i / (answers.length / 6)) + 1}, ${a.what}: ${a.status} after ${a.ms.toFixed(0)} ms`]))).toEqual([])

  for (const s of servers) {
    const live = await ask(s, 'liveness', '/api/health')
    expect(live.status).toBe(200)
    expect(JSON.parse(live.body)).toMatchObject({ status: 'degraded', database: { ok: false } })
    expect(live.ms).toBeLessThan(allowedMs())
    const ready = await ask(s, 'readiness', '/api/health/ready')
    expect(ready.status).toBe(503)
    expect(Number(ready.retryAfter)).toBeGreaterThan(0)
    expect(ready.ms).toBeLessThan(allowedMs())
  }
}

/**
 * An instance's return is its own timers' work (its probe every 100 ms, the connection's start): on a machine loaded
 * many times over they are late by more than this process's are (a full run beside two others and five helpers, load
 * 45: one instance of four ready after 5.8 s while this process's timers were at most 0.45 s late). Its slowest answer
 * to a readiness poll meanwhile is its lateness, measured; the margin is three times the worse of the two. The
 * regression guarded against held for 20 s (issue 29).
 */
const allowedFor = (r: { slowestPoll: number }) => PROMISED_MS + 1500 + 3 * Math.max(lag.worst(), r.slowestPoll)

async function expectBack(servers: RunningServer[], label: string) {
  lag.reset()
  const since = performance.now()
  // Started right after the database accepts connections again: each succeeds, or (a loaded machine: the instance's
  // probe still connecting when the request's second of waiting ends) is a 503 with Retry-After, never another
  // failure; once the instances say ready, every request succeeds (the round below). Issue 37.
  const [answers, ready] = await Promise.all([everything(servers, 1), readyAfter(servers, since)])
  const failed = answers.filter((a) => a.status >= 400)
  expect(failed.filter((a) => a.status !== 503 || !a.retryAfter).map((a) => `${a.what}: ${a.status} ${a.body.slice(0, 200)}`)).toEqual([])
  console.log(
    `[outage] ${label}: ${answers.length - failed.length} of ${answers.length} requests started after the database was back succeeded, ` +
      `the rest 503 with Retry-After (slowest ${slowest(answers).toFixed(0)} ms); instances ready after ` +
      `${ready.map((r) => `${r.ms.toFixed(0)} ms (allowed ${allowedFor(r).toFixed(0)})`).join(' and ')}`,
  )
  for (const r of ready) expect(r.ms).toBeLessThan(allowedFor(r))
  // And a second round, from caches again where they serve.
  expect((await everything(servers, 1)).filter((a) => a.status >= 400)).toEqual([])
}

/** Nothing answered 500 or failed unexpectedly in any instance's log, and every instance is still running. */
function expectNoServerErrors(servers: RunningServer[]) {
  for (const s of servers) {
    expect(s.proc.exitCode).toBeNull()
    expect(jsonLines(s.output()).filter((line) => line.status === 500)).toEqual([])
    expect(s.output().split('\n').filter((line) => line.startsWith('[error]'))).toEqual([])
  }
}

describe('PostgreSQL stopped under two instances, and under two more behind a TCP balancer', () => {
  test('before: everything answers, all ready', async () => {
    // On a machine loaded many times over, a first connection to PostgreSQL can take longer than its 1.5 s timeout,
    // which an instance rightly takes for an outage (503 for a moment, then the probe hears the database): the state
    // before the outage is waited for, not assumed at the first request (issue 37).
    await eventually('every instance answering everything', async () => (await everything([...instances, ...proxied], 2)).every((a) => a.status < 400), 60_000, 500)
    expect((await everything([...instances, ...proxied], 2)).filter((a) => a.status >= 400)).toEqual([])
    for (const s of [...instances, ...proxied]) expect((await ask(s, 'readiness', '/api/health/ready')).status).toBe(200)
  }, 120_000)

  /** Stops the database, checks the answers meanwhile, starts it and checks the return (both, whatever the first gave). */
  async function outage(mode: 'fast' | 'immediate') {
    const all = [...instances, ...proxied]
    await cluster.pause(mode)
    const away = await expectAway(all, `stopped ${mode}`).then(() => null, (e: unknown) => e)
    await cluster.resume()
    // The database is back when pg_ctl's wait ends: it accepts connections.
    await expectBack(all, `started after a stop ${mode}`)
    if (away) throw away
  }

  test('stopped fast (sessions ended with an error, as pg_ctl restart does): 503 with Retry-After within 2 s, liveness 200, readiness 503; started again: each instance ready within 2 s, and no request started after that fails', async () => {
    await outage('fast')
  }, 180_000)

  test('stopped immediate (sessions killed, as a crash does), then started again: the same', async () => {
    await outage('immediate')
  }, 180_000)

  test('after the outages, a change written straight to the database reaches both instances (no stale cache)', async () => {
    const page = `/api/listings/?per_page=10&city_id=${cityId}`
    const before = await ask(instances[0]!, 'page', page, { headers: broker.bearer })
    const { total } = JSON.parse(before.body) as { total: number }
    // Both have it cached.
    for (const s of instances) expect((await ask(s, 'page', page, { headers: broker.bearer })).status).toBe(200)
    const id = await withDb(async (db) => {
      const now = Date.now()
      const { rows } = await db.run<{ id: number }>(
        `insert into listings (entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, status, date, owner_user_id, city_id, created_at, updated_at)
         values (?, 'AVL', 'RENT', 'Flat', '9876543210', 'Direct', 'ACTIVE', '2026-11-24', ?, ?, ?, ?) returning id`,
        [`AVL-NAS-OUTAGE-${now}`, broker.user.id, cityId, now, now],
      )
      return rows[0]!.id
    })
    for (const s of instances) {
      const deadline = performance.now() + 10_000
      for (;;) {
        const res = await fetch(s.url + page, { headers: broker.bearer })
        const body = (await res.json()) as { total: number; listings: { id: number }[] }
        if (body.listings[0]?.id === id) {
          expect(body.total).toBe(total + 1)
          break
        }
        if (performance.now() > deadline) throw new Error(`${s.url} still answers without the new listing`)
        await Bun.sleep(20)
      }
    }
  })
})

describe('the network to PostgreSQL goes silent under two instances (connections accepted, never answered)', () => {
  test('503 with Retry-After within 2 s (a connection is given 1.5 s, not 30), liveness 200, readiness 503; each instance serves again within 2 s of the network coming back', async () => {
    expect((await everything(proxied, 1)).filter((a) => a.status >= 400)).toEqual([])
    proxy.hold()
    // The connections open now are cut, as a failover ends them; every new one waits for an answer that never comes.
    proxy.cut()
    const away = await expectAway(proxied, 'network silent').then(() => null, (e: unknown) => e)
    proxy.release()
    await expectBack(proxied, 'network back')
    if (away) throw away
  }, 180_000)
})

test('no instance answered a 500 or logged an unexpected error through it all, and all four still run', () => {
  expectNoServerErrors([...instances, ...proxied])
})
