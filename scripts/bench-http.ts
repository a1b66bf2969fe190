// `bun run bench:http`: the listings' speed over real HTTP, against the compiled binary (dist/brokernet), with wrk.
// scripts/bench.ts measures in process; this one measures what a user gets: sockets, the HTTP parser, every worker.
// One run, one markdown table: the floors (a bare `Bun.serve` and a bare Elysia app on this machine, now: issue 36,
// scripts/bench-floors.ts) and Brokernet's own (GET /api/health), the dashboard mixes' first touches (no warm-up: each
// URL's first request counts), a broker's and the master admin's dashboard mixes (600 distinct list URLs each) with
// and without a writer posting and editing meanwhile, the writes' own latency, a single insert on an idle server, and
// the first read after a write that changes its answer, per kind of filter. Every rate is also given as a ratio to the
// bare floors of the same run: on a shared machine the ratios are what compares from one run to the next.
//
//   bun run bench:http [--binary dist/brokernet] [--db data/bench.db] [--workers N] [--seconds 10] [--connections 64]
//                      [--only floor,first-touch,broker,master,broker-writes,master-writes,insert,cold,matching,start]
//                      [--floor-rounds 1] [--keep] [--quick-warm]
//                      [--postgres [--instances N] [--pg-stats]]
//   bun run bench:http --wal [--rate 120] [--seconds 300] [--workers 2] [--listings N]
//
// A manual benchmark (never part of the test suite). The writes change the database, so every run serves a fresh copy
// of the bench database in a temporary DATA_DIR, removed afterwards (--keep keeps it; a failed run keeps the log).
//
// --quick-warm: the mixes warmed by wrk only, not first one URL at a time (minutes on a busy machine): for runs that
// compare the writes (--only broker-writes,master-writes,insert), before and after a change in turn.
//
// --floor-rounds N: the floors and GET /api/health measured N times each, in turn (bare Bun, bare Elysia, health, ...),
// each row giving the median round: interleaved, a burst of load from elsewhere falls on every kind alike.
//
// --postgres: the same scenarios with the binary on PostgreSQL (issue 16, docs/decisions/013-postgres.md): a throwaway
// server started here on a copy of data/bench-pg/, the same million listings loaded from the bench database once and
// cached (scripts/bench-pg.ts; the first load takes about 2 minutes), stopped at the end. --instances N starts N
// binaries on the one database, each on its own port (as behind a load balancer): wrk runs once per instance, with
// the connections split evenly between them, and the table gives each instance's throughput and the sum. The writes,
// single inserts, cold reads and matching go through the first instance (its caches are current when it answers its
// own writes; the others hear of them a moment later, which tests/multi-instance.test.ts checks). --pg-stats prints
// PostgreSQL's statements by total time at the end (pg_stat_statements; counted from the last warm-up on, so those of
// the measured runs after it) and logs the plans of those over 50 ms (auto_explain; with --keep, in the kept folder's
// postgres.log): where the time went; and, sampled while the writer writes, which session waited for whose lock and
// what that one was doing (scripts/bench-pg-locks.ts): a statement's time above includes its lock waits.
//
// BROKERNET_MEMORY_PROBE=<folder> in the environment (issue 36, docs/decisions/062-memory.md): at each row of the memory
// table every server process also writes <folder>/<pid>-<n>.json: its JavaScript heap (size, capacity, the memory its
// objects hold outside it, the most numerous object types) and the caches' sizes, before and after a full collection,
// and its resident set after SQLite's shrink_memory (src/platform/memory-probe.ts). The collections change the run's
// memory: for looking inside, not for the figures.
//
// The memory table's last row splits each process's highest into its anonymous part (the allocator's arena) and its
// file pages (the binary's own: 55-60 MB at any size). `bun scripts/rss-maps.ts <binary> <out.json>` beside a run splits
// it further, by mapping (docs/decisions/071-native-memory.md).
//
// --wal: SQLite's write-ahead log under steady writes (issue 29, docs/decisions/030-wal.md), alone, with WORKERS=2
// unless --workers says otherwise: first how many pages one listing POST adds to the log (six POSTs on the idle server,
// the log read before and after each), then both dashboard mixes with wrk at once (64 connections each) while a writer
// posts --rate listings/s (default 120; at most 32 unanswered: a turn is skipped rather than queued) for --seconds
// (default 300), the log file's size and the wal-index sampled ten times a second, then 20 s with nobody writing (is
// the file cut back?). Prints the largest and median size and the run in windows. --listings N seeds and uses a
// smaller bench database (data/bench-N.db, N/50 brokers) instead of the million listings.
import { Database } from 'bun:sqlite'
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { steadyState } from './bench-steady'
import { enableStatements, pgVersion, prepareBenchPostgres, resetStatements, SERVE_SETTINGS, startBenchPostgres, topStatements, type RunningCluster } from './bench-pg'
import { BENCH_EMAIL_DOMAIN } from '../db/seed/bench'
import { DEMO_PASSWORD } from '../src/bootstrap'
import { LOCATION_ZONES, SECOND_FACTOR } from '../src/shared/constants'
import { stepAt } from '../src/modules/second-factor/codes'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'

import { argValue as argOf, fmt, loadAverage, median, percentile } from './bench-stats'
import { FLOOR_LABEL, startFloor, type Floor, type FloorKind } from './bench-floors'
import { FRAME_BYTES, MB, mb, walTable } from './bench-wal'
import { walTransactions, walTransactionsSince, WalWatch } from './wal-files'
import { RssWatch } from './bench-memory'
import { watchLockWaits } from './bench-pg-locks'
import { measureStarts, START_RATIO_GOAL } from './bench-start'
import { benchPort } from './bench-port'
import { buildMix as mixOf, day, list, pickMixSubjects, type Params } from './bench-mix'
const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)

const WAL = args.includes('--wal')
const SECONDS = Number(argValue('seconds') ?? (WAL ? 300 : 10))
/** --wal: the writer's listings per second. */
const WAL_RATE = Number(argValue('rate') ?? 120)
if (!(WAL_RATE > 0 && WAL_RATE <= 1000)) fail('--rate: listings per second, from 1 to 1000')
const CONNECTIONS = Number(argValue('connections') ?? 64)
const WORKERS = argValue('workers') ?? (WAL ? '2' : undefined)
const POSTGRES = args.includes('--postgres')
/** --pg-stats: where PostgreSQL's time went (pg_stat_statements' top statements at the end; slow plans in its log). */
const PG_STATS = args.includes('--pg-stats')
if (PG_STATS && !POSTGRES) fail('--pg-stats needs --postgres')
const INSTANCES = Number(argValue('instances') ?? 1)
if (!Number.isInteger(INSTANCES) || INSTANCES < 1 || INSTANCES > 8) fail('--instances: a whole number from 1 to 8')
if (INSTANCES > 1 && !POSTGRES) fail('--instances needs --postgres (instances share a database server; one SQLite file is one machine)')
if (CONNECTIONS % INSTANCES !== 0) fail(`--connections (${CONNECTIONS}) must split evenly over ${INSTANCES} instances`)
if (WAL && POSTGRES) fail('--wal measures SQLite\'s write-ahead log: not with --postgres')
const SCENARIOS = ['floor', 'first-touch', 'broker', 'master', 'broker-writes', 'master-writes', 'insert', 'cold', 'matching', 'start', 'wal'] as const
const only = WAL ? ['wal'] : argValue('only')?.split(',').map((s) => s.trim())
for (const name of only ?? []) if (!(SCENARIOS as readonly string[]).includes(name)) fail(`--only: unknown scenario "${name}" (known: ${SCENARIOS.join(', ')})`)
// The WAL run takes minutes: only when asked for (--wal, or --only wal).
const wanted = (name: (typeof SCENARIOS)[number]) => (only ? only.includes(name) : name !== 'wal')
const MIX_URLS = 600
const FLOOR_ROUNDS = Number(argValue('floor-rounds') ?? 1)
if (!Number.isInteger(FLOOR_ROUNDS) || FLOOR_ROUNDS < 1 || FLOOR_ROUNDS > 9) fail('--floor-rounds: a whole number from 1 to 9')
/** Issue 36: GET /api/health at ≥ 60 % of a bare Elysia app's rate of the same run (request log on, to a file). */
const HEALTH_VS_ELYSIA_GOAL = 0.6
/** Issue 36: p99 ≤ 25 ms in every mix, first touches included. */
const FIRST_TOUCH_P99_GOAL = 25
const WARM_SECONDS = 5
/** The most wrk passes of a warm-up (warm(): repeated until a pass misses under 1 % of the caches' lookups). */
const WARM_PASSES = 6
/** The mixes (by token) whose warm-up ended with the caches still missing: their rows say so. */
const notWarm = new Set<string | undefined>()
const QUICK_WARM = args.includes('--quick-warm')
const COLD_REPS = 40
/** Issue 36: the warm mixes (nobody writing) at ≥ 30 % of the bare `Bun.serve` rate of the same run, both backends. */
const WARM_VS_BUN_GOAL = 0.3
// Issues 15–16's rates and issue 36's tails: p99 ≤ 25 ms in every mix with the writer on, its writes p50 ≤ 10 ms and
// p99 ≤ 50 ms, a single insert ≤ 5 ms.
const SQLITE_GOAL = { readsAlone: 5000, p99Alone: 25, readsWithWrites: 2000, p99WithWrites: 25, writeP50: 10, writeP99: 50, insertMedian: 5, coldP99: 25, inboxP99: 10, announceMs: 1000 }
// PostgreSQL's: issue 16's ≥ 1,500 mixed reads/s with the writer on and every cold listing read ≤ 40 ms p99; issue 36's
// two instances on one database: writer-on p99 ≤ 50 ms, writes p50 ≤ 20 ms and p99 ≤ 100 ms, a single insert ≤ 5 ms;
// the mixes with nobody writing keep issue 36's general p99 ≤ 25 ms (no rate of their own: the ratio above).
const GOAL = POSTGRES ? { ...SQLITE_GOAL, readsAlone: 0, readsWithWrites: 1500, p99WithWrites: 50, writeP50: 20, writeP99: 100, coldP99: 40 } : SQLITE_GOAL
const PASSWORD = DEMO_PASSWORD // every bench user's, the master admin's too (scripts/seed-bench.ts)

