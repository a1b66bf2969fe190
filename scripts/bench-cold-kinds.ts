// `bun scripts/bench-cold-kinds.ts`: what each kind of dashboard URL costs on its first touch (issue 36), in process.
// bench:http's first-touch pass tells the tail (p99 of 64 connections queued behind the cold reads); this tells which
// URLs make it. The same two mixes as bench:http (the same generator and seeds: the same 600 URLs each), asked one at a
// time through app.handle on a fresh copy of the bench database, in the mix's order, with the caches as the first-touch
// pass has them (a URL's first request may find its filter's total kept by an earlier page of the same filter). Each
// request's time is the time it holds the event loop; per kind: how many, p50, p90, max and the sum.
//
//   bun scripts/bench-cold-kinds.ts [--db data/bench.db] [--who broker,master] [--fresh]
//   bun scripts/bench-cold-kinds.ts --compare <checkout A> <checkout B> [--rounds 3] [--db …]
//   bun scripts/bench-cold-kinds.ts --postgres [--again] [--pg-stats] …   (the same on PostgreSQL)
//
// --fresh: every request on empty caches (each URL's full cold cost). --again: each mix twice (see `passes`). --compare: A and B (two checkouts of this
// project, each with its node_modules) in turn, --rounds times each (A B A B …), every run in a process of its own on
// a copy of its own (each checkout's migrations applied to it); prints each run's table and the ratios B ÷ A of the
// kinds' sums (medians over the rounds).
//
// --postgres: the app on a copy of the bench's PostgreSQL cluster, as bench:http --postgres serves it: a server started
// on the copy, so its buffers are as cold as a first-touch pass finds them. The cluster is each checkout's own
// data/bench-pg, built and migrated by that checkout's scripts/bench-pg.ts (the first build about 2 minutes on a quiet
// machine; a new migration is applied to it once): with --compare, A's copy has none of B's indexes. PostgreSQL does the
// work there, in processes of its own: their CPU is printed beside this process's, and the ratios add both.
// --pg-stats: the server's top statements (pg_stat_statements) after each mix, and the plans of those over 20 ms in its
// log (auto_explain), kept as /tmp/bench-cold-kinds-postgres.log.
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argValue as argOf, median, percentile } from './bench-stats'
import { buildMix as mixOf, pickMixSubjects } from './bench-mix'

const args = process.argv.slice(2)
const argValue = (name: string) => argOf(args, name)
const self = new URL(import.meta.url).pathname
// The bench database of bench:http's default (scripts/seed-bench.ts makes it).
const benchDb = resolve(argValue('db') ?? join(self, '../../data/bench.db'))

type KindStat = { kind: string; n: number; p50: number; p90: number; max: number; sum: number; cpu: number; pgCpu?: number }
type RunResult = { who: string; kinds: KindStat[]; total: number }

const POSTGRES = args.includes('--postgres')
const PG_STATS = args.includes('--pg-stats')

