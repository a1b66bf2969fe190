// SQLite's derived data is defined once, in readable files (docs/decisions/014-derived-data-files.md): db/sqlite/derived.sql
// (kept counts, the inbox's live flag), search.sql (the FTS5 indexes) and feed.sql (the change feed). Each is applied
// by a custom migration that is the file word for word; after every migration, the database holds exactly the
// triggers the files define, as they define them; and a database filled before the files existed keeps its counts.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { embeddedMigrations } from '../../db/migrate'
import { migrationFiles, migrationJournal } from '../../db/migrations'
import { sqliteDb } from '../../db/sqlite'
import { KEPT, kept, recounted } from '../support/kept-counts'
import { createUser, insertListing, seedPlace } from '../support/fixtures'

const FILES = ['derived', 'search', 'feed']
const text = (file: string) => readFileSync(join(import.meta.dir, '../../db/sqlite', `${file}.sql`), 'utf8')

/** A file's statements as drizzle splits them, without the comments before each (SQLite keeps none of those). */
const statements = (sql: string) => sql.split('--> statement-breakpoint').map((s) => s.replace(/^(\s*--.*\n)*/, '').trim())

/** What a file creates, by name: each CREATE statement as sqlite_master keeps it (no closing semicolon). */
function defined(file: string): Map<string, string> {
  const creates = new Map<string, string>()
  const all = statements(text(file))
  expect({ file, statements: all.length % 2 }).toEqual({ file, statements: 0 })
  for (let i = 0; i < all.length; i += 2) {
    // Pairs: DROP … IF EXISTS x, then CREATE … x, so the file applies over a database that has x or not.
    const drop = all[i]!.match(/^DROP (TRIGGER|VIEW) IF EXISTS `(\w+)`;$/)
    const create = all[i + 1]!.match(/^CREATE (TRIGGER|VIEW) `(\w+)`[^]*;$/)
    expect({ file, drop: drop?.slice(1), create: create?.slice(1) }).toEqual({ file, drop: create?.slice(1), create: drop?.slice(1) })
    creates.set(drop![2]!, all[i + 1]!.replace(/;$/, ''))
  }
  return creates
}

const inDatabase = (db: Database) =>
  new Map(db.$client.query<{ name: string; sql: string }, []>("select name, sql from sqlite_master where type in ('trigger', 'view') order by name").all().map((r) => [r.name, r.sql]))

/** Every trigger and view the files define, exactly as they define it, and nothing else. */
function expectFilesDefineEverything(db: Database) {
  const files = new Map(FILES.flatMap((f) => [...defined(f)]))
  expect(Object.fromEntries(inDatabase(db))).toEqual(Object.fromEntries(files))
}