function fail(message: string): never {
  console.error(`bench:http: ${message}`)
  process.exit(1)
}
/** A scenario whose answers are mostly errors measures nothing: the run stops, the table so far is printed. */
class Abort extends Error {}

// --- wrk: the load generator (C, event-driven: it keeps 64 connections busy on a fraction of a core).
if (!Bun.which('wrk')) {
  if (process.getuid?.() !== 0) fail('wrk is not installed: sudo apt-get install -y wrk')
  console.log('wrk missing: apt-get install -y wrk')
  if (Bun.spawnSync(['apt-get', 'install', '-y', 'wrk'], { stdout: 'inherit', stderr: 'inherit' }).exitCode !== 0 || !Bun.which('wrk'))
    fail('apt-get install -y wrk failed (apt-get update first?)')
}

// --- The binary (built when missing; a stale one is measured, with a warning, since building is the caller's choice).
const binary = resolve(argValue('binary') ?? join(root, 'dist/brokernet'))
if (!existsSync(binary)) {
  console.log(`building ${binary}...`)
  if (Bun.spawnSync([process.execPath, 'run', 'build'], { cwd: root, stdout: 'inherit', stderr: 'inherit' }).exitCode !== 0) process.exit(1)
}
const newestSource = (dir: string): number =>
  Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)))
const stale = !argValue('binary') && newestSource(join(root, 'src')) > statSync(binary).mtimeMs

// --- The bench database: seeded, or reused as it is when it already has the size (scripts/seed-bench.ts decides).
const LISTINGS = argValue('listings')
const benchDb = resolve(root, argValue('db') ?? (LISTINGS ? `data/bench-${LISTINGS}.db` : 'data/bench.db'))
// A smaller network keeps the full one's proportions: 50 listings per broker.
// --db without --listings: a bench database of any size (the 5,000,000 one of issue 36) is used as it is, never rebuilt.
const seedArgs = ['--out', benchDb, ...(LISTINGS ? ['--listings', LISTINGS, '--brokers', String(Math.max(200, Math.round(Number(LISTINGS) / 50)))] : argValue('db') ? ['--any-size'] : [])]
if (Bun.spawnSync([process.execPath, join(root, 'scripts/seed-bench.ts'), ...seedArgs], { cwd: root, stdout: 'inherit', stderr: 'inherit' }).exitCode !== 0)
  fail(`bun scripts/seed-bench.ts --out ${benchDb} failed`)

// --- Who asks, and about what: picked from the data (read-only, before the server starts), as scripts/bench.ts does.
const pickStart = performance.now()
const ro = new Database(benchDb, { readonly: true })
const one = <T>(sql: string, ...p: (string | number)[]) => ro.query<T, (string | number)[]>(sql).get(...p)!
const all = <T>(sql: string, ...p: (string | number)[]) => ro.query<T, (string | number)[]>(sql).all(...p)
// The mixes' subjects (scripts/bench-mix.ts, shared with bench-cold-kinds); then this benchmark's own.
const subjects = pickMixSubjects(ro, BENCH_EMAIL_DOMAIN)
const { total, bigCity, brokers, typical, common, rare, deciles } = subjects
const busiest = brokers.at(-1)!
const writer = brokers[Math.floor(brokers.length * 0.75)]! // a third broker of the same city: its writes land in the mixes' city
const master = one<{ id: number; email: string }>("SELECT id, email FROM users WHERE role = 'MASTER_ADMIN' ORDER BY id LIMIT 1")
const writerActive = all<{ id: number }>("SELECT id FROM listings WHERE owner_user_id = ? AND status = 'ACTIVE' ORDER BY id DESC LIMIT 60", writer.id).map((r) => r.id)
const busiestNewest = one<{ id: number }>('SELECT max(id) AS id FROM listings WHERE owner_user_id = ?', busiest.id).id
// Matching: a requirement of the city for its matches; the fullest inbox of a broker of the city and that inbox's
// newest entry's listing (edited to make the inbox's answer cold); a fourth broker who receives announcements.
const matchSubject = one<{ id: number }>("SELECT id FROM listings WHERE city_id = ? AND post_type = 'REQ' AND status = 'ACTIVE' AND budget IS NOT NULL ORDER BY id DESC LIMIT 1", bigCity.id)
const inboxOwner = all<{ id: number; email: string; n: number }>(
  `SELECT m.user_id AS id, u.email, count(*) AS n FROM listing_matches m JOIN users u ON u.id = m.user_id
   WHERE u.city_id = ? AND u.role = 'BROKER' AND u.email LIKE ? AND m.live AND m.dismissed_at IS NULL GROUP BY m.user_id ORDER BY n DESC LIMIT 1`,
  bigCity.id,
  `%@${BENCH_EMAIL_DOMAIN}`,
)[0]
const receiver = brokers[Math.floor(brokers.length * 0.25)]!
ro.close()
if (!typical || !writer || writer.id === typical.id || writer.id === busiest.id || writerActive.length < 10) fail('the bench database has too few brokers in its biggest city')
const pickSeconds = (performance.now() - pickStart) / 1000

const today = new Intl.DateTimeFormat('en-CA', { timeZone: process.env.TZ || 'UTC' }).format(new Date()) // the server's calendar (src/shared/dates.ts)

/** A dashboard's requests: 600 distinct list URLs of every kind a user sends, plus /zones and /my now and then. */
const buildMix = (who: 'broker' | 'master', seed: number): string[] => mixOf(subjects, LOCATION_ZONES, who, seed, MIX_URLS).map(([url]) => url)

// =================================================================================================================
// The server, on a fresh copy of the bench database

