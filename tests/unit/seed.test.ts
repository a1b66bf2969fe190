// The demo seed (db/seed/demo.ts), through the data layer like the app: on SQLite (a database in memory), and with
// BROKERNET_TEST_DATABASE=postgres on PostgreSQL (a database of its own per seed on the shared throwaway cluster). The
// seeds of the two backends are compared row for row in every run.
import { afterAll, describe, expect, test } from 'bun:test'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource, type DataSource } from '../../db/open'
import { seedDemoData, seedGeography, type DemoSeedOptions } from '../../db/seed/demo'
import type { Queryable } from '../../db/sql'
import { formatEntryId } from '../../src/shared/entry-id'
import { LOCATION_ZONES } from '../../src/shared/constants'
import { ON_POSTGRES } from '../support/app'
import { insertListing, insertUser, seedPlace } from '../support/fixtures'
import { clusterOfTests } from '../support/pg-cluster'

const NOW = new Date('2026-11-21T10:00:00Z')
const DAY_MS = 86_400_000

const opened: DataSource[] = []
const cluster = clusterOfTests()
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()))
  await cluster.release()
})

/** A new, migrated, empty database of the backend under test (or SQLite's, asked for by name). */
async function freshDatabase(backend: 'sqlite' | 'postgres' = ON_POSTGRES ? 'postgres' : 'sqlite'): Promise<Queryable> {
  const source =
    backend === 'postgres'
      ? await openDataSource({ databasePath: ':memory:', databaseUrl: await (await cluster.get()).createDatabase() })
      : sqliteSource(openDatabase(':memory:'))
  opened.push(source)
  return source.db
}

async function seeded(seed?: number, options: Partial<DemoSeedOptions> = {}, backend?: 'sqlite' | 'postgres') {
  const db = await freshDatabase(backend)
  const result = await seedDemoData(db, { passwordHash: 'x', listings: 300, now: NOW, seed, ...options })
  return { db, result }
}

type ListingRow = {
  id: number
  entryId: string
  postType: 'REQ' | 'AVL'
  saleOrRent: 'SALE' | 'RENT'
  propertyType: string
  contactValue: string
  contactName: string
  budget: number
  size: number
  location: string
  locality: string
  reference: string | null
  details: string
  comments: string | null
  status: string
  date: string
  ownerUserId: number
  cityId: number
  createdAt: number
  updatedAt: number
}
const LISTING_COLUMNS = `id, entry_id as "entryId", post_type as "postType", sale_or_rent as "saleOrRent", property_type as "propertyType",
  contact_value as "contactValue", contact_name as "contactName", budget, size, location, locality, reference, details, comments, status,
  date, owner_user_id as "ownerUserId", city_id as "cityId", created_at as "createdAt", updated_at as "updatedAt"`
const listingsOf = (db: Queryable) => db.all<ListingRow>(`select ${LISTING_COLUMNS} from listings order by id`)

type UserRow = {
  id: number
  email: string
  fullName: string
  phone: string
  role: string
  isActive: boolean
  registrationStatus: string
  rejectionReason: string | null
  idCardNumber: string | null
  cityId: number
  createdAt: number
  updatedAt: number
}
const usersOf = async (db: Queryable) =>
  (
    await db.all<UserRow>(
      `select id, email, full_name as "fullName", phone, role, is_active as "isActive", registration_status as "registrationStatus",
         rejection_reason as "rejectionReason", id_card_number as "idCardNumber", city_id as "cityId", created_at as "createdAt",
         updated_at as "updatedAt"
       from users order by id`,
    )
  ).map((u) => ({ ...u, isActive: Boolean(u.isActive) }))

const rows = async (db: Queryable, table: 'countries' | 'states' | 'cities' | 'listings') => (await db.get<{ n: number }>(`select count(*) as n from ${table}`))!.n
const geography = async (db: Queryable) => ({
  countries: await db.all('select id, name, code from countries order by id'),
  states: await db.all('select id, country_id, name, code from states order by id'),
  cities: await db.all('select id, state_id, name, newsco_region from cities order by id'),
})

