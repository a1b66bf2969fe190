// The bench's million listings on PostgreSQL (issue 16), for `bun run bench:http --postgres`.
//
//   bun scripts/bench-pg.ts [--db data/bench.db] [--rebuild]     builds (or checks) the cached cluster and says so
//
// The first load takes under 2 minutes on the 2-core development machine (COPY of the million listings 6 s, the
// backfill 60 s, the indexes 25 s), 2.0 GB of data and 1.1 GB of WAL; a run after that copies the folder in 2 to 6 s.
//
// data/bench.db (SQLite, opened read-only) is copied into a PostgreSQL cluster kept in data/bench-pg/ (ignored by git
// with the rest of data/): the schema, triggers and functions come from the app's own migrations (migratePostgres);
// the base tables are bulk-loaded with COPY with every trigger off (session_replication_role = replica) and their
// secondary indexes dropped; then the derived data is computed by the migrations' own backfill statements
// (db/pg/backfill.ts: kept counts, the inbox's live flags, search vectors), the indexes are built again, and the
// tables are vacuumed and analysed. The folder is reused while it is newer than bench.db and was loaded by this
// loader's version; migrations added since are applied to it in place. Each benchmark run serves a copy of it (its
// writes never reach the cache), in a temporary folder, on a Unix socket only.
import { Database } from 'bun:sqlite'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join, resolve } from 'node:path'
import { once } from 'node:events'
import type postgres from 'postgres'
import { backfillStatements } from '../db/pg/backfill'
import { migratePostgres } from '../db/pg/migrate'
import { migrationJournal } from '../db/pg/migrations'
import { connectPostgres } from '../db/postgres'
import { postgresBin } from '../tests/support/postgres'

const root = new URL('..', import.meta.url).pathname
/** Bumped when the loading changes what the cache holds: an older cache is rebuilt. */
const LOADER_VERSION = 2
/** The base tables, parents first; the rest are derived (backfilled), the app's own (sessions, outbox) or empty. */
const TABLES = ['countries', 'states', 'cities', 'users', 'listings', 'listing_matches', 'match_digests', 'match_queue'] as const
const DATABASE = 'brokernet'

/**
 * The settings a benchmark run's server gets: a dedicated database server of a small machine, durable as SQLite's
 * WAL with synchronous = NORMAL is (a commit survives a crash of the server, not of the machine: synchronous_commit
 * off). shared_buffers holds the whole database (2 GB of tables and indexes); JIT is off, as for any OLTP load (it compiles a
 * plan's expressions when its estimated cost is high, tens of milliseconds that a 2 ms query never earns back).
 */
export const SERVE_SETTINGS = {
  max_connections: 300,
  shared_buffers: '3GB',
  effective_cache_size: '12GB',
  work_mem: '16MB',
  synchronous_commit: 'off',
  random_page_cost: 1.1,
  jit: 'off',
}
/** Loading: nothing is kept if it fails, so nothing needs to be durable meanwhile. */
const LOAD_SETTINGS = {
  ...SERVE_SETTINGS,
  fsync: 'off',
  full_page_writes: 'off',
  autovacuum: 'off',
  maintenance_work_mem: '2GB',
  max_wal_size: '1GB', // more checkpoints (cheap without fsync), and a WAL folder of about 1 GB to copy per run
  checkpoint_timeout: '1h',
  max_parallel_maintenance_workers: 2,
}

const asRoot = userInfo().uid === 0
const postgresIds = () => ({ uid: Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()), gid: Number(Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()) })
/** initdb and the server refuse to run as root: as root, they run as the `postgres` user, which owns their folders. */
function own(path: string) {
  if (!asRoot) return
  const { uid, gid } = postgresIds()
  chownSync(path, uid, gid)
}
function run(args: string[]): void {
  const command = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args
  const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${args[0]} failed (${result.exitCode}): ${result.stderr.toString()}${result.stdout.toString()}`)
}
function bin(): string {
  const b = postgresBin()
  if (!b) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql')
  return b
}
/** The server's version, as `postgres --version` gives it ("15.14 (Debian 15.14-0+deb12u1)"). */
export const pgVersion = () => Bun.spawnSync([join(bin(), 'postgres'), '--version']).stdout.toString().trim().replace(/^postgres \(PostgreSQL\) /, '')
const options = (socketDir: string, settings: Record<string, string | number>) =>
  [`-k ${socketDir}`, "-c listen_addresses=''", ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ')

export type RunningCluster = { url: string; socketDir: string; data: string; stop: () => Promise<void> }

/** Starts a server on an existing data folder, on a Unix socket in `socketDir` only; `stop` shuts it down cleanly. */
function startOn(data: string, socketDir: string, settings: Record<string, string | number>, logFile: string): RunningCluster {
  run([join(bin(), 'pg_ctl'), '-D', data, '-o', options(socketDir, settings), '-l', logFile, '-w', '-t', '300', 'start'])
  const stop = () => {
    if (!running.delete(stop)) return
    run([join(bin(), 'pg_ctl'), '-D', data, '-m', 'fast', '-w', '-t', '300', 'stop'])
  }
  running.add(stop)
  return { url: `postgres://postgres@localhost/${DATABASE}?host=${socketDir}`, socketDir, data, stop: async () => stop() }
}
/** Servers started here and not stopped yet: stopped when this process exits, however it ends (Ctrl-C included). */
const running = new Set<() => void>()
process.on('exit', () => {
  for (const stop of running) {
    try {
      stop()
    } catch {}
  }
})

