// The data layer on PostgreSQL (db/postgres.ts, db/dialect.ts, db/pg-feed.ts, db/pg/search.sql), on a throwaway
// cluster: what the API suites would only meet by chance.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FeedEvent } from '../../db/change-feed'
import { idsIn, isConflict } from '../../db/dialect'
import { migratePostgres } from '../../db/pg/migrate'
import { PgFeed } from '../../db/pg-feed'
import { connectPostgres, inlined, numbered, PostgresDb, postgresDb } from '../../db/postgres'
import { SnapshotCache } from '../../db/snapshot-cache'
import type { Queryable } from '../../db/sql'
import { countDelta } from '../../src/modules/listings/affects'
import { textMatches } from '../../src/modules/listings/search-judge'
import { BUDGET_THRESHOLDS } from '../../src/modules/listings/store/read'
import { ftsQuery, searchWhere } from '../../src/modules/listings/store/where'
import { insertListing, seedPlace } from '../support/fixtures'
import { insertEntries, queueListing, readQueue, takeQueuedAsRead } from '../../src/modules/matches/store'
import { signIn } from '../support/auth'
import { sharedCluster } from '../support/postgres'

let url: string
let db: PostgresDb

beforeAll(async () => {
  url = await (await sharedCluster()).createDatabase()
  const sql = connectPostgres(url)
  await migratePostgres(sql)
  db = new PostgresDb(sql)
})
afterAll(() => db.close())

test('placeholders are numbered outside strings, quoted names and comments', () => {
  expect(numbered("select '?', \"a?\", ? -- ?\n, ?, ?2 /* ? */")).toBe("select '?', \"a?\", $1 -- ?\n, $2, $2 /* ? */")
})

test('the newest custom migration named after each readable file is the file word for word', () => {
  // As SQLite's (tests/unit/sqlite-derived.test.ts): a feature that changes a file adds a migration that copies it.
  const dir = join(import.meta.dir, '../../db/pg')
  const migrations = readdirSync(join(dir, 'migrations')).filter((f) => /^\d+_/.test(f)).sort()
  for (const file of ['search.sql', 'feed.sql', 'month_counts.sql', 'budget_counts.sql']) {
    const named = migrations.filter((m) => m.replace(/^\d+_/, '') === file)
    expect({ file, migrations: named.length > 0 }).toEqual({ file, migrations: true })
    expect({ file, text: readFileSync(join(dir, 'migrations', named.at(-1)!), 'utf8') }).toEqual({ file, text: readFileSync(join(dir, file), 'utf8') })
  }
})