const workDir = mkdtempSync(join(tmpdir(), 'brokernet-bench-http-'))
/** One binary (its primary and workers) per instance, each on its own port; the first one takes every single request. */
type Instance = { n: number; port: number; base: string; logPath: string; server?: ReturnType<typeof Bun.spawn> }
const firstPort = benchPort(INSTANCES)
const instances: Instance[] = Array.from({ length: INSTANCES }, (_, i) => {
  const port = firstPort + i
  return { n: i + 1, port, base: `http://127.0.0.1:${port}`, logPath: join(workDir, INSTANCES > 1 ? `server-${i + 1}.log` : 'server.log') }
})
const logPath = instances[0]!.logPath
let pg: RunningCluster | undefined
const wrkProcs = new Set<ReturnType<typeof Bun.spawn>>()
/** The bare-runtime floors of this run (scripts/bench-floors.ts), up while the floor pass runs. */
const floors: Floor[] = []
let failed = false // a failed run keeps the server's log (an interrupted one does not)
let interrupted = false
let cleaning: Promise<void> | undefined
/** Stops wrk and the server (SIGTERM, awaited) and removes the copy; idempotent, also run on Ctrl-C. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const w of wrkProcs) w.kill('SIGTERM')
    await Promise.all(floors.splice(0).map((f) => f.stop()))
    await Promise.all(
      instances.map(async ({ server }) => {
        if (!server || server.exitCode !== null) return
        server.kill('SIGTERM')
        const killer = setTimeout(() => server.kill('SIGKILL'), 15_000)
        await server.exited
        clearTimeout(killer)
      }),
    )
    if (pg && PG_STATS)
      try {
        const lines = await topStatements(pg.url)
        writeFileSync(join(workDir, 'pg-statements.log'), lines.join('\n'))
        console.log(`\nPostgreSQL's statements by total time (pg_stat_statements; slow plans in ${join(workDir, 'postgres.log')}):\n${lines.join('\n')}`)
        if (lockWaits.length) console.log(`\nPostgreSQL's lock waits while the writer wrote:\n${lockWaits.join('\n')}`)
        Bun.spawnSync(['cp', join(workDir, 'pg', 'server.log'), join(workDir, 'postgres.log')])
      } catch (e) {
        console.error(`pg_stat_statements: ${(e as Error).message}`)
      }
    try {
      await pg?.stop()
    } catch (e) {
      console.error(`stopping PostgreSQL: ${(e as Error).message}`)
    }
    if (args.includes('--keep')) console.log(`kept ${workDir}`)
    else if (failed) {
      // The database goes (1 to 3 GB), the logs stay for whoever reads the failure (PostgreSQL's too).
      if (pg) Bun.spawnSync(['cp', join(workDir, 'pg', 'server.log'), join(workDir, 'postgres.log')])
      for (const f of readdirSync(workDir)) if (!f.endsWith('.log')) rmSync(join(workDir, f), { recursive: true, force: true })
      console.error(`server log${INSTANCES > 1 ? 's' : ''}: ${instances.map((i) => i.logPath).join(', ')}${pg ? ` (PostgreSQL's: ${join(workDir, 'postgres.log')})` : ''}`)
    } else rmSync(workDir, { recursive: true, force: true })
  })()
  return cleaning
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    interrupted = true
    console.error(`\n${signal}: stopping`)
    void cleanup().then(() => process.exit(130))
  })

let copySeconds = 0
let pgLoad: Awaited<ReturnType<typeof prepareBenchPostgres>> | undefined
if (POSTGRES) {
  // The cached cluster (loaded from the bench database once), then a server on a copy of it for this run.
  try {
    pgLoad = await prepareBenchPostgres(benchDb)
    const started = startBenchPostgres(pgLoad.cacheDir, workDir, { stats: PG_STATS })
    pg = started
    copySeconds = started.copySeconds
    if (PG_STATS) await enableStatements(started.url)
  } catch (e) {
    await cleanup()
    fail(`PostgreSQL: ${(e as Error).message}`)
  }
} else {
  const copyStart = performance.now()
  copyFileSync(benchDb, join(workDir, 'brokernet.db'))
  // A WAL that still holds pages belongs to the database: the copy needs it too.
  if (existsSync(`${benchDb}-wal`) && statSync(`${benchDb}-wal`).size > 0) copyFileSync(`${benchDb}-wal`, join(workDir, 'brokernet.db-wal'))
  copySeconds = (performance.now() - copyStart) / 1000
}
// As a running network holds it: the listings past their end expired, the reminders and digests already due counted as
// sent (scripts/bench-steady.ts).
const steadyStart = performance.now()
const steady = await steadyState(pg ? { postgres: pg.url } : { sqlite: join(workDir, 'brokernet.db') })
const steadySeconds = (performance.now() - steadyStart) / 1000
const base = instances[0]!.base
const loadAtStart = loadAverage()

type Row = { what: string; rate?: number; p50?: number; p99?: number; errors: string; goal: string; met: boolean | null }
const rows: Row[] = []
/** Every server process's resident set (scripts/bench-memory.ts): sampled all along, marked after each part. */
const memory = new RssWatch(() => instances.flatMap((i) => (i.server && i.server.exitCode === null ? [i.server.pid] : [])))
/** GET /api/health's rate in this run (the "vs health" column), and the bare floors' (scripts/bench-floors.ts). */
let floorRate: number | undefined
const bareRate: Partial<Record<FloorKind, number>> = {}

async function startServer(instance: Instance) {
  const fd = openSync(instance.logPath, 'a')
  // On PostgreSQL each instance has a data folder of its own, as on machines of its own (only the database is shared).
  const dataDir = pg && INSTANCES > 1 ? join(workDir, `instance-${instance.n}`) : workDir
  const server = Bun.spawn([binary], {
    env: {
      ...process.env,
      PORT: String(instance.port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      DEMO_DATA: '0',
      ADMIN_PASSWORD: PASSWORD,
      ...(WORKERS ? { WORKERS } : {}),
      ...(pg ? { DATABASE_URL: pg.url } : { DATABASE_URL: '' }),
    },
    stdout: fd,
    stderr: fd,
  })
  instance.server = server
  closeSync(fd)
  for (const deadline = performance.now() + 120_000; (await call('GET', '/api/health', undefined, undefined, instance.base)).status !== 200; await Bun.sleep(50)) {
    if (server.exitCode !== null) throw new Error(`${binary} exited (${server.exitCode}) before answering`)
    if (performance.now() > deadline) throw new Error(`${binary} did not answer /api/health within 120 s`)
  }
}

/**
 * A request of the set-up, sent again while it answers 503 (a copy started later in the day expires the listings past
 * their end in its first minute; on a loaded machine a sign-in can wait out SQLite's busy timeout behind it).
 */
async function settingUp(send: () => Promise<Response>): Promise<Response> {
  for (const deadline = performance.now() + 120_000; ; await Bun.sleep(500)) {
    const res = await send()
    if (res.status !== 503 || performance.now() > deadline) return res
    await res.text()
  }
}

async function login(email: string): Promise<string> {
  const res = await settingUp(() => fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) }))
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${(await res.text()).slice(0, 200)}`)
  const answer = (await res.json()) as { token: string; second_factor_setup?: boolean }
  return answer.second_factor_setup ? enrol(answer.token) : answer.token
}

/**
 * A master admin's first sign-in only opens the setup of a second factor (issue 29): set up here as a script would
 * (the key from the setup's answer, the code computed from it), which answers a full session's token.
 */
async function enrol(token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const setup = await settingUp(() => fetch(`${base}/api/auth/second-factor/setup`, { method: 'POST', headers, body: '{}' }))
  if (setup.status !== 200) throw new Error(`second factor setup answered ${setup.status}: ${(await setup.text()).slice(0, 200)}`)
  const { secret } = (await setup.json()) as { secret: string }
  const code = generateHOTP(decodeBase32IgnorePadding(secret.replace(/\s/g, '')), BigInt(stepAt(Date.now())), SECOND_FACTOR.digits)
  const confirm = await settingUp(() => fetch(`${base}/api/auth/second-factor/confirm`, { method: 'POST', headers, body: JSON.stringify({ code }) }))
  if (confirm.status !== 200) throw new Error(`second factor confirm answered ${confirm.status}: ${(await confirm.text()).slice(0, 200)}`)
  return ((await confirm.json()) as { token: string }).token
}

/** `readAfter`: the feed position a write's answer names (PostgreSQL; docs/decisions/072-read-after-write.md). */
type Answer = { ms: number; status: number; text: string; readAfter?: string }
/**
 * One request, timed to the last byte of the answer: a read on the bench's keep-alive connections, a write on a
 * connection of its own. Bun's fetch hands out a pooled connection without regard to the server's idle close (it
 * ignores `Keep-Alive: timeout=`, checked on 1.4.5) and retries only reads when that connection turns out reset (oven-sh/bun#35817), so
 * on a loaded machine some writes failed with ECONNRESET before reaching the server (helpers' runs, session 43) and
 * aborted the run; a browser sends such a write again itself. A loopback connect adds about 0.1 ms to a write.
 */
async function call(method: string, path: string, token?: string, body?: unknown, to = base, readAfter?: string): Promise<Answer> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (readAfter) headers['x-read-after'] = readAfter
  const t0 = performance.now()
  try {
    const res = await fetch(to + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive: method === 'GET' })
    const text = await res.text()
    return { ms: performance.now() - t0, status: res.status, text, readAfter: res.headers.get('x-read-after') ?? undefined }
  } catch (e) {
    return { ms: performance.now() - t0, status: 0, text: (e as Error).message }
  }
}
const ok = (a: Answer) => a.status >= 200 && a.status < 300

// --- Writes: a broker posting and editing, as the writer scenarios and the cold reads need.
let posts = 0
// The writer's listings are near-copies of each other by design (issue 17's duplicate control would refuse them with
// 409): it confirms them, as a broker does after the warning, and each POST still pays for the check.
const listingBody = (over: Params = {}) => ({
  post_type: 'REQ', sale_or_rent: 'RENT', contact_value: '+91 98200 00000', property_type: '2 BHK Apartment', budget: 45_000, size: 900,
  location: 'North', locality: 'Benchwrite', details: `Written by bench:http, number ${++posts}.`, confirm_duplicate: true, ...over,
})

/**
 * POST 5/s and PATCH 2/s (or other rates), evenly spaced, until stopped; each write's latency, status and the moment it
 * was answered (`end`, performance.now()) recorded. A successful answer's text is not kept (thousands of them in --wal).
 */
function startWriter(token: string, postsPerSecond = 5, patchesPerSecond = 2, maxInFlight = Number.POSITIVE_INFINITY) {
  const records: (Answer & { end: number })[] = []
  // Past maxInFlight unanswered writes, a write's turn passes unsent (counted): a server slower than the rate asked
  // must not pile up minutes of writes that would still be answered after the run.
  let inFlight = 0
  let skipped = 0
  const created: number[] = []
  const jobs: Promise<void>[] = [] // not awaited one by one: a slow write must not delay the next one's start
  let running = true
  const t0 = performance.now()
  const loop = (async () => {
    for (let p = 0, q = 0; running; ) {
      const postAt = (p * 1000) / postsPerSecond
      const patchAt = patchesPerSecond > 0 ? 100 + (q * 1000) / patchesPerSecond : Number.POSITIVE_INFINITY
      const isPost = postAt <= patchAt
      const wait = t0 + Math.min(postAt, patchAt) - performance.now()
      if (wait > 0) await Bun.sleep(wait)
      if (!running) break
      let write: Promise<Answer>
      if (inFlight >= maxInFlight) {
        if (isPost) p++
        else q++
        skipped++
        continue
      }
      inFlight++
      if (isPost) {
        p++
        write = call('POST', '/api/listings/', token, listingBody({ post_type: p % 2 ? 'AVL' : 'REQ', sale_or_rent: p % 3 ? 'SALE' : 'RENT', location: LOCATION_ZONES[p % 6], locality: common[p % common.length], budget: deciles[p % 11] }))
      } else {
        q++
        // Its own new listings once there are some, else its older ones; a price or a text change in turn.
        const id = created.length && q % 2 ? created[q % created.length]! : writerActive[10 + (q % (writerActive.length - 10))]!
        write = call('PATCH', `/api/listings/${id}`, token, q % 2 ? { budget: 1_000_000 + q } : { details: `Edited by bench:http, edit ${q}.` })
      }
      jobs.push(
        write.then((a) => {
          inFlight--
          if (isPost && a.status === 201) created.push((JSON.parse(a.text) as { id: number }).id)
          records.push({ ...a, text: ok(a) ? '' : a.text, end: performance.now() })
        }),
      )
    }
  })()
  const stop = async () => {
    running = false
    await loop
    await Promise.all(jobs)
    return records
  }
  return Object.assign(stop, { skipped: () => skipped })
}
const allWrites: Answer[] = []
/** --pg-stats: the lock waits of each writer-on run (scripts/bench-pg-locks.ts), printed at the end. */
const lockWaits: string[] = []

// --- wrk, driven by a generated Lua script: cycles through the URLs, signs every request, counts non-2xx answers.
/** `first`/`of`: this wrk's first thread and all wrk threads of the run (one wrk per instance). */
function luaScript(paths: string[], token: string | undefined, out: string, first = 0, of = 2) {
  return `local paths = { ${paths.map((p) => JSON.stringify(p)).join(',\n')} }