type Stamp = {
  loader: number
  benchDb: { size: number; mtimeMs: number }
  migrations: string[]
  loadSeconds: number
  counts: Record<string, number>
  /** The moment the cluster's listings past their end were last expired (`catchUpExpiry`); absent: never. */
  expiredThrough?: number
}
const migrationTags = () => migrationJournal.entries.map((e) => e.tag)

function readStamp(cacheDir: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'stamp.json'), 'utf8')) as Stamp
  } catch {
    return null
  }
}

/**
 * The cached cluster for `benchDb`, built when missing or out of date (about 4 minutes here), migrated in place when
 * the app has migrations it lacks. Returns its folder and what the load took.
 */
export async function prepareBenchPostgres(benchDb: string, cacheDir = join(root, 'data/bench-pg'), { rebuild = false, log = console.log } = {}) {
  const source = statSync(benchDb)
  const stamp = rebuild ? null : readStamp(cacheDir)
  const valid = stamp && stamp.loader === LOADER_VERSION && stamp.benchDb.size === source.size && stamp.benchDb.mtimeMs === source.mtimeMs && existsSync(join(cacheDir, 'data', 'PG_VERSION'))
  if (valid) {
    const missing = migrationTags().filter((t) => !stamp.migrations.includes(t))
    if (missing.length) {
      log(`bench-pg: applying ${missing.join(', ')} to the cached cluster (${cacheDir})...`)
      const t0 = performance.now()
      await withCluster(join(cacheDir, 'data'), LOAD_SETTINGS, async (url) => {
        const sql = connectPostgres(url)
        try {
          await migratePostgres(sql)
          await sql.unsafe('vacuum analyze')
        } finally {
          await sql.end()
        }
      })
      writeFileSync(join(cacheDir, 'stamp.json'), JSON.stringify({ ...stamp, migrations: migrationTags() }, null, 2))
      log(`bench-pg: migrated in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    }
    await catchUpExpiry(cacheDir, benchDb, log)
    return { cacheDir, loaded: false, loadSeconds: stamp.loadSeconds, counts: stamp.counts }
  }
  const building = `${cacheDir}.building`
  rmSync(building, { recursive: true, force: true })
  mkdirSync(building, { recursive: true })
  own(building)
  const data = join(building, 'data')
  log(`bench-pg: loading ${benchDb} into a new PostgreSQL cluster (${cacheDir}); this takes minutes, once...`)
  const t0 = performance.now()
  run([join(bin(), 'initdb'), '-D', data, '-A', 'trust', '--no-sync', '-U', 'postgres', '-E', 'UTF8', '--locale=C'])
  const counts = await withCluster(data, LOAD_SETTINGS, async (url) => {
    const admin = connectPostgres(url.replace(`/${DATABASE}?`, '/postgres?'), { max: 1 })
    await admin.unsafe(`create database ${DATABASE}`)
    await admin.end()
    return load(benchDb, url, log)
  })
  const loadSeconds = (performance.now() - t0) / 1000
  writeFileSync(join(building, 'stamp.json'), JSON.stringify({ loader: LOADER_VERSION, benchDb: { size: source.size, mtimeMs: source.mtimeMs }, migrations: migrationTags(), loadSeconds, counts } satisfies Stamp, null, 2))
  Bun.spawnSync(['sync'])
  rmSync(cacheDir, { recursive: true, force: true })
  renameSync(building, cacheDir)
  log(`bench-pg: loaded in ${loadSeconds.toFixed(0)} s`)
  await catchUpExpiry(cacheDir, benchDb, log)
  return { cacheDir, loaded: true, loadSeconds, counts }
}

/** The expiry's statement (src/modules/listings/store/expiry.ts) for every listing past its end at $1, at once. */
export const EXPIRE_ALL_DUE = "update listings set status = 'EXPIRED', updated_at = $1 where status in ('ACTIVE', 'ON_HOLD') and expires_at <= $1"

/**
 * The cached cluster as a running network holds it (issue 36): every listing past its end EXPIRED, as the servers'
 * timers would have set it at its moment. The bench database was seeded once, and its listings' ends keep passing (about
 * 1,500 an hour on the million: 12,405 eight hours after the seed); at a run's start every process's expiry timer
 * found them all due at once and spent the first minutes expiring them, each expiry a change that empties the cached
 * pages it touches, so "warm" mixes measured that sweep. Expired here, in place and through the triggers (kept counts,
 * id blocks, search tags, the matches' live flags), once for the time that passed since the last catch-up; a run's
 * copy then holds only what came due since (scripts/bench-steady.ts expires those too). The first catch-up of a
 * cluster takes minutes (12,405 listings: about 10 ms each on a quiet machine, all the triggers of a status change).
 */
async function catchUpExpiry(cacheDir: string, benchDb: string, log: (line: string) => void): Promise<void> {
  const stamp = readStamp(cacheDir)
  if (!stamp) return
  const now = Date.now()
  const lite = new Database(benchDb, { readonly: true })
  const due = lite
    .query<{ n: number }, [number, number]>("select count(*) as n from listings where status in ('ACTIVE', 'ON_HOLD') and expires_at > ?1 and expires_at <= ?2")
    .get(stamp.expiredThrough ?? 0, now)!.n
  lite.close()
  if (due > 0) {
    log(`bench-pg: expiring the listings past their end since the last run (${due.toLocaleString('en')}) in the cached cluster, as a running network would have...`)
    const t0 = performance.now()
    const expired = await withCluster(join(cacheDir, 'data'), LOAD_SETTINGS, async (url) => {
      const sql = connectPostgres(url, { max: 1 })
      try {
        const n = (await sql.unsafe(EXPIRE_ALL_DUE, [now])).count
        // The updates cleared the visibility map of every page they touched (the cluster runs without autovacuum):
        // until a vacuum, index-only scans read the table as well (11,625 heap fetches to find one row of the expiry
        // index after 11,624 expiries), and two instances' cold reads took seconds (2026-11-29).
        await sql.unsafe('vacuum analyze')
        return n
      } finally {
        await sql.end()
      }
    })
    log(`bench-pg: ${expired.toLocaleString('en')} expired in ${seconds(t0)}`)
  }
  writeFileSync(join(cacheDir, 'stamp.json'), JSON.stringify({ ...stamp, expiredThrough: now } satisfies Stamp, null, 2))
}

async function withCluster<T>(data: string, settings: Record<string, string | number>, work: (url: string) => Promise<T>): Promise<T> {
  const socketDir = mkdtempSync(join(tmpdir(), 'brokernet-bench-pg-'))
  own(socketDir)
  const cluster = startOn(data, socketDir, settings, join(socketDir, 'server.log'))
  try {
    return await work(cluster.url)
  } catch (e) {
    try {
      console.error(`--- PostgreSQL's log:\n${readFileSync(join(socketDir, 'server.log'), 'utf8').split('\n').slice(-20).join('\n')}`)
    } catch {}
    throw e
  } finally {
    await cluster.stop()
    rmSync(socketDir, { recursive: true, force: true })
  }
}

/** COPY's text format: a backslash, tab, newline or carriage return escaped; null as \N. */
const copyText = (v: unknown, bool: boolean): string => {
  if (v === null || v === undefined) return '\\N'
  if (bool) return v ? 't' : 'f'
  if (typeof v === 'number' || typeof v === 'bigint') return String(v)
  return String(v).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
}

const seconds = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`

async function load(benchDb: string, url: string, log: (line: string) => void): Promise<Record<string, number>> {
  const lite = new Database(benchDb, { readonly: true })
  // One connection with every trigger (foreign keys included) off: the rows are a consistent copy already, and the
  // derived data is computed afterwards by the backfill statements.
  let t = performance.now()
  const migrating = connectPostgres(url) // migratePostgres holds one connection (its lock) and migrates on another
  await migratePostgres(migrating).finally(() => migrating.end())
  log(`  migrated (${migrationTags().length} migrations) in ${seconds(t)}`)
  const options = { max: 1, connection: { session_replication_role: 'replica' } }
  const sql = connectPostgres(url, options as Parameters<typeof connectPostgres>[1])
  try {
    // Secondary indexes go and come back after the load and the backfill: built once, in one pass each.
    const indexes = await sql.unsafe<{ name: string; def: string }[]>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
       where i.indrelid::regclass::text in (${TABLES.map((t) => `'${t}'`).join(', ')})
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    )
    for (const i of indexes) await sql.unsafe(`drop index ${i.name}`)
    for (const table of TABLES) {
      t = performance.now()
      const pgColumns = await sql.unsafe<{ name: string; type: string }[]>(
        `select column_name as name, data_type as type from information_schema.columns
         where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' and data_type <> 'tsvector' order by ordinal_position`,
        [table],
      )
      const liteColumns = new Set(lite.query<{ name: string }, []>(`select name from pragma_table_info('${table}')`).all().map((c) => c.name))
      const columns = pgColumns.filter((c) => liteColumns.has(c.name))
      const bools = columns.map((c) => c.type === 'boolean')
      const names = columns.map((c) => `"${c.name}"`).join(', ')
      const writable = await sql.unsafe(`copy ${table} (${names}) from stdin`).writable()
      const done = once(writable, 'finish')
      // In rowid order, 20,000 rows at a time (the rowid first, left out of the copy).
      const rows = lite.query<unknown[], [number]>(`select rowid, ${names} from ${table} where rowid > ? order by rowid limit 20000`)
      let n = 0
      for (let after = Number.MIN_SAFE_INTEGER; ; ) {
        const batch = rows.values(after)
        if (!batch.length) break
        let chunk = ''
        for (const row of batch) chunk += `${row.slice(1).map((v, i) => copyText(v, bools[i]!)).join('\t')}\n`
        n += batch.length
        if (!writable.write(chunk)) await once(writable, 'drain')
        after = batch.at(-1)![0] as number
      }
      writable.end()
      await done
      if (columns.some((c) => c.name === 'id')) await sql.unsafe(`select setval(pg_get_serial_sequence('${table}', 'id'), max(id)) from ${table}`)
      log(`  ${table}: ${n.toLocaleString('en')} rows in ${seconds(t)}`)
    }
    for (const statement of backfillStatements()) {
      t = performance.now()
      const r = await sql.unsafe(statement)
      log(`  backfill ${statement.split('\n')[0]!.slice(0, 60)}...: ${(r.count ?? 0).toLocaleString('en')} rows in ${seconds(t)}`)
    }
    // The search backfill rewrote every listing: the table is compacted before its indexes are built on it.
    t = performance.now()
    await sql.unsafe('vacuum full listings')
    log(`  vacuum full listings in ${seconds(t)}`)
    for (const i of indexes) {
      t = performance.now()
      await sql.unsafe(i.def)
      log(`  ${i.name} in ${seconds(t)}`)
    }
    t = performance.now()
    await sql.unsafe('vacuum analyze')
    log(`  vacuum analyze in ${seconds(t)}`)
    return await check(lite, sql, log)
  } finally {
    await sql.end()
    lite.close()
  }
}

