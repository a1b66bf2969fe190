// PostgreSQL keeps the same derived data as SQLite (issue 16): the kept counts of docs/decisions/007-kept-counts.md and
// the inbox's live flag, by the triggers of db/pg/derived.sql. The same random writes, in plain SQL through the data
// layer, go to a SQLite file and to a throwaway PostgreSQL database; every kept table (rows with n <> 0, summed over
// PostgreSQL's shards) and every entry's live flag must then be equal, at checkpoints along the way and at the end.
// Then the backfill statements rebuild PostgreSQL's tables from the rows alone, to the same contents; and a pair is
// broken and mended through each column of the matching rule in turn, its flag equal on both after every write.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { migratePostgres } from '../../db/pg/migrate'
import { postgresDb, type PostgresDb } from '../../db/postgres'
import type { Param, Queryable } from '../../db/sql'
import { sqliteDb, type SqliteDb } from '../../db/sqlite'
import { pairMatchesSql } from '../../src/modules/matches/rules'
import { KEPT, kept, PG_KEPT, recounted } from '../support/kept-counts'
import { startCluster, type Cluster } from '../support/postgres'

const derivedPath = join(import.meta.dir, '../../db/pg/derived.sql')
const derived = readFileSync(derivedPath, 'utf8')
const monthCounts = readFileSync(join(import.meta.dir, '../../db/pg/month_counts.sql'), 'utf8')
const budgetCounts = readFileSync(join(import.meta.dir, '../../db/pg/budget_counts.sql'), 'utf8')
const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim()

async function entries(db: Queryable): Promise<[number, boolean][]> {
  return (await db.all<{ id: number; live: unknown }>('select id, live from listing_matches order by id')).map((r) => [Number(r.id), Boolean(r.live)])
}