${token ? `wrk.headers["Authorization"] = "Bearer ${token}"` : ''}
local threads = {}
function setup(thread) thread:set("id", #threads); table.insert(threads, thread) end
-- each thread starts at another point of the cycle, so the threads do not ask the same thing at once
function init(args) i = math.floor((${first} + id) * #paths / ${of}); bad = 0; sample = "" end
function request() i = i % #paths + 1; return wrk.format(nil, paths[i]) end
function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    if sample == "" then sample = status .. " " .. string.sub(body or "", 1, 160) end
  end
end
function done(summary, latency, requests)
  local nb, first = 0, ""
  for _, t in ipairs(threads) do nb = nb + t:get("bad"); if first == "" then first = t:get("sample") end end
  local e = summary.errors
  local f = io.open("${out}", "w")
  f:write(string.format('{"requests":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f,"non2xx":%d,"socket":%d,"timeouts":%d,"sample":"%s"}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000, nb,
    e.connect + e.read + e.write, e.timeout, (string.gsub(first, '[%c"\\\\]', ' '))))
  f:close()
end
`
}
type WrkResult = { requests: number; seconds: number; p50: number; p99: number; non2xx: number; socket: number; timeouts: number; sample: string }
let wrkRuns = 0
/** wrk's threads per instance: two for one instance; with several, one wrk per instance with one thread each. */
const WRK_THREADS = INSTANCES > 1 ? 1 : 2
const wrkCommand = `wrk -t${WRK_THREADS} -c${CONNECTIONS / INSTANCES} -d${SECONDS}s${INSTANCES > 1 ? `, one per instance (${INSTANCES})` : ''}`
/** wrk over the URLs against every instance at once (the connections split evenly): one result per instance. */
async function runWrk(paths: string[], token?: string, seconds = SECONDS, connections = CONNECTIONS, targets: { base: string }[] = instances): Promise<WrkResult[]> {
  const n = ++wrkRuns
  return Promise.all(
    targets.map(async (instance, k) => {
      const script = join(workDir, `mix-${n}-${k + 1}.lua`)
      const out = join(workDir, `result-${n}-${k + 1}.json`)
      writeFileSync(script, luaScript(paths, token, out, k * WRK_THREADS, targets.length * WRK_THREADS))
      // --timeout 10s: wrk's default (2 s) would drop the slowest answers from the percentiles as "timeouts".
      const command = ['wrk', `-t${WRK_THREADS}`, `-c${connections / targets.length}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-s', script, instance.base]
      const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe' })
      wrkProcs.add(proc)
      const [text, errText, code] = await Promise.all([new Response(proc.stdout as ReadableStream).text(), new Response(proc.stderr as ReadableStream).text(), proc.exited])
      wrkProcs.delete(proc)
      if (code !== 0 || !existsSync(out)) throw new Error(`wrk failed (exit ${code}): ${errText}${text}`)
      return JSON.parse(readFileSync(out, 'utf8')) as WrkResult
    }),
  )
}
const errorCell = (bad: number, socket: number, n: number, sample: string) =>
  bad + socket === 0 ? '0' : `**${bad} non-2xx${socket ? `, ${socket} socket errors` : ''} of ${n.toLocaleString('en')}${sample ? ` (first: ${sample.slice(0, 80)})` : ''}**`

/** One throughput scenario: wrk over the URLs (with the writer meanwhile, if given), one row. */
/**
 * One throughput scenario: wrk over the URLs (with the writer meanwhile, if given), one row; with several instances,
 * the row is their sum (rates added; p50 and p99 the worst instance's: percentiles of separate runs do not add up)
 * and a row per instance follows it. `goal` undefined: the floor (no goal).
 */
async function throughput(what: string, paths: string[], token: string | undefined, goal: Goal | undefined, writerToken?: string) {
  const { rate } = await measure(what, paths, token, goal, writerToken)
  return rate
}

/** A mix's goal: a rate, a p99, and (issue 36) a rate as a fraction of the bare `Bun.serve` of this run, when measured. */
type Goal = { reads: number; p99: number; vsBun?: number }

/** throughput()'s measurement: its row is pushed; the rate and the row returned (the floor pass reworks its rows). */
async function measure(what: string, paths: string[], token: string | undefined, goal: Goal | undefined, writerToken?: string, targets?: { base: string }[]) {
  await settle()
  console.log(`  ${what}: ${wrkCommand} over ${new Set(paths).size} URLs${writerToken ? ', writer on' : ''}...`)
  const before = targets ? undefined : await serverCounters()
  const stopWriter = writerToken ? startWriter(writerToken) : undefined
  // --pg-stats: who waited for whom while the writer wrote (scripts/bench-pg-locks.ts), printed at the end.
  const locks = writerToken && PG_STATS && pg ? watchLockWaits(pg.url) : undefined
  const results = await runWrk(paths, token, SECONDS, CONNECTIONS, targets)
  const writes = stopWriter ? await stopWriter() : []
  if (locks) lockWaits.push(`${what}:`, ...(await locks.stop()))
  allWrites.push(...writes)
  const rateOf = (r: WrkResult) => r.requests / r.seconds
  const sum = (f: (r: WrkResult) => number) => results.reduce((s, r) => s + f(r), 0)
  const r: WrkResult = {
    requests: sum((x) => x.requests),
    seconds: Math.max(...results.map((x) => x.seconds)),
    p50: Math.max(...results.map((x) => x.p50)),
    p99: Math.max(...results.map((x) => x.p99)),
    non2xx: sum((x) => x.non2xx),
    socket: sum((x) => x.socket),
    timeouts: sum((x) => x.timeouts),
    sample: results.find((x) => x.sample)?.sample ?? '',
  }
  const rate = sum(rateOf)
  const writeNote = writes.length ? ` (writer: ${writes.length} writes, p99 ${fmt(percentile(writes.map((w) => w.ms), 99))}, ${writes.filter((w) => !ok(w)).length} refused)` : ''
  const errors = r.non2xx + r.socket + r.timeouts
  // The ratio is judged only when this run measured the bare floor (--only without `floor`: the rate and p99 alone).
  const vsBun = goal?.vsBun && bareRate.bun ? goal.vsBun : undefined
  const goalText = goal ? `${goal.reads ? `≥ ${goal.reads.toLocaleString('en')} reads/s, ` : ''}${vsBun ? `≥ ${vsBun.toFixed(2)}× bare Bun, ` : ''}p99 ≤ ${goal.p99} ms` : '(the floor)'
  const met = goal ? rate >= goal.reads && (!vsBun || rate / bareRate.bun! >= vsBun) && r.p99 <= goal.p99 && errors === 0 : null
  const several = results.length > 1 ? `; ${results.length} instances, total (p50, p99: the worst instance's)` : ''
  const cold = notWarm.has(token) && !writerToken ? ' (**not warm**: its warm-up passes still missed over 1 % of cache lookups)' : ''
  const row: Row = { what: what + writeNote + several + cold, rate, p50: r.p50, p99: r.p99, errors: errorCell(r.non2xx, r.socket + r.timeouts, r.requests, r.sample), goal: goalText, met }
  rows.push(row)
  if (!targets) memory.mark(`after ${what.replace(/ \(.*$/, '')}`) // the floors are other processes
  if (results.length > 1)
    for (const [k, x] of results.entries())
      rows.push({ what: `  ↳ instance ${k + 1} (${CONNECTIONS / INSTANCES} connections)`, rate: rateOf(x), p50: x.p50, p99: x.p99, errors: errorCell(x.non2xx, x.socket + x.timeouts, x.requests, x.sample), goal: '', met: null })
  const each = results.length > 1 ? ` (${results.map((x) => Math.round(rateOf(x)).toLocaleString('en')).join(' + ')})` : ''
  console.log(`    ${Math.round(rate).toLocaleString('en')} requests/s${each}, p50 ${fmt(r.p50)}, p99 ${fmt(r.p99)}, ${r.non2xx} non-2xx, ${r.socket + r.timeouts} socket errors`)
  if (before) console.log(`    ${spentDuring(before, await serverCounters())}`)
  if (errors / Math.max(1, r.requests) > 0.01) throw new Abort(`${what}: more than 1% errors (first: ${r.sample})`)
  return { rate, row }
}