describe('seedDemoData', async () => {
  // One seeded database serves the read-only checks; seeding is the slow part.
  const { db, result } = await seeded()
  const allListings = await listingsOf(db)
  const allUsers = await usersOf(db)
  const cityNames = new Map((await db.all<{ id: number; name: string }>('select id, name from cities')).map((c) => [c.id, c.name]))

  test('returned counts match the rows in the tables', async () => {
    expect(result.countries).toBe(await rows(db, 'countries'))
    expect(result.states).toBe(await rows(db, 'states'))
    expect(result.cities).toBe(await rows(db, 'cities'))
    expect(result.listings).toBe(300)
    expect(allListings).toHaveLength(300)
    expect(allUsers.filter((u) => u.role === 'MODULE_ADMIN')).toHaveLength(result.moduleAdmins)
    expect(allUsers.filter((u) => u.role === 'BROKER')).toHaveLength(result.brokers)
    expect(result.moduleAdmins).toBeGreaterThanOrEqual(5)
    expect(result.brokers).toBeGreaterThanOrEqual(20)
  })

  test('four countries, with unique well-formed state codes', async () => {
    expect((await db.all<{ code: string }>('select code from countries order by code')).map((c) => c.code)).toEqual(['AE', 'GB', 'IN', 'US'])
    for (const s of await db.all<{ code: string }>('select code from states')) expect(s.code).toMatch(/^[A-Z][A-Z-]{1,9}$/)
  })

  test("every entry_id is formatEntryId of the listing's post type, city and id", () => {
    for (const l of allListings) expect(l.entryId).toBe(formatEntryId(l.postType, cityNames.get(l.cityId)!, l.id))
  })

  test('every zone, post type and deal type occurs', () => {
    expect(new Set(allListings.map((l) => l.location))).toEqual(new Set(LOCATION_ZONES))
    expect(new Set(allListings.map((l) => l.postType))).toEqual(new Set(['REQ', 'AVL']))
    expect(new Set(allListings.map((l) => l.saleOrRent))).toEqual(new Set(['SALE', 'RENT']))
  })

  test("a listing's zone follows its locality: one zone per locality of a city, past the first rows that show every zone", () => {
    const zonesOf = new Map<string, Set<string>>()
    for (const l of allListings.filter((l) => l.id >= allListings[0]!.id + LOCATION_ZONES.length)) {
      const key = `${l.cityId} ${l.locality}`
      zonesOf.set(key, (zonesOf.get(key) ?? new Set()).add(l.location))
    }
    expect(zonesOf.size).toBeGreaterThan(20)
    expect([...zonesOf].filter(([, zones]) => zones.size > 1)).toEqual([])
  })

  test('approvals screens have pending and rejected applicants, both inactive', () => {
    const pending = allUsers.filter((u) => u.registrationStatus === 'PENDING')
    const rejected = allUsers.filter((u) => u.registrationStatus === 'REJECTED')
    expect(pending.length).toBeGreaterThanOrEqual(1)
    expect(rejected.length).toBeGreaterThanOrEqual(1)
    for (const u of [...pending, ...rejected]) expect(u.isActive).toBe(false)
    for (const u of rejected) expect(u.rejectionReason).toBeTruthy()
  })

  test("every listing belongs to an approved broker, in the broker's city", () => {
    const byId = new Map(allUsers.map((u) => [u.id, u]))
    for (const l of allListings) {
      const owner = byId.get(l.ownerUserId)!
      expect(owner.role).toBe('BROKER')
      expect(owner.registrationStatus).toBe('APPROVED')
      expect(l.cityId).toBe(owner.cityId)
      expect(l.contactName).toBe(owner.fullName)
      expect([owner.phone, owner.email]).toContain(l.contactValue)
    }
  })

  test('budgets, sizes and dates stay in their ranges', () => {
    for (const l of allListings) {
      const [min, max] = l.saleOrRent === 'SALE' ? [2_000_000, 90_000_000] : [15_000, 500_000]
      expect(l.budget).toBeGreaterThanOrEqual(min)
      expect(l.budget).toBeLessThanOrEqual(max)
      expect(l.budget % 1000).toBe(0)
      expect(l.size).toBeGreaterThanOrEqual(300)
      expect(l.size).toBeLessThanOrEqual(10_000)
      expect(l.createdAt).toBeLessThanOrEqual(NOW.getTime())
      expect(l.createdAt).toBeGreaterThanOrEqual(NOW.getTime() - 120 * DAY_MS)
      expect(l.date).toBe(new Date(l.createdAt).toISOString().slice(0, 10))
    }
    expect(allListings.some((l) => l.date === '2026-11-21')).toBe(true)
  })

  test('the kept counts hold the seeded listings (the triggers ran for every row)', async () => {
    const kept = await db.get<{ n: number }>("select sum(n) as n from listing_counts where city_id = 0 and status = 'ACTIVE'")
    expect(Number(kept!.n)).toBe(allListings.filter((l) => l.status === 'ACTIVE').length)
  })

  test('running seedGeography again inserts nothing', async () => {
    const before = [await rows(db, 'countries'), await rows(db, 'states'), await rows(db, 'cities')]
    expect(await seedGeography(db)).toEqual({ countries: 0, states: 0, cities: 0 })
    expect([await rows(db, 'countries'), await rows(db, 'states'), await rows(db, 'cities')]).toEqual(before)
  })
})