/** The same seeded sequence every run (mulberry32); PG_DERIVED_SEED tries another. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! }
}

const CITIES = [1, 2, 3, 4]
const OWNERS = [1, 2, 3, 4, 5, 6]
// Case and spacing vary: listing_counts keeps lower(property_type); the live rule compares property_key.
const PROPERTY_TYPES = ['2 BHK', '2BHK Apartment', '2 bhk flat', 'Villa', 'VILLA', 'office space', 'Office', 'Retail Shop', 'Shop']
const ZONES = [null, 'North', 'East', 'West', 'South', 'Central', 'Outskirts']
const STATUSES = ['ACTIVE', 'ACTIVE', 'ACTIVE', 'ON_HOLD', 'CLOSED', 'SUSPENDED']
const DATES = ['2026-10-31', '2026-11-01', '2026-11-02', '2026-11-03', '2026-11-15', '2026-12-01']
const BUDGETS = [null, 90, 100, 110, 111, 130.5, 131]
const SIZES = [null, 84, 85, 100, 120]
const TOLERANCES = [0, 10, 11, 30]

let cluster: Cluster | undefined
let pg: PostgresDb
let lite: Database
let sq: SqliteDb
let dir: string

const both = async (sql: string, params: Param[] = []) => {
  await sq.run(sql, params)
  await pg.run(sql, params)
}

beforeAll(async () => {
  cluster = await startCluster()
  const url = await cluster.createDatabase()
  pg = postgresDb(url, { max: 2 })
  await migratePostgres(pg.sql)
  dir = mkdtempSync(join(tmpdir(), 'brokernet-pg-derived-'))
  lite = openDatabase(join(dir, 'derived.db'))
  sq = sqliteDb(lite)
  // The same geography and brokers on both, with the same ids.
  const now = Date.now()
  await both('insert into countries (id, name, code, created_at, updated_at) values (1, ?, ?, ?, ?)', ['India', 'IN', now, now])
  await both('insert into states (id, country_id, name, code, created_at, updated_at) values (1, 1, ?, ?, ?, ?)', ['Maharashtra', 'MH', now, now])
  for (const id of CITIES) await both('insert into cities (id, state_id, name, created_at, updated_at) values (?, 1, ?, ?, ?)', [id, `City ${id}`, now, now])
  for (const id of OWNERS)
    await both(
      'insert into users (id, email, password_hash, full_name, role, is_active, registration_status, city_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, `derived-${id}@example.com`, 'x', `Broker ${id}`, 'BROKER', true, 'APPROVED', CITIES[id % CITIES.length]!, now, now],
    )
}, 180_000)

afterAll(async () => {
  await pg?.close()
  await sq?.close()
  if (lite) closeDatabase(lite)
  if (dir) rmSync(dir, { recursive: true, force: true })
  await cluster?.stop()
})

describe('PostgreSQL derived data (db/pg/derived.sql)', () => {
  test('the custom migration is derived.sql word for word, and judges by pairMatchesSql', () => {
    const migration = readFileSync(join(import.meta.dir, '../../db/pg/migrations/0001_derived.sql'), 'utf8')
    expect(migration).toBe(derived)
    expect(squash(derived)).toContain(squash(pairMatchesSql('a', 'b', 'c')))
  })

  test('after the same random writes, every kept table and live flag equals SQLite', async () => {
    const now = Date.now()

    const r = random(Number(process.env.PG_DERIVED_SEED ?? 16))
    let nextId = 0
    let nextEntry = 0
    let ids: number[] = []
    // Pairs that hold now: most entries are made for one, as the matcher does, so that writes then break and mend them.
    let pairs: { a: number; b: number }[] = []
    // Listings with entries: made active again now and then, so that flags turn on as well as off.
    let paired: number[] = []
    const refreshIds = async (db: Queryable = sq) => {
      ids = (await db.all<{ id: number }>('select id from listings order by id')).map((x) => x.id)
      paired = (await db.all<{ id: number }>('select listing_id as id from listing_matches union select match_id from listing_matches')).map((x) => x.id)
      pairs = await db.all(`select a.id as a, b.id as b from listings a join listings b on b.id <> a.id join cities c on c.id = a.city_id where ${pairMatchesSql('a', 'b', 'c')}`)
    }
    const field = (name: string): Param => {
      switch (name) {
        case 'status':
          return r.pick(STATUSES)
        case 'city_id':
          return r.pick(CITIES)
        case 'budget':
          return r.pick(BUDGETS)
        case 'size':
          return r.pick(SIZES)
        case 'property_type':
          return r.pick(PROPERTY_TYPES)
        case 'location':
          return r.pick(ZONES)
        case 'post_type':
          return r.pick(['REQ', 'AVL'])
        case 'sale_or_rent':
          return r.pick(['SALE', 'RENT'])
        case 'date':
          return r.pick(DATES)
        case 'owner_user_id':
          return r.pick(OWNERS)
        default:
          return `note ${r.int(5)}`
      }
    }
    const FIELDS = ['status', 'city_id', 'budget', 'size', 'property_type', 'location', 'post_type', 'sale_or_rent', 'date', 'owner_user_id', 'comments', 'locality']

    const INSERT = `insert into listings (id, entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, size, location,
      status, date, owner_user_id, city_id, created_at, updated_at) values (?, ?, ?, ?, ?, '9876543210', 'Derived', ?, ?, ?, ?, ?, ?, ?, ?, ?)`

    /** One random write: the SQL and its parameters, chosen before either database runs it (null: none this time). */
    const write = (): [string, Param[]] | null => {
      const x = r.next()
      if (x < 0.28 || ids.length < 4) {
        // Ids leap ahead, so listings spread over several blocks of 1,024 and every shard.
        nextId += 1 + r.int(60)
        const values = ['post_type', 'sale_or_rent', 'property_type', 'budget', 'size', 'location', 'status', 'date', 'owner_user_id', 'city_id'].map(field)
        return [INSERT, [nextId, `E-${nextId}`, ...values, now, now]]
      }
      if (x < 0.5) {
        // Some fields of one listing (often one with entries), often to the value they already hold (the triggers still
        // fire on SQLite).
        const names = [...new Set(Array.from({ length: r.next() < 0.6 ? 1 : 2 + r.int(2) }, () => r.pick(FIELDS)))]
        const id = paired.length && r.next() < 0.5 ? r.pick(paired) : r.pick(ids)
        return [`update listings set ${names.map((n) => `${n} = ?`).join(', ')} where id = ?`, [...names.map(field), id]]
      }
      if (x < 0.55) return ['update listings set status = ? where id = ?', ['ACTIVE', paired.length ? r.pick(paired) : r.pick(ids)]]
      if (x < 0.57) return ['update listings set status = ? where owner_user_id = ?', [field('status'), r.pick(OWNERS)]]
      if (x < 0.6) return ['update listings set city_id = ?, budget = ? where city_id = ? and post_type = ?', [field('city_id'), field('budget'), r.pick(CITIES), field('post_type')]]
      if (x < 0.68) return ['delete from listings where id = ?', [r.pick(ids)]]
      if (x < 0.69) return ['delete from listings where city_id = ? and status = ? and date = ?', [r.pick(CITIES), field('status'), field('date')]]
      if (x < 0.74) return ['update cities set match_tolerance = ? where id = ?', [r.pick(TOLERANCES), r.pick(CITIES)]]
      if (x < 0.75) return ['update cities set name = name, match_tolerance = match_tolerance where id = ?', [r.pick(CITIES)]]
      // An inbox entry for a pair, matching or not: created live (as the store does) or with a flag of its own.
      const { a, b } = pairs.length && r.next() < 0.7 ? r.pick(pairs) : { a: r.pick(ids), b: r.pick(ids) }
      if (a === b) return null
      ++nextEntry
      return r.next() < 0.7
        ? ['insert into listing_matches (id, listing_id, match_id, user_id, score) values (?, ?, ?, ?, ?) on conflict (listing_id, match_id) do nothing', [nextEntry, a, b, r.pick(OWNERS), r.int(100)]]
        : ['insert into listing_matches (id, listing_id, match_id, user_id, score, live) values (?, ?, ?, ?, 0, ?) on conflict (listing_id, match_id) do nothing', [nextEntry, a, b, r.pick(OWNERS), r.next() < 0.5]]
    }

    // How often a write turned an entry's flag (on SQLite): the run must turn flags both ways.
    const turned = { on: 0, off: 0 }
    let flagsBefore = new Map<number, boolean>()
    const countTurns = async () => {
      const flags = await entries(sq)
      for (const [id, live] of flags) if (flagsBefore.has(id) && flagsBefore.get(id) !== live) turned[live ? 'on' : 'off']++
      flagsBefore = new Map(flags)
    }
    const compare = async (when: string) => {
      for (const table of Object.keys(KEPT)) expect({ when, table, rows: await kept(pg, table) }).toEqual({ when, table, rows: await kept(sq, table) })
      // PostgreSQL's own kept tables (SQLite has none): what its rows say (the same as SQLite's, compared below).
      for (const table of Object.keys(PG_KEPT)) expect({ when, table, rows: await kept(pg, table) }).toEqual({ when, table, rows: await recounted(pg, table) })
      expect({ when, entries: await entries(pg) }).toEqual({ when, entries: await entries(sq) })
      expect(await pg.all('select id from listings order by id')).toEqual(await sq.all('select id from listings order by id'))
    }

    const OPERATIONS = 600
    for (let i = 1; i <= OPERATIONS; i++) {
      if (r.next() < 0.08) {
        // A few writes in one transaction, as the stores write: chosen and run on SQLite (the ids left after each), then
        // the same on PostgreSQL.
        const batch: [string, Param[]][] = []
        await sq.tx(async (tx) => {
          for (let k = 2 + r.int(3); k > 0; k--) {
            const w = write()
            if (!w) continue
            await tx.run(w[0], w[1])
            batch.push(w)
            await refreshIds(tx)
          }
        })
        await pg.tx(async (tx) => {
          for (const [sql, params] of batch) await tx.run(sql, params)
        })
      } else {
        const w = write()
        if (w) await both(w[0], w[1])
        await refreshIds()
      }
      await countTurns()
      if (i % 30 === 0) await compare(`after ${i} writes`)
    }
    // The run must have reached what it checks: several blocks, every shard, flags turned both ways.
    const blocks = await sq.get<{ n: number }>('select count(distinct block) as n from listing_id_blocks where n <> 0')
    expect(blocks!.n).toBeGreaterThan(3)
    const shards = await pg.get<{ n: number }>('select count(distinct shard) as n from listing_counts where city_id = 0 and n <> 0')
    expect(shards!.n).toBe(16)
    expect(turned.on).toBeGreaterThan(5)
    expect(turned.off).toBeGreaterThan(5)

    // The backfill: PostgreSQL's kept tables rebuilt from the rows alone equal SQLite's, and every flag is judged afresh.
    const backfill = [derived, monthCounts, budgetCounts].flatMap((file) =>
      file
        .split('--> statement-breakpoint')
        .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
        .filter((s) => /^(insert|update)\b/i.test(s)),
    )
    const tables = [...Object.keys(KEPT), ...Object.keys(PG_KEPT)]
    expect(backfill.length).toBe(tables.length + 1)
    // Shard by shard too: the triggers put each network row where the backfill does (shard id % 16; a city's rows 0).
    const sharded = async () => {
      const all: Record<string, string[]> = {}
      for (const table of tables) all[table] = (await pg.all(`select * from ${table} where n <> 0`)).map((row) => JSON.stringify(row)).sort()
      return all
    }
    const byTriggers = await sharded()
    await pg.tx(async (tx) => {
      for (const table of tables) await tx.run(`delete from ${table}`)
      await tx.run('update listing_matches set live = not live')
      for (const s of backfill) await tx.run(s)
    })
    for (const table of Object.keys(KEPT)) expect({ table, rows: await kept(pg, table) }).toEqual({ table, rows: await kept(sq, table) })
    for (const table of Object.keys(PG_KEPT)) expect({ table, rows: await kept(pg, table) }).toEqual({ table, rows: await recounted(pg, table) })
    expect(await sharded()).toEqual(byTriggers)
    // Every flag as the rule judges it now (SQLite's own flags of entries never judged since they were made may differ).
    const judged = async (db: Queryable) =>
      (
        await db.all<{ id: number; live: unknown }>(
          `select m.id, coalesce((select ${pairMatchesSql('a', 'b', 'c')} from listings a join listings b on b.id = m.match_id join cities c on c.id = a.city_id
           where a.id = m.listing_id), false) as live from listing_matches m order by m.id`,
        )
      ).map((e): [number, boolean] => [Number(e.id), Boolean(e.live)])
    expect(await entries(pg)).toEqual(await judged(sq))
    // SQLite's flags judged afresh too, so that both agree again for what follows.
    await sq.run(`update listing_matches set live = coalesce((select ${pairMatchesSql('a', 'b', 'c')} from listings a join listings b on b.id = listing_matches.match_id
      join cities c on c.id = a.city_id where a.id = listing_matches.listing_id), false)`)
    expect(await entries(pg)).toEqual(await entries(sq))
  }, 180_000)

  test('each column of the rule, and the tolerance, turns a pair off and on again', async () => {
    const listing = `insert into listings (id, entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, size, status, date,
      owner_user_id, city_id, created_at, updated_at) values (?, ?, ?, 'SALE', ?, '9876543210', 'Pair', ?, ?, 'ACTIVE', '2026-11-20', 1, 1, 0, 0)`
    const [req, avl] = [900001, 900002]
    await both('update cities set match_tolerance = 10 where id = 1')
    await both(listing, [req, 'PAIR-REQ', 'REQ', '2 BHK', 100, 100])
    await both(listing, [avl, 'PAIR-AVL', 'AVL', '2BHK Apartment', 105, 90])
    await both('insert into listing_matches (id, listing_id, match_id, user_id, score) values (900001, ?, ?, 1, 50), (900002, ?, ?, 2, 50)', [req, avl, avl, req])
    const step = async (sql: string, params: Param[], live: boolean) => {
      await both(sql, params)
      const flags = (await sq.all<{ live: unknown }>('select live from listing_matches where id in (900001, 900002)')).map((e) => Boolean(e.live))
      expect({ sql, params, flags }).toEqual({ sql, params, flags: [live, live] })
      expect({ sql, params, entries: await entries(pg) }).toEqual({ sql, params, entries: await entries(sq) })
    }
    const column = async (name: string, off: Param, on: Param) => {
      await step(`update listings set ${name} = ? where id = ?`, [off, avl], false)
      await step(`update listings set ${name} = ? where id = ?`, [on, avl], true)
    }
    await column('status', 'ON_HOLD', 'ACTIVE')
    await column('city_id', 2, 1)
    await column('sale_or_rent', 'RENT', 'SALE')
    await column('post_type', 'REQ', 'AVL')
    await column('property_type', 'Villa', '2 BHK Flat')
    await column('budget', 111, 110)
    await column('size', 84, 85)
    await step('update cities set match_tolerance = ? where id = 1', [9], false)
    await step('update cities set match_tolerance = ? where id = 1', [10], true)
    // Entries made with a flag the rule does not give are judged at the next write of a column of the rule, even to the
    // value it holds.
    await both('update listing_matches set live = false where id in (900001, 900002)')
    await step('update listings set size = size where id = ?', [avl], true)
    for (const table of Object.keys(KEPT)) expect({ table, rows: await kept(pg, table) }).toEqual({ table, rows: await kept(sq, table) })
  })
})