/**
 * What the servers' own counters say (/metrics, each instance's processes added up): cache lookups by cache and result,
 * and the database's statements by kind (count and seconds). Printed as what a part spent, to tell where a mix's time
 * went: answers computed again (misses) after the writer's changes, or statements that grew slower.
 */
async function serverCounters(): Promise<Map<string, number>> {
  const counters = new Map<string, number>()
  for (const { base: to } of instances) {
    const text = (await call('GET', '/metrics', undefined, undefined, to)).text
    for (const [, name, labels, value] of text.matchAll(/^(brokernet_cache_lookups_total|brokernet_db_statement_duration_seconds_(?:sum|count))\{([^}]*)\} (\S+)$/gm)) {
      const key = `${name}{${labels}}`
      counters.set(key, (counters.get(key) ?? 0) + Number(value))
    }
  }
  return counters
}

const CACHES = ['counts', 'pages'] as const
const counterDelta = (before: Map<string, number>, after: Map<string, number>) => (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0)

/** One cache's misses and lookups between two readings of serverCounters(). */
function cacheLookups(before: Map<string, number>, after: Map<string, number>, cache: (typeof CACHES)[number]): { missed: number; lookups: number } {
  const delta = counterDelta(before, after)
  const missed = delta(`brokernet_cache_lookups_total{cache="${cache}",result="miss"}`)
  return { missed, lookups: missed + delta(`brokernet_cache_lookups_total{cache="${cache}",result="hit"}`) }
}

/** The pages and counts caches' misses and lookups together (the warm-up's measure). */
function cacheMisses(before: Map<string, number>, after: Map<string, number>): { missed: number; lookups: number } {
  const each = CACHES.map((cache) => cacheLookups(before, after, cache))
  return { missed: each.reduce((n, c) => n + c.missed, 0), lookups: each.reduce((n, c) => n + c.lookups, 0) }
}

function spentDuring(before: Map<string, number>, after: Map<string, number>): string {
  const delta = counterDelta(before, after)
  const caches = CACHES.map((cache) => {
    const { missed, lookups } = cacheLookups(before, after, cache)
    return `${cache} ${missed.toLocaleString('en')} missed of ${lookups.toLocaleString('en')}`
  })
  const statements = ['read', 'write', 'transaction'].map((kind) => {
    const n = delta(`brokernet_db_statement_duration_seconds_count{kind="${kind}"}`)
    const s = delta(`brokernet_db_statement_duration_seconds_sum{kind="${kind}"}`)
    return `${kind} ${n.toLocaleString('en')} (${(s * 1000).toFixed(0)} ms)`
  })
  return `servers: caches ${caches.join(', ')}; statements ${statements.join(', ')}`
}

/**
 * Waits until the server answers /api/health in under 5 ms three times running. When wrk stops, the server still
 * computes what its 64 connections had asked (seconds of it when reads are slow): without this, the next scenario
 * would measure that backlog.
 */
async function settle(): Promise<void> {
  const t0 = performance.now()
  for (const { base: to } of instances)
    for (let quick = 0; quick < 3 && performance.now() - t0 < 60_000; ) quick = (await call('GET', '/api/health', undefined, undefined, to)).ms < 5 ? quick + 1 : 0
  const s = (performance.now() - t0) / 1000
  if (s > 1) console.log(`    (the server took ${s.toFixed(1)} s to finish the previous scenario's requests)`)
}

/**
 * One pass over the URLs before measuring, one at a time: warms the server, stops the run at the first URL it refuses,
 * and names the slowest first answers (where the time goes when a write has dropped them from the caches).
 */
async function warm(paths: string[], token: string) {
  // --quick-warm: only the wrk warm-up below (minutes shorter on a busy machine; for runs that compare writes).
  for (const instance of QUICK_WARM ? [] : instances) {
    const times: [number, string][] = []
    for (const p of new Set(paths)) {
      const a = await call('GET', p, token, undefined, instance.base)
      if (!ok(a)) throw new Abort(`warm-up: GET ${p} answered ${a.status}: ${a.text.slice(0, 200)}`)
      times.push([a.ms, p])
    }
    const sum = times.reduce((s, [ms]) => s + ms, 0)
    const which = INSTANCES > 1 ? ` on instance ${instance.n}` : ''
    console.log(`  warmed ${times.length} URLs one by one${which} in ${(sum / 1000).toFixed(1)} s (mean ${fmt(sum / times.length)}); slowest first answers:`)
    for (const [ms, p] of times.sort((x, y) => y[0] - x[0]).slice(0, 5)) console.log(`    ${fmt(ms)}  ${p}`)
  }
  // One connection reaches one process only: a short unmeasured wrk run warms every process (each has its own caches,
  // docs/decisions/006-processes.md), as a server in service has long been warm when anybody measures it; as long for
  // each process as for one (the server starts one per core unless --workers says otherwise).
  // Repeated until a pass misses under 1 % of its cache lookups (at most WARM_PASSES): where a cold answer costs
  // hundreds of milliseconds (PostgreSQL, several instances), one pass left half the lookups missing, and the row
  // measured as warm was not (README, PostgreSQL, 2026-11-29). A row whose warm-up never got there says so.
  const seconds = WARM_SECONDS * INSTANCES * Number(WORKERS ?? cpus().length)
  for (let pass = 1; ; pass++) {
    const before = await serverCounters()
    await runWrk(paths, token, seconds)
    await settle()
    const { missed, lookups } = cacheMisses(before, await serverCounters())
    const share = missed / Math.max(1, lookups)
    console.log(`    warm-up pass ${pass} (${seconds} s of wrk): caches missed ${missed.toLocaleString('en')} of ${lookups.toLocaleString('en')} lookups (${(share * 100).toFixed(1)} %)`)
    if (share < 0.01) break
    if (pass === WARM_PASSES) {
      notWarm.add(token)
      console.log(`    still ${(share * 100).toFixed(1)} % missed after ${pass} passes: its rows are marked "not warm"`)
      break
    }
  }
  // --pg-stats: the statements of what is measured next, not of the warm-up's first answers.
  if (PG_STATS && pg) await resetStatements(pg.url)
}

// --- Cold reads: a write that changes the answer, then ONE timed read of it, the write's X-Read-After echoed; the answer
// must show the write.
type ColdKind = { what: string; token: string; url: string; write: (n: number) => Promise<Answer>; seen: (text: string, before: string, n: number) => boolean; goal?: number }
async function cold(k: ColdKind) {
  const xs: number[] = []
  let refused = 0
  let staleAnswers = 0
  let before = await call('GET', k.url, k.token)
  if (!ok(before)) throw new Abort(`${k.what}: GET ${k.url} answered ${before.status}: ${before.text.slice(0, 200)}`)
  for (let n = 1; n <= COLD_REPS; n++) {
    const w = await k.write(n)
    if (!ok(w)) throw new Abort(`${k.what}: the write answered ${w.status}: ${w.text.slice(0, 200)}`)
    // The write's position echoed, as an API client does (a browser sends its cookie): on PostgreSQL the process that
    // answers waits until it has heard the write (docs/decisions/072-read-after-write.md).
    const a = await call('GET', k.url, k.token, undefined, base, w.readAfter)
    if (!ok(a)) refused++
    else if (!k.seen(a.text, before.text, n)) staleAnswers++
    xs.push(a.ms)
    before = a
  }
  const p99 = percentile(xs, 99)
  const errors = refused + staleAnswers === 0 ? '0' : `**${refused ? `${refused} non-2xx ` : ''}${staleAnswers ? `${staleAnswers} stale (the write not seen)` : ''}**`
  const goal = k.goal ?? GOAL.coldP99
  rows.push({ what: `cold: ${k.what}`, p50: median(xs), p99, errors, goal: `p99 ≤ ${goal} ms`, met: p99 <= goal && refused + staleAnswers === 0 })
  console.log(`    ${k.what}: p50 ${fmt(median(xs))}, p99 ${fmt(p99)}${staleAnswers ? `, ${staleAnswers} stale` : ''}`)
}
const totalOf = (text: string) => (JSON.parse(text) as { total: number }).total
const totalChanged = (text: string, before: string) => totalOf(text) !== totalOf(before)