/** A few totals on both sides: they must be equal, or the load is refused. */
async function check(lite: Database, sql: postgres.Sql, log: (line: string) => void): Promise<Record<string, number>> {
  const totals: [string, string, string?][] = [
    ...TABLES.map((t): [string, string] => [t, `select count(*) as n from ${t}`]),
    ['active listings', "select count(*) as n from listings where status = 'ACTIVE'"],
    ['listings: sum of budgets', 'select coalesce(sum(budget), 0) as n from listings'],
    ['live inbox entries', 'select count(*) as n from listing_matches where live', 'select count(*) as n from listing_matches where live = 1'],
    ['listing_counts, network', 'select coalesce(sum(n), 0) as n from listing_counts where city_id = 0'],
    ['listing_counts, cities', 'select coalesce(sum(n), 0) as n from listing_counts where city_id <> 0'],
    ['listing_daily_counts, network', 'select coalesce(sum(n), 0) as n from listing_daily_counts where city_id = 0'],
    ['listing_day_counts, network', 'select coalesce(sum(n), 0) as n from listing_day_counts where city_id = 0'],
    ['listing_id_blocks, suspended', 'select coalesce(sum(n), 0) as n from listing_id_blocks where city_id = 0 and suspended = 1'],
    ['owner_listing_counts', 'select coalesce(sum(n), 0) as n from owner_listing_counts'],
    // PostgreSQL's own kept tables (db/pg/month_counts.sql, budget_counts.sql), against the rows they count.
    ['listing_month_counts, network', 'select coalesce(sum(n), 0) as n from listing_month_counts where city_id = 0', 'select count(*) as n from listings'],
    ['listing_budget_counts', 'select coalesce(sum(n), 0) as n from listing_budget_counts', 'select count(*) as n from listings where budget is not null'],
  ]
  const counts: Record<string, number> = {}
  const wrong: string[] = []
  for (const [what, pgSql, liteSql] of totals) {
    const a = lite.query<{ n: number }, []>(liteSql ?? pgSql).get()!.n
    const b = Number((await sql.unsafe<{ n: number }[]>(pgSql))[0]!.n)
    counts[what] = b
    if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a))) wrong.push(`${what}: SQLite ${a}, PostgreSQL ${b}`)
  }
  // Search: the words of a few listings, found as many times on both sides.
  for (const word of ['penthouse', 'villa', 'warehouse']) {
    const a = lite.query<{ n: number }, [string]>("select count(*) as n from listings_fts where listings_fts match '{entry_id owner_name locality property_type details} : ' || ?").get(`"${word}"*`)!.n
    const b = Number((await sql.unsafe<{ n: number }[]>("select count(*) as n from listings where search @@ to_tsquery('simple', $1)", [`${word}:*`]))[0]!.n)
    counts[`search "${word}"`] = b
    if (a !== b) wrong.push(`search "${word}": SQLite ${a}, PostgreSQL ${b}`)
  }
  log(`  checked: ${Object.entries(counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join('; ')}`)
  if (wrong.length) throw new Error(`the loaded database differs from SQLite's:\n  ${wrong.join('\n  ')}`)
  return counts
}