if (args.includes('--compare')) {
  const i = args.indexOf('--compare')
  const [a, b] = [resolve(args[i + 1]!), resolve(args[i + 2]!)]
  const rounds = Number(argValue('rounds') ?? 3)
  const pass = args.filter((x, j) => j !== i && j !== i + 1 && j !== i + 2 && x !== '--rounds' && args[j - 1] !== '--rounds')
  const results: Record<'A' | 'B', RunResult[][]> = { A: [], B: [] }
  for (let r = 0; r < rounds; r++)
    for (const [label, root] of [['A', a], ['B', b]] as const) {
      const p = Bun.spawnSync([process.execPath, self, '--root', root, '--json', ...pass], { stdout: 'pipe', stderr: 'inherit' })
      if (p.exitCode !== 0) process.exit(1)
      const out = p.stdout.toString()
      const json = out.slice(out.lastIndexOf('\n{') + 1)
      console.log(`round ${r + 1} ${label} (${root}):\n${out.slice(0, out.lastIndexOf('\n{'))}`)
      results[label].push(JSON.parse(json).runs)
    }
  console.log(`\nB ÷ A, per kind: the first touches' CPU${POSTGRES ? ' (this process and PostgreSQL\'s)' : ''} and wall time, summed (medians over the rounds):`)
  for (const [w, run] of results.A[0]!.entries()) {
    console.log(`  ${run.who}:`)
    const sums = (label: 'A' | 'B', kind: string) => median(results[label].map((rs) => rs[w]!.kinds.find((k) => k.kind === kind)?.sum ?? 0))
    const p90s = (label: 'A' | 'B', kind: string) => median(results[label].map((rs) => rs[w]!.kinds.find((k) => k.kind === kind)?.p90 ?? 0))
    const cpuOfKind = (k: KindStat | undefined) => (k ? k.cpu + (k.pgCpu ?? 0) : 0)
    const cpus = (label: 'A' | 'B', kind: string) => median(results[label].map((rs) => cpuOfKind(rs[w]!.kinds.find((k) => k.kind === kind))))
    for (const k of run.kinds) {
      const [sa, sb, ca, cb] = [sums('A', k.kind), sums('B', k.kind), cpus('A', k.kind), cpus('B', k.kind)]
      console.log(
        `    ${k.kind.padEnd(22)} CPU ${ca.toFixed(0).padStart(5)} → ${cb.toFixed(0).padStart(5)} ms (${(cb / ca).toFixed(2)}×)   wall ${sa.toFixed(0).padStart(6)} → ${sb.toFixed(0).padStart(6)} ms (${(sb / sa).toFixed(2)}×)   p90 ${p90s('A', k.kind).toFixed(1)} → ${p90s('B', k.kind).toFixed(1)} ms`,
      )
    }
    const all = (label: 'A' | 'B', of: (r: RunResult) => number) => median(results[label].map((rs) => of(rs[w]!)))
    const cpuOf = (r: RunResult) => r.kinds.reduce((s, k) => s + cpuOfKind(k), 0)
    const [ta, tb, ca, cb] = [all('A', (r) => r.total), all('B', (r) => r.total), all('A', cpuOf), all('B', cpuOf)]
    console.log(`    ${'all'.padEnd(22)} CPU ${ca.toFixed(0).padStart(5)} → ${cb.toFixed(0).padStart(5)} ms (${(cb / ca).toFixed(2)}×)   wall ${ta.toFixed(0).padStart(6)} → ${tb.toFixed(0).padStart(6)} ms (${(tb / ta).toFixed(2)}×)`)
  }
  process.exit(0)
}

// --- One run, importing the app of --root (this checkout by default).
const root = resolve(argValue('root') ?? join(self, '../..'))
const fresh = args.includes('--fresh')
const who = (argValue('who') ?? 'broker,master').split(',') as ('broker' | 'master')[]
const { LOCATION_ZONES } = await import(join(root, 'src/shared/constants'))
const { BENCH_EMAIL_DOMAIN } = await import(join(root, 'db/seed/bench'))

// The picks and mixes of scripts/bench-http.ts (scripts/bench-mix.ts), for the same URLs.
const ro = new Database(benchDb, { readonly: true })
const picked = pickMixSubjects(ro, BENCH_EMAIL_DOMAIN)
const typical = picked.typical!
const master = ro.query<{ id: number }, []>("SELECT id FROM users WHERE role = 'MASTER_ADMIN' ORDER BY id LIMIT 1").get()!
ro.close()
/** bench-http.ts's mix, each URL with the name of its kind. */
const buildMix = (w: 'broker' | 'master', seed: number): [string, string][] => mixOf(picked, LOCATION_ZONES, w, seed, 600)

