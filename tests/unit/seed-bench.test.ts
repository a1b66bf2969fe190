import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { inspectBenchDatabase, seedBench } from '../../db/seed/bench'
import { formatEntryId } from '../../src/shared/entry-id'
import { ftsQuery } from '../../src/modules/listings/store/read'

const NOW = new Date('2026-11-21T10:00:00Z')
const SIZE = { listings: 2000, cities: 5, brokers: 60 }

function seeded(bulk = true, path = ':memory:'): Database {
  const db = openDatabase(path)
  seedBench(db, { ...SIZE, passwordHash: 'x', now: NOW, seed: 3, dropIndexes: bulk, bulkFts: bulk })
  return db
}
const one = <T>(db: Database, sql: string, ...args: (string | number)[]) => db.$client.query<T, (string | number)[]>(sql).get(...args)!
const n = (db: Database, sql: string, ...args: (string | number)[]) => one<{ n: number }>(db, sql, ...args).n

describe('seedBench (small)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-seed-bench-'))
  const db = seeded(true, join(dir, 'bench.db'))
  afterAll(() => {
    closeDatabase(db)
    rmSync(dir, { recursive: true, force: true })
  })

  test('counts: cities, people, listings', () => {
    expect(n(db, 'SELECT count(*) AS n FROM cities')).toBe(5)
    expect(n(db, 'SELECT count(DISTINCT c.country_id) AS n FROM states c JOIN cities ci ON ci.state_id = c.id')).toBeGreaterThanOrEqual(3)
    expect(n(db, "SELECT count(*) AS n FROM users WHERE role = 'BROKER' AND is_active = 1 AND registration_status = 'APPROVED'")).toBe(60)
    expect(n(db, "SELECT count(*) AS n FROM users WHERE role = 'MODULE_ADMIN'")).toBe(5)
    expect(n(db, "SELECT count(DISTINCT city_id) AS n FROM users WHERE role = 'MODULE_ADMIN'")).toBe(5)
    expect(n(db, "SELECT count(*) AS n FROM users WHERE role = 'MASTER_ADMIN'")).toBe(1)
    expect(n(db, 'SELECT count(DISTINCT city_id) AS n FROM users WHERE role = ?', 'BROKER')).toBe(5)
    expect(n(db, 'SELECT count(*) AS n FROM listings')).toBe(2000)
  })

  test('listing_counts (and by day) holds exactly the grouped counts of the listings (the bulk path fills what the trigger would)', () => {
    const grouped = db.$client
      .query("SELECT city_id, post_type, sale_or_rent, status, coalesce(location, '') AS location, lower(property_type) AS property_type, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6")
      .all()
    const kept = db.$client.query('SELECT city_id, post_type, sale_or_rent, status, location, property_type, n FROM listing_counts WHERE n > 0 AND city_id <> 0 ORDER BY 1, 2, 3, 4, 5, 6').all()
    expect(kept).toEqual(grouped)
    const networkTotals = db.$client
      .query("SELECT post_type, sale_or_rent, status, coalesce(location, '') AS location, lower(property_type) AS property_type, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5")
      .all()
    expect(db.$client.query('SELECT post_type, sale_or_rent, status, location, property_type, n FROM listing_counts WHERE n > 0 AND city_id = 0 ORDER BY 1, 2, 3, 4, 5').all()).toEqual(networkTotals)
    const daily = db.$client.query('SELECT date, city_id, post_type, count(*) AS n FROM listings GROUP BY 1, 2, 3 ORDER BY 1, 2, 3').all()
    expect(db.$client.query('SELECT date, city_id, post_type, n FROM listing_daily_counts WHERE n > 0 AND city_id <> 0 ORDER BY 1, 2, 3').all()).toEqual(daily)
    const network = db.$client.query('SELECT date, post_type, count(*) AS n FROM listings GROUP BY 1, 2 ORDER BY 1, 2').all()
    expect(db.$client.query('SELECT date, post_type, n FROM listing_daily_counts WHERE n > 0 AND city_id = 0 ORDER BY 1, 2').all()).toEqual(network)
    const days = db.$client.query("SELECT city_id, date, post_type, sale_or_rent, status, coalesce(location, '') AS location, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6").all()
    expect(db.$client.query('SELECT city_id, date, post_type, sale_or_rent, status, location, n FROM listing_day_counts WHERE n > 0 AND city_id <> 0 ORDER BY 1, 2, 3, 4, 5, 6').all()).toEqual(days)
    const networkDays = db.$client.query("SELECT date, post_type, sale_or_rent, status, coalesce(location, '') AS location, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5").all()
    expect(db.$client.query('SELECT date, post_type, sale_or_rent, status, location, n FROM listing_day_counts WHERE n > 0 AND city_id = 0 ORDER BY 1, 2, 3, 4, 5').all()).toEqual(networkDays)
    const owners = db.$client.query('SELECT owner_user_id, city_id, count(*) AS n FROM listings GROUP BY 1, 2 ORDER BY 1, 2').all()
    expect(db.$client.query('SELECT owner_user_id, city_id, n FROM owner_listing_counts WHERE n > 0 ORDER BY 1, 2').all()).toEqual(owners)
  })

  test('listings_fts holds one row per listing; listings_fts_suspended one per suspended listing', () => {
    expect(n(db, 'SELECT count(*) AS n FROM listings_fts')).toBe(2000)
    const suspended = db.$client.query<{ id: number }, []>("SELECT id FROM listings WHERE status = 'SUSPENDED' ORDER BY id").all()
    expect(suspended.length).toBeGreaterThan(0)
    expect(db.$client.query('SELECT rowid AS id FROM listings_fts_suspended ORDER BY rowid').all()).toEqual(suspended)
  })

  test("entry IDs are formatEntryId of the listing's post type, city and id; ids grow with time", () => {
    const rows = db.$client
      .query<{ id: number; entry_id: string; post_type: 'REQ' | 'AVL'; city: string; created_at: number; date: string }, []>(
        'SELECT l.id, l.entry_id, l.post_type, c.name AS city, l.created_at, l.date FROM listings l JOIN cities c ON c.id = l.city_id ORDER BY l.id',
      )
      .all()
    let last = 0
    for (const r of rows) {
      expect(r.entry_id).toMatch(/^(REQ|AVL)-[A-Z]{3}-\d{6,}$/)
      expect(r.entry_id).toBe(formatEntryId(r.post_type, r.city, r.id))
      expect(r.created_at).toBeGreaterThanOrEqual(last)
      expect(r.date).toBe(new Date(r.created_at).toISOString().slice(0, 10))
      last = r.created_at
    }
    expect(rows[0]!.created_at).toBeGreaterThan(NOW.getTime() - 731 * 86_400_000)
    expect(last).toBeLessThanOrEqual(NOW.getTime())
  })

  test('every listing is in its owner’s city; about 3% are suspended', () => {
    expect(n(db, 'SELECT count(*) AS n FROM listings l JOIN users u ON u.id = l.owner_user_id WHERE u.city_id <> l.city_id OR u.full_name <> l.contact_name')).toBe(0)
    const suspended = n(db, "SELECT count(*) AS n FROM listings WHERE status = 'SUSPENDED'")
    expect(suspended).toBeGreaterThan(20)
    expect(suspended).toBeLessThan(120)
  })

  test('search finds a listing by a fragment of its entry ID', () => {
    const l = one<{ id: number; entry_id: string }>(db, 'SELECT id, entry_id FROM listings WHERE id = 1234')
    const fragment = l.entry_id.split('-').slice(1).join('-').slice(0, -1) // "MUM-00123" of "REQ-MUM-001234"
    const ids = db.$client.query<{ rowid: number }, [string]>('SELECT rowid FROM listings_fts WHERE listings_fts MATCH ?').all(ftsQuery(fragment)!).map((r) => r.rowid)
    expect(ids).toContain(1234)
  })

  test('the bulk path ends as the triggers would: same FTS index content, same schema', () => {
    const slow = seeded(false)
    const instances = (d: Database) => {
      d.$client.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, 'listings_fts', 'instance')")
      return d.$client.query('SELECT term, doc, col, offset FROM temp.vocab').all()
    }
    const schema = (d: Database) => d.$client.query("SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('listings', 'listings_fts', 'users') ORDER BY type, name").all()
    expect(instances(db)).toEqual(instances(slow))
    expect(instances(db).length).toBeGreaterThan(2000 * 10)
    expect(schema(db)).toEqual(schema(openDatabase(':memory:')))
    expect(schema(db)).toEqual(schema(slow))
    const columns = (d: Database) => d.$client.query('SELECT * FROM listings ORDER BY id').all()
    expect(columns(db)).toEqual(columns(slow))
  })

  test('the pragmas are the usual ones again after the seed (WAL, foreign keys on)', () => {
    expect(one<{ journal_mode: string }>(db, 'PRAGMA journal_mode').journal_mode).toBe('wal')
    expect(one<{ synchronous: number }>(db, 'PRAGMA synchronous').synchronous).toBe(1)
    expect(one<{ foreign_keys: number }>(db, 'PRAGMA foreign_keys').foreign_keys).toBe(1)
  })

  test('inspectBenchDatabase tells a matching size from another and from a foreign database', () => {
    expect(inspectBenchDatabase(db.$client, SIZE).verdict).toBe('match')
    expect(inspectBenchDatabase(db.$client, { ...SIZE, listings: 3000 }).verdict).toBe('other')
    const foreign = openDatabase(':memory:')
    foreign.$client.exec("INSERT INTO users (email, password_hash, full_name, role) VALUES ('a@b.example', 'x', 'A', 'BROKER')")
    expect(inspectBenchDatabase(foreign.$client, SIZE).verdict).toBe('foreign')
  })
})

describe('scripts/seed-bench.ts on an existing file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-seed-bench-script-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const out = join(dir, 'bench-small.db')
  const seed = (...extra: string[]) => {
    const run = Bun.spawnSync([process.execPath, join(import.meta.dir, '../../scripts/seed-bench.ts'), '--out', out, '--cities', '5', '--brokers', '60', ...extra], { stdout: 'pipe', stderr: 'pipe' })
    return { code: run.exitCode, text: run.stdout.toString() + run.stderr.toString() }
  }
  const listings = () => {
    const db = openDatabase(out, { migrate: false })
    try {
      return n(db, 'SELECT count(*) AS n FROM listings')
    } finally {
      closeDatabase(db)
    }
  }

  test('--any-size reuses a bench database of another size as it is (bench:http --db on the 5M one); without it, it is rebuilt', () => {
    expect(seed('--listings', '1200').code).toBe(0)
    expect(listings()).toBe(1200)
    const reused = seed('--listings', '1500', '--any-size')
    expect(reused.code).toBe(0)
    expect(reused.text).toContain('already holds 1,200 listings')
    expect(listings()).toBe(1200)
    expect(seed('--listings', '1500').code).toBe(0)
    expect(listings()).toBe(1500)
  }, 180_000)
})
