// GET /metrics (issue 19, docs/decisions/021-metrics.md): who may read it, what it holds, and one set of numbers across
// WORKERS processes. In process (app.handle) a request has no peer address, so it is never a loopback caller: refusals
// and the token are tested there. Over HTTP to the binary (BROKERNET_BINARY) the tests' requests come from 127.0.0.1,
// and requests to this machine's own network address come from a caller that is not loopback.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource } from '../../db/open'
import { ConfigError, loadConfig } from '../../src/platform/config'
import { Metrics } from '../../src/platform/metrics'
import { signIn, type SignedIn } from '../support/auth'
import { BINARY, createTestApp, ON_POSTGRES, type TestApp } from '../support/app'
import { eventStreamReader } from '../support/events'
import { seedPlace } from '../support/fixtures'
import { sharedCluster } from '../support/postgres'
import { startServer } from '../support/server'
import { eventually } from '../support/eventually'

const TOKEN = 'metrics-token-Zq83hLmN0pXw'
const bearer = { authorization: `Bearer ${TOKEN}` }

let h: TestApp
let broker: SignedIn
beforeAll(async () => {
  h = await createTestApp({ METRICS_TOKEN: TOKEN })
  const place = await seedPlace(h.ctx.db, ['Nagpur'])
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
})
afterAll(() => h?.close())

/** Samples by name and labels (sorted), e.g. `brokernet_http_requests_total{method="GET",route="/x",status="200"}`. */
type Samples = Map<string, number>

function parse(text: string): Samples {
  const samples: Samples = new Map()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) throw new Error(`not a Prometheus sample: ${line}`)
    samples.set(key(m[1]!, Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]))), Number(m[3]))
  }
  return samples
}

const key = (name: string, labels: Record<string, string> = {}) => {
  const inner = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(',')
  return inner ? `${name}{${inner}}` : name
}
const value = (s: Samples, name: string, labels?: Record<string, string>) => s.get(key(name, labels)) ?? 0

async function scrape(app: { request: TestApp['request'] } = h, headers: Record<string, string> = bearer): Promise<{ text: string; samples: Samples }> {
  const res = await app.request('/metrics', { headers })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  const text = await res.text()
  return { text, samples: parse(text) }
}

/** Requests are counted once their answer has gone (and maybe by another process): wait until `ok` holds. */
async function scrapeUntil(ok: (s: Samples) => boolean, app: { request: TestApp['request'] } = h, timeoutMs = 20_000): Promise<Samples> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { samples } = await scrape(app)
    if (ok(samples) || Date.now() > deadline) return samples
    await Bun.sleep(25)
  }
}