// --- The app of --root on a fresh copy of the bench database (or of the bench's PostgreSQL cluster).
const workDir = mkdtempSync(join(tmpdir(), 'brokernet-cold-kinds-'))
// The checkout's own loader and cluster (see --postgres above); the statements' helpers are this script's.
const { prepareBenchPostgres, startBenchPostgres } = await import(join(root, 'scripts/bench-pg'))
const { topStatements, enableStatements, resetStatements } = await import('./bench-pg')
if (POSTGRES) await prepareBenchPostgres(benchDb, join(root, 'data/bench-pg'), { log: (line: string) => console.error(line) })
const cluster = POSTGRES ? startBenchPostgres(join(root, 'data/bench-pg'), workDir, { stats: PG_STATS, explainOver: '20ms' }) : null
if (!POSTGRES) copyFileSync(benchDb, join(workDir, 'brokernet.db'))
// --cached: the copy read once before the server opens it, so its pages are in the OS's cache (a copy is not always:
// a file system may share the blocks), to tell the disk's part from the CPU's.
if (args.includes('--cached')) Bun.spawnSync(['sh', '-c', `cat ${POSTGRES ? `$(find ${join(workDir, 'pg', 'data', 'base')} -type f)` : join(workDir, 'brokernet.db')} > /dev/null`])
const { openDatabase, closeDatabase } = await import(join(root, 'db/client'))
const { openDataSource } = await import(join(root, 'db/open'))
const { createApp } = await import(join(root, 'src/app'))
const { loadConfig } = await import(join(root, 'src/platform/config'))
const { createContext } = await import(join(root, 'src/platform/context'))
const { createSession } = await import(join(root, 'src/platform/sessions'))
const { dataLayer } = await import(join(root, 'tests/support/fixtures'))
const config = loadConfig({ DATA_DIR: workDir, NODE_ENV: 'production', DEMO_DATA: '0', LOG_LEVEL: 'warn', ...(cluster ? { DATABASE_URL: cluster.url } : {}) })
if (cluster && PG_STATS) await enableStatements(cluster.url)
const migrateStart = performance.now()
const source = cluster ? await openDataSource(config) : null
const db = cluster ? null : openDatabase(config.databasePath)
const migrateMs = performance.now() - migrateStart
const ctx = createContext(source ?? db, config)

/**
 * The CPU PostgreSQL's processes have used so far (ms): the postmaster's children (backends, writers), read from /proc.
 * Their list is read again each time: the pool opens connections as it needs them.
 */
const postmaster = cluster ? Number(readFileSync(join(cluster.data, 'postmaster.pid'), 'utf8').split('\n')[0]) : 0
const ticks = 1000 / Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100)
function pgCpuMs(): number {
  if (!cluster) return 0
  let ms = 0
  for (const pid of readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ms += (Number(fields[11]) + Number(fields[12])) * ticks // utime, stime (fields 14 and 15 of stat)
    } catch {} // a process that ended meanwhile
  }
  return ms
}

// --statements KIND: the statements that kind's first touches ran, by total time (each statement's text, parameters aside).
const traced = argValue('statements')
const statementMs = new Map<string, { n: number; ms: number }>()
let tracing = false
if (traced)
  for (const m of ['all', 'get'] as const) {
    const orig = ctx.db[m].bind(ctx.db)
    ;(ctx.db as unknown as Record<string, unknown>)[m] = async (sql: string, params?: unknown[]) => {
      const t0 = performance.now()
      try {
        return await orig(sql, params as never)
      } finally {
        if (tracing) {
          const key = sql.replace(/\s+/g, ' ').slice(0, 400)
          const e = statementMs.get(key) ?? { n: 0, ms: 0 }
          e.n++
          e.ms += performance.now() - t0
          statementMs.set(key, e)
        }
      }
    }
  }