describe("PostgreSQL's own kept tables (db/pg/month_counts.sql, db/pg/budget_counts.sql)", () => {
  test('follow inserts, moves across months and budget buckets, status and zone changes and deletes, in and out of transactions', async () => {
    const listing = `insert into listings (id, entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, size, status, date,
      owner_user_id, city_id, location, created_at, updated_at) values (?, ?, 'AVL', 'SALE', 'Shop', '9876543210', 'Kept', ?, null, ?, ?, 1, ?, ?, 0, 0)`
    const check = async (when: string) => {
      for (const table of Object.keys(PG_KEPT)) expect({ when, table, rows: await kept(pg, table) }).toEqual({ when, table, rows: await recounted(pg, table) })
    }
    // Budgets on, beside and between thresholds (1,000, 1,122, 1,259, 1,413), none and far beyond; dates at months' ends.
    const budgets = [null, 999, 1000, 1121.5, 1122, 1259, 1300, 5_000_000, 2e12]
    const dates = ['2026-01-31', '2026-02-01', '2026-02-28', '2026-03-01', '2025-12-31']
    for (let i = 0; i < 18; i++)
      await pg.run(listing, [950000 + i, `KEPT-${i}`, budgets[i % budgets.length]!, i % 4 ? 'ACTIVE' : 'ON_HOLD', dates[i % dates.length]!, CITIES[i % CITIES.length]!, ZONES[i % ZONES.length]!])
    await check('inserted')
    await pg.run("update listings set budget = budget * 1.2 where id between 950000 and 950008 and budget is not null")
    await pg.run('update listings set budget = null where id = 950010')
    await pg.run('update listings set budget = 1122 where id = 950001')
    await check('budgets moved')
    await pg.tx(async (tx) => {
      await tx.run("update listings set date = '2026-02-27' where id = 950002") // the same month
      await tx.run("update listings set date = '2026-04-01', location = 'North' where id = 950003")
      await tx.run("update listings set status = 'SUSPENDED', city_id = ? where id = 950004", [CITIES[3]!])
    })
    await check('dates, zones, statuses and cities changed')
    await pg.run('delete from listings where id in (950005, 950006)')
    await pg.tx(async (tx) => {
      await tx.run("update listings set budget = 1400, status = 'CLOSED' where id = 950007")
      await tx.run('delete from listings where id = 950007')
    })
    await check('deleted')
    await pg.run('delete from listings where id between 950000 and 950017')
    await check('all gone')
  })
})