/**
 * A server on a copy of the cached cluster, in `workDir` (removed by the caller): the run's writes stay there.
 * Returns the database's URL and how to stop it.
 */
export function startBenchPostgres(cacheDir: string, workDir: string, { stats = false, explainOver = '50ms' } = {}): RunningCluster & { copySeconds: number } {
  const t0 = performance.now()
  const dir = join(workDir, 'pg')
  mkdirSync(dir)
  own(dir)
  if (asRoot) chmodSync(workDir, 0o711) // the server's user passes through the (root's, private) work folder to its own
  const data = join(dir, 'data')
  if (Bun.spawnSync(['cp', '-a', '--reflink=auto', join(cacheDir, 'data'), data], { stderr: 'inherit' }).exitCode !== 0) throw new Error(`copying ${cacheDir}/data failed`)
  const copySeconds = (performance.now() - t0) / 1000
  // --pg-stats: every statement's time (pg_stat_statements) and the slow ones' plans (auto_explain, over `explainOver`)
  // in the server's log.
  const diagnose = { shared_preload_libraries: "'pg_stat_statements,auto_explain'", 'auto_explain.log_min_duration': explainOver, 'auto_explain.log_analyze': 'on', 'pg_stat_statements.track': 'all' }
  return { ...startOn(data, dir, stats ? { ...SERVE_SETTINGS, ...diagnose } : SERVE_SETTINGS, join(dir, 'server.log')), copySeconds }
}