const app = createApp(ctx)
const token = async (id: number) => (await createSession(db ? dataLayer(db) : ctx.db, id)).token as string
const subjects = { broker: { id: typical.id, seed: 1 }, master: { id: master.id, seed: 2 } }
const runs: RunResult[] = []
const pgTop: string[] = []
// --again: each mix a second time, the app's caches emptied first: every answer computed again, on a database whose
// own caches (PostgreSQL's buffers, SQLite's page cache) now hold what the first pass read. What a write's
// invalidations cost, apart from the database's cold start.
const passes = args.includes('--again') ? (['', ' again'] as const) : ([''] as const)
try {
  for (const w of who)
    for (const again of passes) {
      if (again) {
        ctx.counts.clear()
        ctx.pages.clear()
      }
      const headers = { authorization: `Bearer ${await token(subjects[w].id)}` }
      if (cluster && PG_STATS) await resetStatements(cluster.url)
      const times = new Map<string, number[]>()
      const cpu = new Map<string, number>()
      const pgCpu = new Map<string, number>()
      for (const [url, kind] of buildMix(w, subjects[w].seed)) {
        if (fresh) {
          ctx.counts.clear()
          ctx.pages.clear()
        }
        tracing = kind === traced
        const p0 = pgCpuMs()
        const c0 = process.cpuUsage()
        const t0 = performance.now()
        const res = await app.handle(new Request(`http://localhost${url}`, { headers }))
        await res.arrayBuffer()
        const ms = performance.now() - t0
        const c = process.cpuUsage(c0)
        cpu.set(kind, (cpu.get(kind) ?? 0) + (c.user + c.system) / 1000)
        if (cluster) pgCpu.set(kind, (pgCpu.get(kind) ?? 0) + pgCpuMs() - p0)
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
        times.set(kind, [...(times.get(kind) ?? []), ms])
      }
      const kinds = [...times]
        .map(([kind, xs]) => ({ kind, n: xs.length, p50: median(xs), p90: percentile(xs, 90), max: Math.max(...xs), sum: xs.reduce((a, b) => a + b, 0), cpu: cpu.get(kind)!, ...(cluster ? { pgCpu: pgCpu.get(kind)! } : {}) }))
        .sort((a, b) => b.sum - a.sum)
      runs.push({ who: `${w}${again}`, kinds, total: kinds.reduce((s, k) => s + k.sum, 0) })
      if (cluster && PG_STATS) pgTop.push(`${w}${again} mix, PostgreSQL's statements by total time:`, ...(await topStatements(cluster.url, 15)))
    }
} finally {
  await ctx.features.stop()
  if (source) await source.close()
  if (db) closeDatabase(db, { checkpoint: false })
  if (cluster) {
    await cluster.stop()
    if (PG_STATS) Bun.spawnSync(['cp', join(workDir, 'pg', 'server.log'), '/tmp/bench-cold-kinds-postgres.log'])
  }
  rmSync(workDir, { recursive: true, force: true })
}
console.log(`${root}: migrations ${migrateMs.toFixed(0)} ms${fresh ? ', every request on empty caches' : ''}${cluster ? ', on PostgreSQL' : ''}`)
for (const r of runs) {
  console.log(`${r.who} mix, first touches one at a time: ${r.total.toFixed(0)} ms in all`)
  console.log(`  kind                      n     p50     p90     max     sum   (CPU)${cluster ? ' (PG CPU)' : ''} (ms)`)
  for (const k of r.kinds)
    console.log(
      `  ${k.kind.padEnd(22)} ${String(k.n).padStart(4)} ${k.p50.toFixed(1).padStart(7)} ${k.p90.toFixed(1).padStart(7)} ${k.max.toFixed(1).padStart(7)} ${k.sum.toFixed(0).padStart(7)} ${k.cpu.toFixed(0).padStart(7)}${k.pgCpu === undefined ? '' : k.pgCpu.toFixed(0).padStart(9)}`,
    )
}
if (traced)
  for (const [sql, e] of [...statementMs].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`${e.ms.toFixed(0).padStart(6)} ms ${String(e.n).padStart(4)}×  ${sql}`)
if (pgTop.length) console.log(`${pgTop.join('\n')}\n(plans over 20 ms: /tmp/bench-cold-kinds-postgres.log)`)
if (args.includes('--json')) console.log(`\n${JSON.stringify({ runs })}`)
process.exit(0)