test("the budget buckets' thresholds are the app's (BUDGET_THRESHOLDS) and put a budget where width_bucket does", async () => {
  const file = readFileSync(join(import.meta.dir, '../../db/pg/budget_counts.sql'), 'utf8')
  const literal = /width_bucket\(budget, '\{([\d,]+)\}'/.exec(file)
  expect(literal?.[1]?.split(',').map(Number)).toEqual(BUDGET_THRESHOLDS)
  const probes = [0, 999.5, 1000, 1121, 1122, 1122.5, 140000, 89962000, 999999999999, 1e12, 2e12]
  const found = await db.all<{ b: number }>(`select brokernet_budget_bucket(x) as b from unnest(?::float8[]) with ordinality as p(x, i) order by i`, [`{${probes.join(',')}}`])
  expect(found.map((r) => Number(r.b))).toEqual(probes.map((x) => BUDGET_THRESHOLDS.filter((t) => t <= x).length))
})

test('a list of ids is the same statement every time, and stays a list once the statement is known', async () => {
  const ids = idsIn('postgres', 'x', [3, 1, 2])
  // postgres.js learns a prepared statement's parameter types at its first run and encodes later values by them.
  for (let i = 0; i < 3; i++)
    expect((await db.all<{ x: number }>(`select x from (values (1), (2), (5)) v(x) where ${ids.sql} order by x`, ids.params)).map((r) => r.x)).toEqual([1, 2])
})

test('parameters written into the text mean what they meant as parameters', async () => {
  const sql = "select ? as a, ?::text as b, ?::int8 as c, ?::float8 as d, ? as e, ?::int is null as f, ? as g, ?2 as h, '?' as i -- ?\n"
  const values = ["it's", 'back\\slash $q$ and $q0$ ü 🏠', -42, 1.5e21, true, null, 12345678901234n]
  expect(inlined(sql, values)).not.toBeNull()
  expect(inlined('select ?, ?', [1])).toBeNull() // a value missing: sent as it is, and refused as before
  expect(inlined('select ?', [new Uint8Array([1])])).toBeNull()
  const prepared = await db.get<Record<string, unknown>>(sql, values)
  await db.tx(async (tx) => {
    await tx.get('select 1')
    // The transaction's second statement: its parameters go in its text.
    expect(await tx.get(sql, values)).toEqual(prepared!)
  })
  expect(prepared).toEqual({ a: "it's", b: 'back\\slash $q$ and $q0$ ü 🏠', c: -42, d: 1.5e21, e: true, f: true, g: 12345678901234, h: 'back\\slash $q$ and $q0$ ü 🏠', i: '?' })
})

test('a text with backslashes, quotes and dollar signs in every place stays one literal, its value whole', async () => {
  // A dollar-quoted literal was closed early by a text ending in the start of its tag (`\\$q` before `$q$`).
  const texts = ['ends \\$q', '\\', "\\'", "'\\", '$q$\\$q', '\\$', "x\\'; select 1; --", '$$\\$$']
  const sql = `select ${texts.map((_, i) => `?::text as t${i}`).join(', ')}, 'end' as tail`
  const asParameters = await db.all<Record<string, unknown>>(sql, texts)
  await db.tx(async (tx) => {
    await tx.get('select 1')
    expect(await tx.all<Record<string, unknown>>(sql, texts)).toEqual(asParameters)
  })
  expect(Object.values(asParameters[0]!)).toEqual([...texts, 'end'])
})

test("a transaction's statements after its first are never prepared (no describe round trip while it holds locks)", async () => {
  // postgres.js sends a statement new to its connection as Parse and Describe, and the rest only once their answer
  // has come back through the event loop: inside a transaction, a turn of a busy loop with the locks held.
  const marker = `probe_${Date.now()}`
  const seen = await db.tx(async (tx) => {
    await tx.get(`select ? as first_${marker}`, [1])
    tx.get(`select ? as second_${marker}`, [2])
    return tx.all<{ statement: string }>(`select statement from pg_prepared_statements where statement like ?`, [`%${marker}%`])
  })
  expect(seen.map((r) => r.statement.replace(/ as .*/, ''))).toEqual(['select $1'])
})

test('64-bit integers and sums come back as numbers', async () => {
  expect(await db.get('select count(*) as n, sum(x) as s, max(x) as m from (values (1::bigint), (2::bigint)) v(x)')).toEqual({ n: 2, s: 3, m: 2 })
})

describe('transactions', () => {
  test('a consistent one sees the database as of its first statement; a plain one sees each commit as it comes', async () => {
    await db.run('create table if not exists tx_probe (id integer primary key)')
    await db.run('delete from tx_probe')
    const seen = async (consistent: boolean) =>
      db.tx(async (tx) => {
        const before = (await tx.all('select id from tx_probe')).length
        await db.run('insert into tx_probe (id) values (?)', [before + 1]) // committed meanwhile, by another connection
        return [before, (await tx.all('select id from tx_probe')).length]
      }, { consistent })
    expect(await seen(true)).toEqual([0, 0])
    expect(await seen(false)).toEqual([1, 2])
  })

  test('two consistent ones taking the same row: the later fails as a conflict, and run again it finds the row gone', async () => {
    await db.run('create table if not exists tx_queue (id integer primary key)')
    await db.run('delete from tx_queue')
    await db.run('insert into tx_queue (id) values (1)')
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // Each step waits for the one before it, not for a time (issue 37): the first has the row, then the second its
    // snapshot, then the first commits.
    const firstTook = Promise.withResolvers<void>()
    const secondLooked = Promise.withResolvers<void>()
    const first = db.tx(async (tx) => {
      const taken = await tx.run('delete from tx_queue returning id')
      firstTook.resolve()
      await held
      return taken.changes
    }, { consistent: true })
    await firstTook.promise
    const second = db.tx(async (tx) => {
      await tx.get('select 1') // the snapshot: the row is still there
      secondLooked.resolve()
      return (await tx.run('delete from tx_queue returning id')).changes
    }, { consistent: true })
    await secondLooked.promise
    release()
    expect(await first).toBe(1)
    const failure = await second.then(() => null, (e: unknown) => e)
    expect(isConflict(failure)).toBe(true)
    expect(await db.tx(async (tx) => (await tx.run('delete from tx_queue returning id')).changes, { consistent: true })).toBe(0)
  })
})

describe('search', () => {
  test('an entry-ID fragment finds its listing by its parts in sequence; an owner renamed is found by the new name', async () => {
    const city = (await seedPlace(db, ['Mumbai'])).cities[0]!.id
    const owner = await signIn(db, 'BROKER', { cityId: city, fullName: 'Ravi Kumar' })
    const now = Date.now()
    const insert = (entry: string) =>
      db.run<{ id: number }>(
        `insert into listings (entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, date, owner_user_id, city_id, details, created_at, updated_at)
         values (?, 'REQ', 'SALE', '2 BHK', '9876543210', 'R', '2026-11-24', ?, ?, 'Sea-facing, 3rd floor', ?, ?) returning id`,
        [entry, owner.user.id, city, now, now],
      )
    const wanted = (await insert('REQ-MUM-000123')).rows[0]!.id
    await insert('REQ-PUN-000123')
    const found = async (search: string) => {
      const where = searchWhere({ search }, 'postgres')!
      return (await db.all<{ id: number }>(`select id from listings where ${where.sql}`, where.params)).map((r) => r.id)
    }
    expect(await found('MUM-0001')).toEqual([wanted])
    expect(await found('mum 0001')).toEqual([wanted])
    expect(await found('0001-MUM')).toEqual([])
    expect((await found('sea facing')).length).toBe(2)
    expect((await found('ravi')).length).toBe(2)
    await db.run('update users set full_name = ? where id = ?', ['Ravindra Kulkarni', owner.user.id])
    expect((await found('kulkarni')).length).toBe(2)
    expect(searchWhere({ search: ' - ' }, 'postgres')).toBeNull()
  })

  test('where the cache judges a search exactly on PostgreSQL (ASCII), PostgreSQL agrees with the judge', async () => {
    const city = (await seedPlace(db, ['Thane'])).cities[0]!.id
    const owner = await signIn(db, 'BROKER', { cityId: city, fullName: "Asha O'Brien-Rao" })
    const WORDS = ['Bandra-West', "O'Brien", '2BHK', '3.5', 'flat_no', 'a+b', 'x@y.com', 'http://a.b/c?d=1', 'MUM', '0042', 'Andheri', 'FLATS', 'co-op', '#12', 'café', 'Zürich']
    const SEARCHES = ['band', 'west', 'o', 'brien', '2bh', '3', '5', 'flat', 'no', 'x', 'com', 'http', 'mum', '004', 'andh', 'b', 'op', '12', 'cafe', 'zurich', 'asha', 'rao']
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    const now = Date.now()
    let judged = 0
    for (let i = 0; i < 40; i++) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ')
      const { id } = (await db.run<{ id: number }>(
        `insert into listings (entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, date, owner_user_id, city_id, details, created_at, updated_at)
         values (?, 'AVL', 'RENT', 'Flat', '9876543210', 'R', '2026-11-24', ?, ?, ?, ?, ?) returning id`,
        [`AVL-THA-${String(i).padStart(6, '0')}`, owner.user.id, city, text, now, now],
      )).rows[0]!
      const feedText = (await db.get<{ t: string }>('select brokernet_listing_json(l)->>\'text\' as t from listings l where id = ?', [id]))!.t
      for (const search of SEARCHES) {
        const change = { seq: 1, topic: 'listing' as const, before: null, after: { id, owner_user_id: owner.user.id, city_id: city, post_type: 'AVL', sale_or_rent: 'RENT', status: 'ACTIVE', property_type: 'Flat', date: '2026-11-24', text: feedText } }
        const master = { id: 0, role: 'MASTER_ADMIN' as const, cityId: null }
        const delta = countDelta(master, { search }, change, 'postgres')
        if (delta === null) continue
        judged++
        const where = searchWhere({ search }, 'postgres')!
        const found = !!(await db.get(`select 1 from listings where id = ? and ${where.sql}`, [id, ...where.params]))
        expect([search, feedText, delta === 1]).toEqual([search, feedText, found])
        expect(textMatches(ftsQuery(search)!.replace(/^\{[^}]*\} : /, ''), feedText)).toBe(found)
      }
    }
    expect(judged).toBeGreaterThan(500)
  })
})