// --- The write-ahead log under steady writes (--wal; issue 29, docs/decisions/030-wal.md).
const WAL_GOAL_MB = 64
const PAUSE_SECONDS = 20
/** Writes unanswered at once, at most, in the WAL run (at 120/s: 250 ms each). */
const WAL_IN_FLIGHT = 32
const dbPath = join(workDir, 'brokernet.db')
const walLines: string[] = []
async function walScenario(mixes: Record<'broker' | 'master', string[]>, tokens: Record<'broker' | 'master', string>, writerToken: string) {
  // 1. What one POST adds to the log: each on a server left idle for 3 s (the log is read whole before and after it),
  //    then a second for the announcement written right after the answer.
  const perPost: number[][] = []
  for (let n = 0; n < 6; n++) {
    await Bun.sleep(3000)
    const before = walTransactions(dbPath)
    const a = await call('POST', '/api/listings/', writerToken, listingBody({ post_type: n % 2 ? 'AVL' : 'REQ', locality: common[n % common.length], budget: deciles[n + 2] }))
    if (a.status !== 201) throw new Abort(`WAL: POST answered ${a.status}: ${a.text.slice(0, 200)}`)
    await Bun.sleep(1000)
    perPost.push(walTransactionsSince(before, walTransactions(dbPath)).map((t) => t.length))
  }
  const totals = perPost.map((t) => t.reduce((x, y) => x + y, 0))
  walLines.push(
    `Pages one listing POST adds to the log (idle server, 6 POSTs; each transaction, then the sum): ${perPost.map((t, i) => `${t.join(' + ')} = ${totals[i]}`).join('; ')}; ` +
      `median ${median(totals)} pages, ${mb(median(totals) * FRAME_BYTES)}`,
  )
  console.log(`  ${walLines.at(-1)}`)

  // 2. Both mixes at once, 64 connections each, while the writer posts WAL_RATE listings/s; the log watched (its file's
  //    size and the wal-index, ten times a second).
  for (const who of ['broker', 'master'] as const) await warm(mixes[who], tokens[who])
  await settle()
  console.log(`  WAL: both mixes (wrk -t${WRK_THREADS} -c64 each) for ${SECONDS} s, writer posting ${WAL_RATE}/s (at most ${WAL_IN_FLIGHT} unanswered), the log watched...`)
  const watch = new WalWatch(dbPath).start()
  const t0 = performance.now()
  const stopWriter = startWriter(writerToken, WAL_RATE, 0, WAL_IN_FLIGHT)
  const [broker, master] = await Promise.all([runWrk(mixes.broker, tokens.broker, SECONDS, 64), runWrk(mixes.master, tokens.master, SECONDS, 64)])
  const writes = await stopWriter()
  const loadSeconds = watch.seconds()
  // 3. Nobody writing (nor reading): the file should be cut back.
  await Bun.sleep(PAUSE_SECONDS * 1000)
  watch.take()
  watch.stop()

  const during = watch.between(0, loadSeconds)
  const sizes = during.map((x) => x.bytes)
  const after = watch.samples.at(-1)!.bytes
  const max = Math.max(...sizes)
  const written = during.at(-1)!.written * FRAME_BYTES
  const refused = writes.filter((w) => !ok(w))
  for (const [who, [r]] of [['broker', broker], ['master admin', master]] as const)
    rows.push({ what: `WAL run: ${who} mix (wrk -c64), the other mix and the writer on`, rate: r!.requests / r!.seconds, p50: r!.p50, p99: r!.p99, errors: errorCell(r!.non2xx, r!.socket + r!.timeouts, r!.requests, r!.sample), goal: '', met: null })
  rows.push({
    what: `WAL run: the writer's ${writes.length.toLocaleString('en')} POSTs (${(writes.length / loadSeconds).toFixed(0)}/s of ${WAL_RATE}/s asked; ${stopWriter.skipped().toLocaleString('en')} not sent, ${WAL_IN_FLIGHT} unanswered already)`,
    p50: median(writes.map((w) => w.ms)),
    p99: percentile(writes.map((w) => w.ms), 99),
    errors: refused.length ? `**${refused.length} refused (first: ${refused[0]!.status} ${refused[0]!.text.slice(0, 80)})**` : '0',
    goal: '',
    met: null,
  })
  rows.push({
    what: `WAL file over ${loadSeconds.toFixed(0)} s of writes (${sizes.length} samples): max ${mb(max)}, median ${mb(median(sizes))}; ${mb(written)} written to the log, which started over ${during.at(-1)!.restarts} times`,
    errors: '',
    goal: `max ≤ ${WAL_GOAL_MB} MB`,
    met: max <= WAL_GOAL_MB * MB,
  })
  rows.push({ what: `WAL file ${PAUSE_SECONDS} s after the writes stopped: ${mb(after)}`, errors: '', goal: 'cut back (≤ 4 MB)', met: after <= 4 * MB })
  const timed = writes.map((w) => ({ at: (w.end - t0) / 1000, ms: w.ms, ok: ok(w) }))
  walLines.push(`The log over the run (${SECONDS} s of writes at ${WAL_RATE} POSTs/s asked, then ${PAUSE_SECONDS} s with none):\n\n${walTable(watch, timed, Math.ceil(watch.seconds()))}`)
}

/** The floor pass: the bare floors and GET /api/health, in turn, FLOOR_ROUNDS times; one row each (the median round). */
async function floorPass() {
  const processes = INSTANCES * Number(WORKERS ?? cpus().length)
  for (const kind of ['bun', 'elysia'] as const) floors.push(await startFloor(kind, { root, workDir, processes }))
  // Warm-up: the binary's JIT starts held back (scripts/build-binary.ts); the floors' JIT too.
  await runWrk(['/api/health'], undefined, 2)
  for (const f of floors) await runWrk(['/api/health'], undefined, 2, CONNECTIONS, [f])
  const kinds = [...floors.map((f) => ({ label: `0${f.kind === 'bun' ? 'a' : 'b'}. floor: ${FLOOR_LABEL[f.kind]} (${processes} process${processes > 1 ? 'es' : ''})`, targets: [f], kind: f.kind as FloorKind | 'health' })), { label: '1. Brokernet: GET /api/health (request log on, to a file)', targets: undefined, kind: 'health' as const }]
  const rounds = new Map<string, { rate: number; row: Row }[]>()
  for (let round = 1; round <= FLOOR_ROUNDS; round++)
    for (const k of kinds) {
      const label = FLOOR_ROUNDS > 1 ? `${k.label} [round ${round} of ${FLOOR_ROUNDS}]` : k.label
      const pushed = rows.length
      const m = await measure(label, ['/api/health'], undefined, undefined, undefined, k.targets)
      rows.splice(pushed) // pushed again below: one row per kind (with several instances measure() adds one per instance)
      rounds.set(k.label, [...(rounds.get(k.label) ?? []), m])
    }
  await Promise.all(floors.splice(0).map((f) => f.stop()))
  for (const k of kinds) {
    const ms = rounds.get(k.label)!.sort((a, b) => a.rate - b.rate)
    const mid = ms[(ms.length - 1) >> 1]!
    const all = FLOOR_ROUNDS > 1 ? ` (median of ${FLOOR_ROUNDS} rounds: ${ms.map((m) => Math.round(m.rate).toLocaleString('en')).join(', ')})` : ''
    if (k.kind === 'health') floorRate = mid.rate
    else bareRate[k.kind] = mid.rate
    rows.push({ ...mid.row, what: k.label + all })
  }
  const health = rows.at(-1)!
  if (bareRate.elysia) {
    health.goal = `≥ ${HEALTH_VS_ELYSIA_GOAL.toFixed(2)}× bare Elysia`
    health.met = floorRate! / bareRate.elysia >= HEALTH_VS_ELYSIA_GOAL
  }
}

// =================================================================================================================
// Run