/** With `stats` on: the statements that took the most time in all, as a table of text lines. */
export async function topStatements(url: string, limit = 25): Promise<string[]> {
  const sql = connectPostgres(url, { max: 1 })
  try {
    const rows = await sql.unsafe<{ calls: number; total: number; mean: number; max: number; rows: number; query: string }[]>(
      `select calls, total_exec_time as total, mean_exec_time as mean, max_exec_time as max, rows, query from pg_stat_statements
       order by total_exec_time desc limit ${limit}`,
    )
    return rows.map((r) => `${Math.round(r.total).toString().padStart(8)} ms ${String(r.calls).padStart(7)} × ${r.mean.toFixed(2).padStart(8)} ms (max ${r.max.toFixed(0)})  ${r.query.replace(/\s+/g, ' ').slice(0, 400)}`)
  } finally {
    await sql.end()
  }
}

/** Makes pg_stat_statements readable in the bench database (a run started with `stats`). */
export async function enableStatements(url: string): Promise<void> {
  const sql = connectPostgres(url, { max: 1 })
  await sql.unsafe('create extension if not exists pg_stat_statements').finally(() => sql.end())
}

/** Forgets the statements counted so far: what is printed at the end is then what came after (the warm-ups left out). */
export async function resetStatements(url: string): Promise<void> {
  const sql = connectPostgres(url, { max: 1 })
  await sql.unsafe('select pg_stat_statements_reset()').finally(() => sql.end())
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--db')
  const benchDb = resolve(root, at >= 0 ? args[at + 1]! : 'data/bench.db')
  const r = await prepareBenchPostgres(benchDb, undefined, { rebuild: args.includes('--rebuild') })
  console.log(`${r.cacheDir}: ${r.loaded ? 'loaded' : 'up to date'} (first load took ${r.loadSeconds.toFixed(0)} s); ${Object.entries(r.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join('; ')}`)
}