describe('seedDemoData determinism', () => {
  test('the same seed on two fresh databases gives identical listings', async () => {
    expect(await listingsOf((await seeded(7)).db)).toEqual(await listingsOf((await seeded(7)).db))
  })

  test('a different seed gives different listings', async () => {
    expect(await listingsOf((await seeded(7)).db)).not.toEqual(await listingsOf((await seeded(8)).db))
  })
})

describe('seedDemoData ids', () => {
  test('listing ids start past every id ever given, and a listing posted after the seed gets the next one', async () => {
    const db = await freshDatabase()
    const { cities } = await seedPlace(db, ['Nashik'])
    const owner = await insertUser(db, { email: 'owner@example.com', passwordHash: 'x', fullName: 'Owner', role: 'BROKER', cityId: cities[0]!.id })
    const listing = { entryId: 'X-1', postType: 'REQ', saleOrRent: 'SALE', propertyType: 'Plot', contactValue: '+919800000000', contactName: 'Owner', date: '2026-11-21', ownerUserId: owner.id, cityId: cities[0]!.id } as const
    const gone = await insertListing(db, listing)
    await db.run('delete from listings where id = ?', [gone])

    await seedDemoData(db, { passwordHash: 'x', listings: 20, now: NOW })
    expect((await listingsOf(db)).map((l) => l.id)).toEqual(Array.from({ length: 20 }, (_, i) => gone + 1 + i))
    // The backend's own id for the next insert (AUTOINCREMENT's mark, PostgreSQL's identity sequence) moved past them.
    expect(await insertListing(db, { ...listing, entryId: 'X-2' })).toBe(gone + 21)
  })
})

describe('the demo on PostgreSQL', () => {
  test('is the same as on SQLite: geography, people and listings, row for row, ids included', async () => {
    const [pg, lite] = [await seeded(3, {}, 'postgres'), await seeded(3, {}, 'sqlite')]
    expect(pg.result).toEqual(lite.result)
    expect(await geography(pg.db)).toEqual(await geography(lite.db))
    expect(await usersOf(pg.db)).toEqual(await usersOf(lite.db))
    expect(await listingsOf(pg.db)).toEqual(await listingsOf(lite.db))
  })
})