const dir = mkdtempSync(join(tmpdir(), 'brokernet-sqlite-derived-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('derived data in readable files (db/sqlite/*.sql)', () => {
  test('the newest migration named after each file is the file word for word', () => {
    for (const file of FILES) {
      const named = migrationJournal.entries.filter((e) => e.tag.replace(/^\d+_/, '') === file)
      expect({ file, migrations: named.length > 0 }).toEqual({ file, migrations: true })
      expect({ file, text: migrationFiles[named.at(-1)!.tag] }).toEqual({ file, text: text(file) })
    }
  })

  test('a new database holds exactly the triggers the files define, as they define them; applying a file again changes nothing', () => {
    const db = openDatabase(':memory:')
    try {
      expectFilesDefineEverything(db)
      const before = inDatabase(db)
      for (const file of FILES) for (const s of statements(text(file))) db.$client.run(s)
      expect(inDatabase(db)).toEqual(before)
    } finally {
      closeDatabase(db)
    }
  })

  test('a database with listings from before the files keeps its counts, its search index and its feed through the migration and after', async () => {
    const path = join(dir, 'before.db')
    const old = openDatabase(path, { migrate: false })
    // Every migration before the first readable file's, as a database of that time had them.
    const first = migrationJournal.entries.findIndex((e) => e.tag === '0023_derived')
    ;(old as any).dialect.migrate(embeddedMigrations({ entries: migrationJournal.entries.slice(0, first) }), (old as any).session)
    expect(inDatabase(old).size).toBeGreaterThan(30)

    const place = await seedPlace(old, ['Mumbai', 'Pune', 'Nagpur'])
    const cities = place.cities.map((c) => c.id)
    const owners = await Promise.all([1, 2, 3].map((i) => createUser(old, { email: `derived-${i}@example.com`, fullName: `Broker ${i}`, cityId: cities[i % 3] })))
    const STATUSES = ['ACTIVE', 'ACTIVE', 'ON_HOLD', 'SUSPENDED', 'CLOSED'] as const
    const ZONES = [null, 'North', 'South', 'Central'] as const
    const TYPES = ['2 BHK', '2bhk', 'Villa', 'Office Space']
    const DATES = ['2026-11-01', '2026-11-02', '2026-11-20']
    let id = 0
    const listing = (i: number) => ({
      // Ids leap ahead so listings fall into several blocks of 1,024.
      id: (id += 1 + ((i * 389) % 700)),
      entryId: `OLD-${i}`,
      postType: i % 2 ? ('REQ' as const) : ('AVL' as const),
      saleOrRent: i % 3 ? ('SALE' as const) : ('RENT' as const),
      propertyType: TYPES[i % TYPES.length]!,
      contactValue: '9876543210',
      contactName: 'Old',
      location: ZONES[i % ZONES.length],
      locality: 'Riverside',
      status: STATUSES[i % STATUSES.length],
      date: DATES[i % DATES.length]!,
      ownerUserId: owners[i % owners.length]!.id,
      cityId: cities[(i * 7) % cities.length]!,
    })
    for (let i = 0; i < 40; i++) await insertListing(old, listing(i))
    const q = sqliteDb(old)
    await q.run("update listings set status = 'SUSPENDED', city_id = ? where id % 3 = 0", [cities[0]!])
    await q.run('delete from listings where id % 5 = 0')
    await q.close()
    closeDatabase(old)

    // Started as the program starts: the rest of the migrations, then the same triggers as a new database's.
    const db = openDatabase(path)
    const sq = sqliteDb(db)
    try {
      expectFilesDefineEverything(db)
      const expectCountsFromRows = async (when: string) => {
        for (const table of Object.keys(KEPT)) expect({ when, table, rows: await kept(sq, table) }).toEqual({ when, table, rows: await recounted(sq, table) })
        expect({ when, fts: await sq.all('select rowid as id from listings_fts order by rowid') }).toEqual({ when, fts: await sq.all('select id from listings order by id') })
        expect({ when, suspended: await sq.all('select rowid as id from listings_fts_suspended order by rowid') }).toEqual({
          when,
          suspended: await sq.all("select id from listings where status = 'SUSPENDED' order by id"),
        })
      }
      await expectCountsFromRows('after migrating')

      // The recreated triggers keep rows written before them.
      const seq = async () => (await sq.get<{ seq: number }>('select max(seq) as seq from change_feed'))!.seq
      const feedBefore = await seq()
      for (let i = 40; i < 50; i++) await insertListing(db, listing(i))
      await sq.run("update listings set status = 'ACTIVE', location = 'North', property_type = 'VILLA' where id % 4 = 1")
      await sq.run("update listings set city_id = ?, date = '2026-11-21', owner_user_id = ? where id % 4 = 2", [cities[2]!, owners[0]!.id])
      await sq.run("update listings set status = 'SUSPENDED' where id % 4 = 3")
      await sq.run('delete from listings where id % 7 = 0')
      await sq.run("update users set full_name = 'Renamed Broker' where id = ?", [owners[1]!.id])
      await expectCountsFromRows('after writes')
      expect(await seq()).toBeGreaterThan(feedBefore)
      const renamed = await sq.all<{ id: number }>("select rowid as id from listings_fts where listings_fts match 'renamed' order by rowid")
      expect(renamed).toEqual(await sq.all('select id from listings where owner_user_id = ? order by id', [owners[1]!.id]))
    } finally {
      await sq.close()
      closeDatabase(db)
    }
  })
})