describe('kept counts written at the commit (issue 36)', () => {
  test("two writers of one city's counts do not wait for each other's commit, and the counts stay exact", async () => {
    // The same city, type, deal, zone, property type, date and owner: every kept row of a city both writes is the same
    // row. Written by the statement (as before migration 0032), the second insert would wait until the first's
    // transaction ended, which here waits for the second: lock_timeout ends that wait with an error.
    const insert = `insert into listings (id, entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, size, location,
      status, date, owner_user_id, city_id, created_at, updated_at) values (?, ?, 'REQ', 'SALE', '2 BHK', '9876543210', 'Hot', 100, 100, 'North',
      'ACTIVE', '2026-11-02', 1, 1, 1, 1)`
    const counts = () => Promise.all(Object.keys(KEPT).map((table) => kept(pg, table)))
    const before = await counts()
    await pg.tx(async (tx) => {
      await tx.run(insert, [990001, 'HOT-1'])
      const other = pg.sql
      await other.begin(async (t) => {
        await t.unsafe("set local lock_timeout = '5s'")
        await t.unsafe(insert.replace('(?, ?,', '($1, $2,'), [990002, 'HOT-2'])
      })
    })
    await pg.run('delete from listings where id in (990001, 990002)')
    expect(await counts()).toEqual(before)
  })
})
