// `bun run seed:bench`: the benchmark database, a network at full size, in its own file (never the app's).
//
//   bun run seed:bench [--out ./data/bench.db] [--listings 1000000] [--cities 200] [--brokers listings/50] [--seed 42]
//                      [--force] [--keep-indexes] [--fts-triggers] [--any-size]
//
// A file that already holds a bench database of the requested size is reused as it is (nothing is done); one of
// another size is rebuilt; a file this seed did not make is never touched. The build goes to `<out>.building` and is
// renamed over `<out>` only when complete, so an interrupted seed leaves no half-built database behind.
// --any-size: a bench database of whatever size is reused as it is (`bench:http --db` on the 5,000,000 one, issue 36).
// --keep-indexes / --fts-triggers load with the listings indexes and the FTS trigger in place (slower; for comparing).
// Every user's password is the demo password (src/bootstrap.ts), the master admin is admin@brokernet.local.
import { Database as SQLite } from 'bun:sqlite'
import { existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { closeDatabase, openDatabase } from '../db/client'
import type { Database } from '../db/client'
import { inspectBenchDatabase, seedBench, type BenchSize } from '../db/seed/bench'
import { sqliteDb } from '../db/sqlite'
import { announceAsPosted } from '../src/modules/matches/seed'
import { DEMO_PASSWORD } from '../src/bootstrap'
import { loadConfig } from '../src/platform/config'

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
function option(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const v = args[i + 1]
  if (v === undefined || v.startsWith('--')) fail(`--${name} needs a value`)
  return v
}
function count(name: string, fallback: number): number {
  const raw = option(name, String(fallback)).replace(/[_,]/g, '')
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number, not "${raw}"`)
  return n
}
/** How many of the newest listings are announced as if just posted: inboxes of a live network for the benchmarks. */
const BENCH_ANNOUNCED = 20_000

function fail(message: string): never {
  console.error(`seed:bench: ${message}`)
  process.exit(1)
}

const out = resolve(option('out', './data/bench.db'))
const listings = count('listings', 1_000_000)
// 50 listings per broker unless told otherwise: the default million has 20,000 brokers, 5,000,000 (issue 36) 100,000,
// as `bench:http --listings N` seeds them, so both make the same database of a size.
const size: BenchSize = { listings, cities: count('cities', 200), brokers: count('brokers', Math.max(200, Math.round(listings / 50))) }
const seed = count('seed', 42)

// Never the app's database, whatever DATA_DIR says.
let appDb: string | undefined
try {
  appDb = loadConfig().databasePath
} catch {}
if (basename(out) === 'brokernet.db' || out === appDb) fail(`refusing to write ${out}: that is the app's database file name; choose another --out`)

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const sizeText = `${size.listings.toLocaleString('en')} listings, ${size.cities} cities, ${size.brokers.toLocaleString('en')} brokers`

if (existsSync(out) && !flag('force')) {
  const sqlite = new SQLite(out)
  let seen
  try {
    seen = inspectBenchDatabase(sqlite, size)
  } finally {
    sqlite.close()
  }
  if (seen.verdict === 'match' || (flag('any-size') && seen.verdict === 'other' && seen.found.listings > 0 && seen.found.fts === seen.found.listings)) {
    // A database seeded before matching existed gets its inboxes now (once; migrations bring its tables up to date).
    const existing = openDatabase(out)
    try {
      const made = await fillBenchMatches(existing, (m) => console.log(`  ${m}`))
      if (made) console.log(`${out}: ${made.toLocaleString('en')} inbox rows made by announcing the newest listings.`)
    } finally {
      closeDatabase(existing)
    }
    const held = `${seen.found.listings.toLocaleString('en')} listings, ${seen.found.cities} cities, ${seen.found.brokers.toLocaleString('en')} brokers`
    console.log(`${out} already holds ${held} (${mb(statSync(out).size)}): reusing it.`)
    process.exit(0)
  }
  if (seen.verdict === 'foreign') fail(`${out} exists and was not made by this seed: not touching it (choose another --out, or remove it yourself)`)
  console.log(
    `${out} holds ${seen.found.listings.toLocaleString('en')} listings, ${seen.found.cities} cities, ${seen.found.brokers.toLocaleString('en')} brokers: rebuilding it.`,
  )
}

const started = performance.now()
const tmp = `${out}.building`
const removeDb = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true })
}
removeDb(tmp)
console.log(`Seeding ${tmp} with ${sizeText}...`)
const passwordHash = await Bun.password.hash(DEMO_PASSWORD)
const db = openDatabase(tmp)
let result
try {
  result = seedBench(db, {
    ...size,
    seed,
    passwordHash,
    dropIndexes: !flag('keep-indexes'),
    bulkFts: !flag('fts-triggers'),
    onProgress: (m) => console.log(`  ${m}`),
  })
  await fillBenchMatches(db, (m) => console.log(`  ${m}`))
  closeDatabase(db)
} catch (e) {
  try {
    db.$client.close()
  } catch {}
  removeDb(tmp)
  fail((e as Error).message)
}
removeDb(out)
renameSync(tmp, out)

const seconds = (performance.now() - started) / 1000
const phases = Object.entries(result.phases)
  .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
  .join(', ')
console.log(
  `Done in ${seconds.toFixed(1)} s (${phases}): ${result.countries} countries, ${result.states} states, ${result.cities} cities, ` +
    `${result.brokers.toLocaleString('en')} brokers, ${result.moduleAdmins} module admins, 1 master admin, ${result.listings.toLocaleString('en')} listings.`,
)
console.log(`${out}: ${mb(statSync(out).size)}. Users sign in with the demo password (${DEMO_PASSWORD}); master admin admin@brokernet.local.`)

/** The bench database's inboxes, made once by the matches feature (src/modules/matches/seed.ts). */
async function fillBenchMatches(database: Database, onProgress: (m: string) => void = () => {}): Promise<number> {
  const db = sqliteDb(database)
  try {
    return await announceAsPosted(db, BENCH_ANNOUNCED, onProgress)
  } finally {
    await db.close()
  }
}