describe('the change feed (notifications)', () => {
  test("another pool's commit reaches the listeners; a rolled-back one never does; a lost connection resets them", async () => {
    const feed = await PgFeed.start(url)
    const events: FeedEvent[] = []
    feed.subscribe((e) => events.push(e))
    const other = postgresDb(url, { max: 1 })
    const now = Date.now()
    await other.run("insert into countries (name, code, created_at, updated_at) values ('Feedland', 'FL', ?, ?)", [now, now])
    await other.tx(async (tx) => {
      await tx.run("insert into countries (name, code, created_at, updated_at) values ('Ghostland', 'GL', ?, ?)", [now, now])
      throw new Error('rolled back')
    }).catch(() => {})
    await feed.caughtUp()
    expect(events).toEqual([{ changes: [{ seq: 1, topic: 'geography', before: null, after: null, xid: expect.any(Number) }] }])
    expect(feed.sync()).toBe(true)
    // The listening connection cut from the server side: nothing is trusted until it is back, and then all is reset.
    await other.run('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
    const deadline = Date.now() + 20_000
    while (!events.some((e) => 'reset' in e) && Date.now() < deadline) await Bun.sleep(20)
    expect(events.filter((e) => 'reset' in e).length).toBeGreaterThanOrEqual(1)
    while (!feed.sync() && Date.now() < deadline) await Bun.sleep(20)
    expect(feed.sync()).toBe(true)
    await other.close()
    feed.close()
  })

  test('a count read in a snapshot is adjusted by exactly the changes that snapshot did not see, whenever they arrive', async () => {
    const feed = await PgFeed.start(url)
    const pool = new PostgresDb(connectPostgres(url), feed)
    const other = postgresDb(url, { max: 2 }) // another instance: its writes reach this one as notifications only
    const cache = new SnapshotCache(feed)
    let n = 0
    const addCountry = () => {
      const now = Date.now()
      return other.run('insert into countries (name, code, created_at, updated_at) values (?, ?, ?, ?)', [`Snapland ${++n}`, `S${n}`, now, now])
    }
    const count = async (q: Queryable) => (await q.get<{ n: number }>('select count(*) as n from countries'))!.n
    let runs = 0
    let during: (() => Promise<void>) | null = null
    const read = (key = 'countries', db: Queryable = pool) =>
      cache.adjustable(
        key,
        db,
        async (q) => {
          runs++
          const found = await count(q)
          const write = during
          during = null
          await write?.()
          return found
        },
        (c) => c.topic === 'geography',
        (value) => value + 1, // each geography change here is one more country
      )
    // Committed after the snapshot and heard while it computed: applied before the answer is kept.
    during = async () => {
      await addCountry()
      await feed.caughtUp()
    }
    expect(await read()).toBe(await count(other))
    // Committed after it was kept: applied when heard; never computed again.
    await addCountry()
    await feed.caughtUp()
    expect(await read()).toBe(await count(other))
    expect(runs).toBe(1)
    // Committed just before a snapshot, heard before or after the answer is kept: counted once either way.
    for (let i = 0; i < 20; i++) {
      await addCountry()
      const key = `countries ${i}`
      await read(key)
      await feed.caughtUp()
      expect(await read(key)).toBe(await count(other))
    }
    // Inside another read's snapshot, a kept answer is newer than that snapshot: it is read again in it.
    const nested = await pool.readSnapshot(feed.seq, async (reader) => {
      await addCountry()
      await feed.caughtUp()
      return [await count(reader), await read('countries', reader)]
    })
    expect(nested.value[1]).toBe(nested.value[0])
    expect(await read()).toBe(await count(other))
    await other.close()
    await pool.close()
    feed.close()
  })
})

describe('the match drain: its reads first, then a short transaction under its lock (src/modules/matches/service.ts)', () => {
  test('a pair announced meanwhile, either way round, is not announced again; a listing queued again since it was read stays queued', async () => {
    const place = await seedPlace(db, ['Drainpur'])
    const city = place.cities[0]!.id
    const [asha, ravi] = [await signIn(db, 'BROKER', { cityId: city }), await signIn(db, 'BROKER', { cityId: city })]
    const row = (ownerUserId: number, postType: 'REQ' | 'AVL') =>
      insertListing(db, { entryId: `DRAIN-${postType}`, postType, saleOrRent: 'SALE', propertyType: 'Drain Kind', contactValue: '9876543210', contactName: 'D', date: '2026-11-24', ownerUserId, cityId: city })
    const wanted = await row(asha.user.id, 'REQ')
    const offered = await row(ravi.user.id, 'AVL')
    // A drain read that the post of `offered` makes a pair for Asha; before it took its lock, another drain announced
    // the same pair to Ravi (as from a write of `wanted`).
    await db.run('insert into listing_matches (listing_id, match_id, user_id, score, created_at) values (?, ?, ?, 50, 1)', [offered, wanted, ravi.user.id])
    expect(await db.tx((tx) => insertEntries(tx, [[wanted, offered, asha.user.id, 50, 2]]))).toEqual([])
    expect(await db.all('select listing_id as l, match_id as m from listing_matches where ? in (listing_id, match_id)', [wanted])).toEqual([{ l: offered, m: wanted }])
    // The queue as a drain read it; then `offered` written again before the drain's transaction took it.
    await queueListing(db, offered, 5)
    const read = (await readQueue(db)).filter((q) => q.id === offered)
    await queueListing(db, offered, 6)
    expect(await db.tx((tx) => takeQueuedAsRead(tx, read, [wanted]))).toEqual([])
    expect(await db.all('select queued_at as at from match_queue where listing_id = ?', [offered])).toEqual([{ at: 6 }])
    // Read again, it is taken.
    const again = (await readQueue(db)).filter((q) => q.id === offered)
    expect(await db.tx((tx) => takeQueuedAsRead(tx, again, [wanted]))).toEqual([offered])
    expect(await db.all('select listing_id from match_queue where listing_id = ?', [offered])).toEqual([])
  })
})