let aborted: string | undefined
const runStart = performance.now()
try {
  console.log(`bench:http: ${total.toLocaleString('en')} listings (subjects picked in ${pickSeconds.toFixed(1)} s); database copied in ${copySeconds.toFixed(1)} s to ${workDir}`)
  console.log(`  steady state: ${steady.reminders.toLocaleString('en')} expiry reminders and ${steady.digests.toLocaleString('en')} match digests already due marked sent, as a running network would have sent them; ${steady.expired.toLocaleString('en')} listings past their end ${pg ? "since the cluster's catch-up " : ''}expired (${steadySeconds.toFixed(1)} s, before the server started)`)
  // Binary start to first answer on this copy, beside a compiled hello-world (issue 36), before the server runs.
  if (wanted('start')) {
    console.log('  binary start to first answer: 7 starts each of the binary and a compiled hello-world, in turn...')
    const env = { ...process.env, DATA_DIR: workDir, NODE_ENV: 'production', DEMO_DATA: '0', ADMIN_PASSWORD: PASSWORD, ...(WORKERS ? { WORKERS } : {}), DATABASE_URL: pg ? pg.url : '' }
    const s = await measureStarts(root, binary, env)
    const ratio = s.binary / s.hello
    rows.push({
      what: `binary start to first answer (existing database of this run; CPU ${s.binaryCpu} ms) vs a hello-world \`Bun.serve\` compiled with the same flags: ${fmt(s.hello)} (CPU ${s.helloCpu} ms); **${ratio.toFixed(1)}×** (medians of ${s.starts}, in turn)`,
      p50: s.binary,
      errors: '0',
      goal: `≤ ${START_RATIO_GOAL}× hello-world`,
      met: ratio <= START_RATIO_GOAL,
    })
    console.log(`    binary ${fmt(s.binary)}, hello-world ${fmt(s.hello)}: ${ratio.toFixed(1)}×`)
  }
  // Instances started together, as a deployment starts them (the first to take the migrations' lock applies them).
  await Promise.all(instances.map(startServer))
  memory.start().mark('started (first /api/health answered)')
  const [brokerToken, masterToken, writerToken, busiestToken] = [await login(typical.email), await login(master.email), await login(writer.email), await login(busiest.email)]
  const mixes = { broker: buildMix('broker', 1), master: buildMix('master', 2) }
  const tokens = { broker: brokerToken, master: masterToken }
  const throughputWanted = SCENARIOS.slice(0, 6).some(wanted)

  // 1. The floors: the cheapest request there is, at the same concurrency (always run with any throughput scenario:
  //    the ratios are to this run's floors). A bare Bun.serve and a bare Elysia app (as many processes as the binary
  //    runs), then Brokernet's GET /api/health; with --floor-rounds N, in turn N times, each row the median round.
  if (throughputWanted) await floorPass()

  // 1b. First touches: each mix with no warm-up at all, before anything else asked any of its URLs (the processes
  //     have only answered /api/health): every URL's first request, and the 63 that queue behind it, count.
  if (wanted('first-touch'))
    for (const who of ['broker', 'master'] as const)
      await throughput(`1b. first touches: ${who === 'broker' ? 'broker' : 'master admin'} mix, no warm-up (each of the ${MIX_URLS} URLs' first request counts)`, mixes[who], tokens[who], { reads: 0, p99: FIRST_TOUCH_P99_GOAL })
  const scenarios = [
    ['broker', 'broker', false, '2. broker mix, nobody writing'],
    ['master', 'master', false, '3. master admin mix, nobody writing'],
    ['broker-writes', 'broker', true, '4. broker mix, writer on'],
    ['master-writes', 'master', true, '5. master admin mix, writer on'],
  ] as const
  const warmed = new Set<string>()
  for (const [name, who, writing, what] of scenarios) {
    if (!wanted(name)) continue
    if (!warmed.has(who)) {
      await warm(mixes[who], tokens[who])
      memory.mark(`after warming the ${who === 'broker' ? 'broker' : 'master admin'} mix`)
    }
    warmed.add(who)
    const label = `${what} (${who === 'broker' ? `broker #${typical.id}, ${typical.n} listings` : 'master admin'}; ${MIX_URLS} list URLs + /zones, /my)`
    await throughput(label, mixes[who], tokens[who], writing ? { reads: GOAL.readsWithWrites, p99: GOAL.p99WithWrites } : { reads: GOAL.readsAlone, p99: GOAL.p99Alone, vsBun: WARM_VS_BUN_GOAL }, writing ? writerToken : undefined)
  }

  // 6. The writes of 4 and 5, and a single insert on an idle server.
  if (allWrites.length) {
    const ms = allWrites.map((w) => w.ms)
    const bad = allWrites.filter((w) => !ok(w))
    const [p50, p99] = [median(ms), percentile(ms, 99)]
    const errors = bad.length ? `**${bad.length} refused (first: ${bad[0]!.status} ${bad[0]!.text.slice(0, 80)})**` : '0'
    const what = `6. writes while the mixes ran (${allWrites.length}: POST 5/s + PATCH 2/s, broker #${writer.id})`
    rows.push({ what, p50, p99, errors, goal: `p50 ≤ ${GOAL.writeP50} ms, p99 ≤ ${GOAL.writeP99} ms`, met: p50 <= GOAL.writeP50 && p99 <= GOAL.writeP99 && !bad.length })
    if (bad.length / allWrites.length > 0.01) throw new Abort(`writes: ${bad.length} of ${allWrites.length} refused (first: ${bad[0]!.status} ${bad[0]!.text.slice(0, 200)})`)
  }
  if (wanted('insert')) {
    await settle()
    console.log('  single insert alone: 50 POSTs, 50 ms apart...')
    const xs: number[] = []
    for (let i = -3; i < 50; i++) {
      const a = await call('POST', '/api/listings/', writerToken, listingBody())
      if (a.status !== 201) throw new Abort(`single insert: POST answered ${a.status}: ${a.text.slice(0, 200)}`)
      if (i >= 0) xs.push(a.ms) // the first three warm the route up (they would time its compilation)
      await Bun.sleep(50)
    }
    rows.push({ what: '6b. single insert alone (POST on an idle server, 50 × 50 ms apart)', p50: median(xs), p99: percentile(xs, 99), errors: '0', goal: `median ≤ ${GOAL.insertMedian} ms`, met: median(xs) <= GOAL.insertMedian })
  }

  // 8. Matching: a listing's matches and the fullest inbox, each read right after a write that changes it; and how
  // long an announcement takes from the writer's POST to an event on the receiver's stream (GET /api/events).
  if (wanted('matching')) {
    await settle()
    console.log(`  matching: ${COLD_REPS} × (a write, then one read) per kind, ${COLD_REPS} announcements...`)
    await cold({
      what: `GET /api/listings/{id}/matches of a requirement of ${bigCity.name} (an availability posted for it), broker`,
      token: brokerToken,
      url: `/api/listings/${matchSubject.id}/matches?per_page=25`,
      write: () => call('GET', `/api/listings/${matchSubject.id}`, writerToken).then((r) => {
        // Its deal, type, budget, size and zone: an availability that matches it whatever its size (at 5M the newest
        // requirement of the city wanted a size far from the body's 900, and no post ever matched it).
        const l = JSON.parse(r.text) as { sale_or_rent: string; property_type: string; budget: number; size: number | null; location: string | null }
        return call('POST', '/api/listings/', writerToken, listingBody({ post_type: 'AVL', sale_or_rent: l.sale_or_rent, property_type: l.property_type, budget: l.budget, size: l.size ?? undefined, location: l.location ?? undefined }))
      }),
      seen: totalChanged,
    })
    if (inboxOwner) {
      const ownerToken = await login(inboxOwner.email)
      // The newest entry's listing as of now: the writer scenarios may have announced newer ones since the start.
      const first = JSON.parse((await call('GET', '/api/matches?per_page=10', ownerToken)).text) as { matches: { listing_id: number }[] }
      const inboxListing = { id: first.matches[0]?.listing_id ?? 0 }
      if (!inboxListing.id) throw new Abort(`the fullest inbox (broker #${inboxOwner.id}) shows no entry`)
      await cold({
        what: `GET /api/matches, the fullest inbox of ${bigCity.name} (${inboxOwner.n.toLocaleString('en')} entries; its newest entry's listing edited)`,
        token: ownerToken,
        url: '/api/matches',
        write: (n) => call('PATCH', `/api/listings/${inboxListing.id}`, ownerToken, { details: `Edited by bench:http, inbox mark ${n}-${n}.` }),
        seen: (text, _b, n) => text.includes(`inbox mark ${n}-${n}.`),
        goal: GOAL.inboxP99,
      })
    }
    // Announcements: the receiver posts an availability of a type nobody else has, the writer a requirement of it.
    const receiverToken = await login(receiver.email)
    const stream = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${receiverToken}` } })
    if (stream.status !== 200 || !stream.body) throw new Abort(`GET /api/events answered ${stream.status}`)
    const reader = stream.body.getReader()
    const decoder = new TextDecoder()
    // Read all along: each `matches` event that announces something is an arrival (a late one is not mistaken for the
    // next post's: each post waits for an arrival after its own start).
    const arrivals: number[] = []
    let heard = null as (() => void) | null
    let streamEnded = false
    void (async () => {
      let buffered = ''
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
        if (done) break
        buffered += decoder.decode(value, { stream: true })
        const events = buffered.split('\n\n')
        buffered = events.pop()!
        for (const e of events) {
          const data = /^event: matches\ndata: (.*)$/m.exec(e)?.[1]
          if (data && (JSON.parse(data) as { new: number[] }).new.length) arrivals.push(performance.now())
        }
        heard?.()
      }
      streamEnded = true
      heard?.()
    })()
    const arrivalAfter = async (t0: number, ms: number): Promise<number> => {
      const deadline = performance.now() + ms
      for (;;) {
        const at = arrivals.find((a) => a >= t0)
        if (at !== undefined) return at
        if (streamEnded) throw new Abort('the event stream ended')
        const left = deadline - performance.now()
        if (left <= 0) return Number.NaN
        await Promise.race([new Promise<void>((resolve) => (heard = resolve)), Bun.sleep(left)])
      }
    }
    const latencies: number[] = []
    const missed: number[] = []
    for (let n = 1; n <= COLD_REPS; n++) {
      const type = `Benchmatch ${Date.now()} ${n}`
      const offered = await call('POST', '/api/listings/', receiverToken, listingBody({ post_type: 'AVL', property_type: type }))
      if (!ok(offered)) throw new Abort(`announcement: the receiver's post answered ${offered.status}: ${offered.text.slice(0, 200)}`)
      const t0 = performance.now()
      const posted = await call('POST', '/api/listings/', writerToken, listingBody({ post_type: 'REQ', property_type: type }))
      if (!ok(posted)) throw new Abort(`announcement: the writer's post answered ${posted.status}: ${posted.text.slice(0, 200)}`)
      const at = await arrivalAfter(t0, 5000)
      if (Number.isNaN(at)) {
        missed.push(n)
        console.log(`    announcement ${n}: no event within 5 s (receiver's listing #${(JSON.parse(offered.text) as { id: number }).id}, writer's #${(JSON.parse(posted.text) as { id: number }).id})`)
        if (missed.length >= 5) throw new Abort(`announcement: ${missed.length} of ${n} posts gave no event within 5 s`)
      } else latencies.push(at - t0)
    }
    void reader.cancel()
    const p99 = percentile(latencies, 99)
    rows.push({
      what: `announcement: writer's POST → \`matches\` event on another broker's stream (${latencies.length})`,
      p50: median(latencies),
      p99,
      errors: missed.length ? `**${missed.length} of ${COLD_REPS} never announced (posts ${missed.join(', ')})**` : '0',
      goal: `≤ ${GOAL.announceMs} ms`,
      met: !missed.length && Math.max(...latencies) <= GOAL.announceMs,
    })
    console.log(`    announcement: p50 ${fmt(median(latencies))}, p99 ${fmt(p99)}, max ${fmt(Math.max(...latencies))}`)
  }

  if (wanted('wal')) await walScenario(mixes, tokens, writerToken)

  // 7. Cold reads: the first read after a write its answer depends on (no cache can have it).
  if (wanted('cold')) {
    await settle()
    console.log(`  cold reads: ${COLD_REPS} × (a write, then one read) per kind...`)
    const post = (over: Params) => () => call('POST', '/api/listings/', writerToken, listingBody(over))
    const mid = (deciles[4]! + deciles[6]!) / 2
    const kinds: [string, string, Params][] = [
      ['page 1, no filter', list({}), {}],
      ['page 2,000, no filter', list({ page: 2000 }), {}],
      [`city ${bigCity.name} + AVL + SALE`, list({ city_id: bigCity.id, post_type: 'AVL', sale_or_rent: 'SALE' }), { post_type: 'AVL', sale_or_rent: 'SALE' }],
      ['zone West + budget 4th–6th decile', list({ location: 'West', min_budget: deciles[4], max_budget: deciles[6] }), { location: 'West', budget: mid }],
      [`search "${common[0]}" (common word)`, list({ search: common[0] }), { locality: common[0] }],
      [`search "${rare[0]}" (rare word)`, list({ search: rare[0] }), { locality: rare[0] }],
      [`search "${common[0]}" + city ${bigCity.name}`, list({ search: common[0], city_id: bigCity.id }), { locality: common[0] }],
      [`date range ${day(today, -30)}..${today}`, list({ date_from: day(today, -30), date_to: today }), {}],
    ]
    for (const [what, url, over] of kinds)
      for (const who of ['broker', 'master'] as const) await cold({ what: `${what}, ${who}`, token: tokens[who], url, write: post(over), seen: totalChanged })
    // Status filters: a listing moved in and out of the status (the broker's by its owner, SUSPENDED by the master).
    const [onHoldId, suspendId] = writerActive
    // An admin suspending another's listing says why (issue 29).
    const toggle = (id: number, token: string, status: string) => (n: number) =>
      call('PATCH', `/api/listings/${id}`, token, n % 2 ? { status, ...(status === 'SUSPENDED' ? { suspension_reason: 'bench:http' } : {}) } : { status: 'ACTIVE' })
    await cold({ what: 'status ON_HOLD (a listing put on hold / back), broker', token: brokerToken, url: list({ status: 'ON_HOLD' }), write: toggle(onHoldId!, writerToken, 'ON_HOLD'), seen: totalChanged })
    await cold({ what: 'status SUSPENDED (a listing suspended / reactivated), master', token: masterToken, url: list({ status: 'SUSPENDED' }), write: toggle(suspendId!, masterToken, 'SUSPENDED'), seen: totalChanged })
    const edit = (n: number) => call('PATCH', `/api/listings/${busiestNewest}`, busiestToken, { details: `Edited by bench:http, mark ${n}-${n}.` })
    const what = `/api/listings/my of the busiest broker (${busiest.n} listings; one edited)`
    await cold({ what, token: busiestToken, url: '/api/listings/my', write: edit, seen: (text, _b, n) => text.includes(`mark ${n}-${n}.`) })
    // PostgreSQL: what the processes did with the positions the reads echoed (docs/decisions/072-read-after-write.md).
    if (POSTGRES) {
      const said: string[] = []
      for (const { base: to, n } of instances) {
        const text = (await call('GET', '/metrics', undefined, undefined, to)).text
        const counts = [...text.matchAll(/^brokernet_read_after_total\{result="(\w+)"\} (\d+)/gm)].map(([, result, value]) => `${result} ${value}`)
        if (counts.length) said.push(`instance ${n}: ${counts.join(', ')}`)
      }
      if (said.length) console.log(`    positions echoed (brokernet_read_after_total, whole run): ${said.join('; ')}`)
    }
  }
} catch (e) {
  failed = !interrupted
  if (!(e instanceof Abort) && !interrupted) {
    console.error(e)
    try {
      console.error(`--- last lines of the server log (${logPath}):\n${readFileSync(logPath, 'utf8').split('\n').slice(-30).join('\n')}`)
    } catch {}
  }
  aborted = (e as Error).message
} finally {
  memory.mark('end of the run')
  memory.stop()
  await cleanup()
}