/** This machine's own address on its network, if it has one: a caller there is not loopback. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address

describe('access', () => {
  // In process a request has no peer address: never a loopback caller. Over HTTP to the binary the tests' requests come
  // from loopback, which is let in; a caller that is not loopback is one a proxy forwarded, or one that connects to
  // this machine's network address.
  test('with METRICS_TOKEN configured: a caller that is not loopback needs it (no bearer or a wrong one is 401); loopback is let in', async () => {
    type Ask = (headers?: Record<string, string>) => Promise<Response>
    const needsToken = async (ask: Ask) => {
      const none = await ask()
      expect(none.status).toBe(401)
      expect(await none.json()).toEqual({ detail: 'Send METRICS_TOKEN as Authorization: Bearer <token>' })
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"')
      for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${btoa(`x:${TOKEN}`)}`, 'Bearer '])
        expect((await ask({ authorization })).status).toBe(401)
      expect((await ask(bearer)).status).toBe(200)
      expect((await ask({ authorization: `bearer  ${TOKEN}` })).status).toBe(200)
    }
    // X-Forwarded-For never makes a caller local, even one that names loopback.
    expect((await h.request('/metrics', { headers: { 'x-forwarded-for': '127.0.0.1' } })).status).toBe(401)
    if (h.inProcess) return needsToken((headers = {}) => h.request('/metrics', { headers }))

    expect((await h.request('/metrics')).status).toBe(200)
    await needsToken((headers = {}) => h.request('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9', ...headers } }))
    if (!external) throw new Error('this machine has no network address (IPv4, not loopback) to call the binary from as a remote caller')
    const port = new URL(h.baseUrl!).port
    await needsToken((headers = {}) => fetch(`http://${external}:${port}/metrics`, { headers }))
  })

  test('without METRICS_TOKEN: 403 for a caller that is not loopback', async () => {
    const open = await createTestApp()
    try {
      if (open.inProcess) {
        const res = await open.request('/metrics', { headers: bearer })
        expect(res.status).toBe(403)
        expect(await res.json()).toEqual({ detail: '/metrics answers only callers on this machine unless METRICS_TOKEN is set' })
      } else {
        // Loopback is let in without a token; a request that came through a proxy is not a local caller.
        expect((await open.request('/metrics')).status).toBe(200)
        expect((await open.request('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403)
        expect((await open.request('/metrics', { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(403)
      }
    } finally {
      await open.close()
    }
  })

  test('METRICS_TOKEN must be at least 16 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(ConfigError)
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow('METRICS_TOKEN must be at least 16 characters')
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN)
    expect(loadConfig({ METRICS_TOKEN: '  ' }).metricsToken).toBeUndefined()
  })

  test('/metrics is not in the API document', async () => {
    const doc = await (await h.request('/swagger/json')).json()
    expect(Object.keys(doc.paths).some((p) => p.includes('metrics'))).toBe(false)
  })
})

describe('content', () => {
  const route = '/api/listings/:id'
  const ids = [7345901, 7345902, 7345903, 7345904, 7345905]

  test('requests by route template, method and status rise by exactly the number sent, with a latency histogram', async () => {
    const labels = { method: 'GET', route, status: '401' }
    const before = (await scrape()).samples
    for (const id of ids) expect((await h.request(`/api/listings/${id}`)).status).toBe(401)
    const want = value(before, 'brokernet_http_requests_total', labels) + ids.length
    const after = await scrapeUntil((s) => value(s, 'brokernet_http_requests_total', labels) >= want)
    expect(value(after, 'brokernet_http_requests_total', labels)).toBe(want)

    const h0 = { method: 'GET', route }
    const count = value(after, 'brokernet_http_request_duration_seconds_count', h0)
    expect(count - value(before, 'brokernet_http_request_duration_seconds_count', h0)).toBe(ids.length)
    expect(value(after, 'brokernet_http_request_duration_seconds_sum', h0)).toBeGreaterThan(0)
    const buckets = [...after.entries()]
      .filter(([k]) => k.startsWith('brokernet_http_request_duration_seconds_bucket{') && k.includes(`route="${route}"`) && k.includes('method="GET"'))
      .map(([k, v]) => ({ le: /le="([^"]+)"/.exec(k)![1]!, v }))
      .sort((a, b) => Number(a.le === '+Inf' ? Infinity : a.le) - Number(b.le === '+Inf' ? Infinity : b.le))
    expect(buckets.map((b) => b.le)).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'])
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.v).toBeGreaterThanOrEqual(buckets[i - 1]!.v)
    expect(buckets.at(-1)!.v).toBe(count)

    // A signed-in answer is its own series.
    const ok = { method: 'GET', route: '/api/auth/me', status: '200' }
    const okBefore = value(after, 'brokernet_http_requests_total', ok)
    for (let i = 0; i < 3; i++) expect((await h.request('/api/auth/me', { headers: broker.bearer })).status).toBe(200)
    const later = await scrapeUntil((s) => value(s, 'brokernet_http_requests_total', ok) >= okBefore + 3)
    expect(value(later, 'brokernet_http_requests_total', ok)).toBe(okBefore + 3)
  })

  test('labels hold route templates, never raw paths, ids or query strings', async () => {
    expect((await h.request('/api/nothing/7345999?token=secret-query-value')).status).toBe(404)
    expect((await h.request(`/renew/renew-token-Hq29xPz?sig=abc`)).status).toBeLessThan(500)
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' }
    const renewed = (s: Samples) => [...s.keys()].some((k) => k.startsWith('brokernet_http_requests_total{') && k.includes('route="/renew/:token"'))
    const samples = await scrapeUntil((s) => value(s, 'brokernet_http_requests_total', unmatched) >= 1 && renewed(s))
    expect(value(samples, 'brokernet_http_requests_total', unmatched)).toBeGreaterThanOrEqual(1)
    expect(renewed(samples)).toBe(true)
    const { text } = await scrape()
    const labelSets = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!).join('\n')
    for (const raw of [...ids.map(String), '7345999', 'secret-query-value', 'renew-token-Hq29xPz', '?']) expect(labelSets).not.toContain(raw)
    expect(labelSets).toContain('route="/renew/:token"')
    for (const [, r] of labelSets.matchAll(/route="([^"]*)"/g)) expect(r === 'unmatched' || /^\/[\w/:*.-]*$/.test(r!)).toBe(true)
  })

  test('an unusual method is counted as OTHER: a client cannot make a series per request', async () => {
    await h.request('/api/health', { method: 'PROPFIND' })
    const samples = await scrapeUntil((s) => [...s.keys()].some((k) => k.startsWith('brokernet_http_requests_total{method="OTHER"')))
    expect([...samples.keys()].some((k) => k.includes('PROPFIND'))).toBe(false)
  })

  test('database time by kind: reads, writes and transactions are timed', async () => {
    const before = (await scrape()).samples
    // A signed-in request reads its session and user (unless the session cache holds them: the first time it does not).
    const res = await h.request('/api/auth/me', { headers: broker.bearer })
    expect(res.status).toBe(200)
    const after = await scrapeUntil((s) => value(s, 'brokernet_db_statement_duration_seconds_count', { kind: 'read' }) > value(before, 'brokernet_db_statement_duration_seconds_count', { kind: 'read' }))
    expect(value(after, 'brokernet_db_statement_duration_seconds_count', { kind: 'read' })).toBeGreaterThan(value(before, 'brokernet_db_statement_duration_seconds_count', { kind: 'read' }))
    expect(value(after, 'brokernet_db_statement_duration_seconds_sum', { kind: 'read' })).toBeGreaterThan(0)
    expect(value(after, 'brokernet_db_statement_duration_seconds_bucket', { kind: 'read', le: '+Inf' })).toBe(value(after, 'brokernet_db_statement_duration_seconds_count', { kind: 'read' }))
  })

  test("the data layer's timer: one observation per statement on its own and per transaction, on this backend", async () => {
    // A data source of its own: nothing else (an app's work after an answer) reads through it meanwhile.
    const source = ON_POSTGRES
      ? await openDataSource({ databasePath: '', databaseUrl: await (await sharedCluster()).createDatabase() })
      : sqliteSource(openDatabase(join(h.dataDir, 'timer.db')))
    const metrics = new Metrics()
    source.db.timer = metrics.timeStatement
    const counts = async () => {
      const json = (await metrics.snapshot()).find((m) => m.name === 'brokernet_db_statement_duration_seconds')!
      const count = (kind: string) => json.values.find((v) => v.metricName?.endsWith('_count') && v.labels.kind === kind)?.value ?? 0
      return { read: count('read'), write: count('write'), transaction: count('transaction') }
    }
    try {
      await source.db.get('select 1 as one')
      await source.db.all('select 1 as one')
      await source.db.run("update mail_outbox set status = status where status = 'NONE'")
      // Its statements inside are the transaction's time, not reads or writes of their own.
      await source.db.tx(async (tx) => {
        await tx.get('select 1 as one')
        await tx.run("update mail_outbox set status = status where status = 'NONE'")
      })
      // Awaited, not `expect(…).rejects`: bun:test waits for a pending promise there without delivering a read thread's
      // answer (db/read-threads.ts), so the failed read would never settle inside it.
      expect(await source.db.get('select * from no_such_table').then(() => null, (e: unknown) => e)).toBeInstanceOf(Error)
      expect(await counts()).toEqual({ read: 3, write: 1, transaction: 1 })
    } finally {
      await source.close()
    }
  })

  test('cache hits and misses: the same list twice is one lookup computed and one answered from memory', async () => {
    const pages = (s: Samples, result: string) => value(s, 'brokernet_cache_lookups_total', { cache: 'pages', result })
    const before = (await scrape()).samples
    for (let i = 0; i < 2; i++) expect((await h.request('/api/listings/', { headers: broker.bearer })).status).toBe(200)
    const after = await scrapeUntil((s) => pages(s, 'hit') + pages(s, 'miss') >= pages(before, 'hit') + pages(before, 'miss') + 2)
    expect(pages(after, 'hit') + pages(after, 'miss') - pages(before, 'hit') - pages(before, 'miss')).toBe(2)
    expect(pages(after, 'miss') - pages(before, 'miss')).toBeGreaterThanOrEqual(1)
    // In one process the second is a hit; over HTTP it may have gone to another process, whose cache had not seen it.
    if (h.inProcess) expect(pages(after, 'hit') - pages(before, 'hit')).toBe(1)
    for (const cache of ['counts', 'pages', 'sessions']) expect(after.has(key('brokernet_cache_entries', { cache }))).toBe(true)
    expect(value(after, 'brokernet_cache_lookups_total', { cache: 'sessions', result: 'hit' }) + value(after, 'brokernet_cache_lookups_total', { cache: 'sessions', result: 'miss' })).toBeGreaterThan(0)
  })

  test('open event streams, by topic, while they are open', async () => {
    const streams = (s: Samples, topic: string) => value(s, 'brokernet_event_streams', { topic })
    const before = (await scrape()).samples
    const res = await h.request('/api/events', { headers: broker.bearer })
    expect(res.status).toBe(200)
    const stream = eventStreamReader(res)
    await stream.expect('matches')
    const open = (await scrape()).samples
    for (const topic of ['matches', 'expiring', 'saved_search']) expect(streams(open, topic)).toBe(streams(before, topic) + 1)
    expect(streams(open, 'pending')).toBe(streams(before, 'pending')) // a broker's stream has no approvals
    await stream.cancel()
    const closed = await scrapeUntil((s) => streams(s, 'matches') === streams(before, 'matches'))
    expect(streams(closed, 'matches')).toBe(streams(before, 'matches'))
  })

  test('the mail outbox: backlog, retrying, failed and the oldest waiting mail, as the table has them', async () => {
    const gauges = (s: Samples) => ({
      pending: value(s, 'brokernet_mail_outbox_pending'),
      retrying: value(s, 'brokernet_mail_outbox_retrying'),
      failed: value(s, 'brokernet_mail_outbox_failed'),
    })
    const before = gauges((await scrape()).samples)
    const now = Date.now()
    // 10 s old: younger than the mailer's sweep grace (30 s), so a running binary leaves them waiting meanwhile.
    const rows: [string, number, number][] = [
      ['PENDING', 0, now - 10_000],
      ['PENDING', 1, now - 5_000],
      ['PENDING', 0, now],
      ['FAILED', 5, now - 60_000],
      ['FAILED', 5, now - 30_000],
    ]
    for (const [status, attempts, createdAt] of rows)
      await h.ctx.db.run(
        `insert into mail_outbox (to_address, subject, text_body, status, attempts, created_at) values ('metrics@example.com', 'metrics test', 'x', ?, ?, ?)`,
        [status, attempts, createdAt],
      )
    try {
      const { samples } = await scrape()
      expect(gauges(samples)).toEqual({ pending: before.pending + 3, retrying: before.retrying + 1, failed: before.failed + 2 })
      const oldest = value(samples, 'brokernet_mail_outbox_oldest_pending_age_seconds')
      expect(oldest).toBeGreaterThanOrEqual(10)
      expect(oldest).toBeLessThan(60)
      // Read once for the whole instance, never added up across processes.
      expect(value(samples, 'brokernet_metrics_processes')).toBeGreaterThanOrEqual(1)
    } finally {
      await h.ctx.db.run("delete from mail_outbox where subject = 'metrics test'")
    }
    expect(gauges((await scrape()).samples)).toEqual(before)
  })

  test("SQLite's write-ahead log: the size of its file (no such gauge on PostgreSQL)", async () => {
    const wal = `${h.config.databasePath}-wal`
    const size = () => (existsSync(wal) ? statSync(wal).size : 0)
    const name = 'brokernet_sqlite_wal_bytes'
    if (ON_POSTGRES) {
      expect((await scrape()).samples.has(name)).toBe(false)
      return
    }
    await h.ctx.db.run("insert into rate_limits (bucket, key, count, reset_at) values ('metrics-wal', 'k', 1, 0)")
    await h.ctx.db.run("delete from rate_limits where bucket = 'metrics-wal'")
    // The binary's checkpointer may cut the file meanwhile: the gauge tells the size of the moment.
    const samples = await scrapeUntil((s) => s.has(name) && value(s, name) === size())
    expect(samples.has(name)).toBe(true)
    expect(value(samples, name)).toBe(size())
    if (h.inProcess) expect(value(samples, name)).toBeGreaterThan(0) // no checkpointer in process: the writes are in it
  })

  test('process metrics that hold under Bun, and none of those that do not', async () => {
    const { samples } = await scrape()
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_open_fds', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes'])
      expect(value(samples, name)).toBeGreaterThan(0)
    const names = new Set([...samples.keys()].map((k) => k.replace(/\{.*$/, '')))
    for (const gone of ['nodejs_heap_space_size_total_bytes', 'nodejs_active_handles_total', 'nodejs_version_info', 'process_heap_bytes', 'nodejs_heap_size_total_bytes'])
      expect(names.has(gone)).toBe(false)
    expect([...samples.keys()].some((k) => k.startsWith('brokernet_build_info{') && k.includes(`bun="${Bun.version}"`))).toBe(true)
  })

  test('registerGauge: a gauge read at each scrape by the process that answers it', async () => {
    // A registry of its own: the one of the app answering (the binary's, under BROKERNET_BINARY) is not this test's.
    const metrics = new Metrics()
    let age: number | null = null
    metrics.registerGauge({ name: 'brokernet_test_age_seconds', help: 'A test gauge.', collect: async () => age })
    expect(parse(await metrics.render()).has('brokernet_test_age_seconds')).toBe(false)
    age = 42
    expect(value(parse(await metrics.render()), 'brokernet_test_age_seconds')).toBe(42)
    expect(() => metrics.registerGauge({ name: 'brokernet_test_age_seconds', help: 'again', collect: () => 1 })).toThrow()
  })
})

describe('several processes (WORKERS=2)', () => {
  /** A primary and one worker (the binary under BROKERNET_BINARY), once both serve their numbers: their socket folder. */
  async function startTwo() {
    const databaseUrl = ON_POSTGRES ? await (await sharedCluster()).createDatabase() : undefined
    const server = await startServer({
      ...(BINARY ? { command: [BINARY] } : {}),
      env: { WORKERS: '2', LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    })
    const pid = server.proc.pid
    // The primary's folder of sockets: the one holding its own.
    const folder = () =>
      readdirSync(tmpdir())
        .filter((d) => d.startsWith('brokernet-metrics-'))
        .map((d) => join(tmpdir(), d))
        .find((d) => existsSync(join(d, `${pid}.sock`)))
    try {
      const dir = await eventually('both processes’ metrics sockets', () => {
        const d = folder()
        return d !== undefined && readdirSync(d).length >= 2 && d
      }, 30_000)
      return { server, pid, dir }
    } catch (e) {
      server.proc.kill('SIGKILL')
      throw e
    }
  }

  test('a scrape on either process holds both processes’ counts; a killed sibling is left out until it is back', async () => {
    const { server, pid, dir } = await startTwo()
    try {
      const app = { request: (path: string, init?: RequestInit) => fetch(server.url.replace('localhost', '127.0.0.1') + path, init) }
      const sockets = readdirSync(dir).map((f) => join(dir, f))
      expect(sockets).toHaveLength(2)

      const labels = { method: 'GET', route: '/api/health', status: '200' }
      // Fresh connections: the kernel spreads them over both processes.
      const sent = 60
      const answers = await Promise.all(Array.from({ length: sent }, () => app.request('/api/health', { headers: { connection: 'close' } })))
      expect(answers.every((r) => r.status === 200)).toBe(true)

      // Each process's own numbers, as its socket gives them to a sibling.
      const own = async (socket: string) => {
        const metrics = (await (await fetch('http://localhost/metrics.json', { unix: socket })).json()) as { name: string; values: { labels: Record<string, string>; value: number }[] }[]
        return metrics.find((m) => m.name === 'brokernet_http_requests_total')?.values.find((v) => v.labels.route === '/api/health' && v.labels.status === '200')?.value ?? 0
      }
      const counts = await eventually('every answer counted', async () => {
        const c = await Promise.all(sockets.map(own))
        return c.reduce((a, b) => a + b, 0) >= sent && c
      }, 20_000)
      expect(counts.reduce((a, b) => a + b, 0)).toBe(sent)
      expect(counts.every((c) => c > 0)).toBe(true) // both processes answered some, so both are in the total below

      // Whichever process answers (fresh connections again), the total is the same.
      for (let i = 0; i < 6; i++) {
        const res = await app.request('/metrics', { headers: { connection: 'close' } })
        const samples = parse(await res.text())
        expect(value(samples, 'brokernet_http_requests_total', labels)).toBe(sent)
        expect(value(samples, 'brokernet_metrics_processes')).toBe(2)
        expect(value(samples, 'brokernet_mail_outbox_pending')).toBe(0) // read once, not once per process
      }

      // A socket that refuses while its process lives (a worker just started, not listening yet) is skipped and kept:
      // removing it would leave that worker out of every later scrape. Here a file nobody listens on, named for this
      // test's own process.
      const notYet = join(dir, `${process.pid}.sock`)
      writeFileSync(notYet, '')
      expect(value(parse(await (await app.request('/metrics', { headers: { connection: 'close' } })).text()), 'brokernet_metrics_processes')).toBe(2)
      expect(existsSync(notYet)).toBe(true)
      rmSync(notYet)

      // A sibling killed outright leaves its socket behind: the scrape skips it (and removes it) and answers at once.
      const workerSocket = sockets.find((s) => !s.endsWith(`/${pid}.sock`))!
      const workerPid = Number(/(\d+)\.sock$/.exec(workerSocket)![1])
      process.kill(workerPid, 'SIGKILL')
      await eventually('the killed worker’s socket refusing', () =>
        fetch('http://localhost/metrics.json', { unix: workerSocket }).then(() => false, (e: { code?: string }) => e.code === 'ECONNREFUSED'),
      )
      // A fresh connection, tried again if it is reset: the kernel may still hand a connection to the dying worker's
      // listening socket (both listen on the port) in the moment before its exit closes it, and a browser or a load
      // balancer sends an idempotent GET again on a reset (CI run 2 of session 45 met it once, at load 20).
      const scrapeFresh = async (): Promise<Response> => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await app.request('/metrics', { headers: { connection: 'close' } })
          } catch (e) {
            if ((e as { code?: string }).code !== 'ECONNRESET' || attempt === 3) throw e
          }
        }
      }
      const started = performance.now()
      const alone = parse(await (await scrapeFresh()).text())
      // Skipped because it refused, not waited for until the sibling timeout: only a refusing socket is removed. (How
      // fast is logged, not asserted: on a busy machine any figure fails now and then, issue 37.)
      console.log(`[metrics] a scrape with a killed sibling answered in ${(performance.now() - started).toFixed(0)} ms`)
      expect(existsSync(workerSocket)).toBe(false)
      // This process alone; or with the worker the primary starts again a second after the kill, if it came up first.
      const restarted = readdirSync(dir).some((f) => f !== `${pid}.sock`)
      expect(restarted ? [1, 2] : [1]).toContain(value(alone, 'brokernet_metrics_processes'))
      // The primary starts it again (after a second): its numbers start over, the scrape holds both processes again.
      expect(value(await scrapeUntil((s) => value(s, 'brokernet_metrics_processes') === 2, app, 60_000), 'brokernet_metrics_processes')).toBe(2)
      expect(readdirSync(dir)).toHaveLength(2)

      expect(await server.stop()).toBe(0)
      expect(existsSync(dir)).toBe(false) // the primary removes the folder when it stops
    } finally {
      server.proc.kill('SIGKILL')
    }
  }, 240_000)

  test('a primary killed outright: its worker, ending with it, removes the folder', async () => {
    const { server, pid, dir } = await startTwo()
    const workers = readdirSync(dir).flatMap((f) => (f === `${pid}.sock` ? [] : [Number(/(\d+)\.sock$/.exec(f)?.[1])]))
    const alive = (p: number) => {
      try {
        return process.kill(p, 0)
      } catch {
        return false
      }
    }
    try {
      server.proc.kill('SIGKILL')
      // The worker hears the primary's end at once (its stdin closes) and stops as on SIGTERM, then removes the folder:
      // about a second on an idle machine, 10-13 s at a load of 30-40 and over 20 s once with three suites at once.
      // Past a minute once (three suites, load 10-20): which of the two never happened (the worker still running, or
      // gone and the folder left) is what the failure says.
      await eventually('the folder removed', () => !existsSync(dir) || (workers.every((p) => !alive(p)) && `worker ${workers.join(', ')} gone, folder left: ${readdirSync(dir).join(', ')}`), 60_000).then((r) => {
        if (r !== true) throw new Error(String(r))
      })
    } finally {
      for (const p of workers) if (alive(p)) process.kill(p, 'SIGKILL') // no orphan outlives a failed test
      await server.stop() // removes its DATA_DIR
    }
  }, 120_000)
})