// =================================================================================================================
// Report

const ratioTo = (r: Row, to: number | undefined) => (r.rate === undefined ? '' : !to ? 'n/a' : `${(r.rate / to).toFixed(2)}×`)
console.log(`\nBrokernet over HTTP (${binary}${stale ? ', OLDER THAN src/: run `bun run build`' : ''})`)
console.log(`  machine: ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}); load average (1/5/15 min) ${loadAtStart} at start, ${loadAverage()} at end`)
if (pgLoad)
  console.log(
    `  data: ${total.toLocaleString('en')} listings on PostgreSQL ${pgVersion()} (loaded from ${benchDb} into ${pgLoad.cacheDir} ${pgLoad.loaded ? 'by this run' : 'earlier'} in ${pgLoad.loadSeconds.toFixed(0)} s; copied for this run in ${copySeconds.toFixed(1)} s); city ${bigCity.name} (${bigCity.n.toLocaleString('en')})`,
  )
else console.log(`  data: ${total.toLocaleString('en')} listings (${benchDb}, ${(statSync(benchDb).size / 1024 / 1024).toFixed(0)} MB, copied in ${copySeconds.toFixed(1)} s); city ${bigCity.name} (${bigCity.n.toLocaleString('en')})`)
if (pg) console.log(`  database: one PostgreSQL server on the same machine, over a Unix socket; ${Object.entries(SERVE_SETTINGS).map(([k, v]) => `${k}=${v}`).join(', ')}`)
console.log(
  `  server: ${INSTANCES > 1 ? `${INSTANCES} instances of the binary, each ` : ''}WORKERS=${WORKERS ?? 'unset (the server default)'}; ${wrkCommand} --timeout 10s, on the same machine (it shares the cores)`,
)
console.log(`  subjects: broker #${typical.id} (${typical.n} listings, median of the city's), busiest #${busiest.id} (${busiest.n}), writer #${writer.id}; words ${common[0]} (common), ${rare[0]} (rare)`)
if (rows.length)
  console.log('\n| Scenario | Reads/s | p50 | p99 | vs bare Bun | vs bare Elysia | vs health | Errors (non-2xx) | Goal | Met |\n|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  const met = r.met === null ? 'n/a' : r.met ? 'met' : '**missed**'
  const rate = r.rate === undefined ? '' : Math.round(r.rate).toLocaleString('en')
  const ratios = [ratioTo(r, bareRate.bun), ratioTo(r, bareRate.elysia), ratioTo(r, floorRate)].join(' | ')
  console.log(`| ${r.what} | ${rate} | ${r.p50 === undefined ? '' : fmt(r.p50)} | ${r.p99 === undefined ? '' : fmt(r.p99)} | ${ratios} | ${r.errors} | ${r.goal} | ${met} |`)
}
for (const line of walLines) console.log(`\n${line}`)
if (memory.table().length) console.log(`\n${memory.table().join('\n')}`)
const judged = rows.filter((r) => r.met !== null)
console.log(`\n${judged.filter((r) => !r.met).length} of ${judged.length} goals missed. Time ${((performance.now() - runStart) / 1000).toFixed(0)} s.`)
if (aborted) {
  console.error(`\nABORTED: ${aborted}`)
  process.exit(1)
}
