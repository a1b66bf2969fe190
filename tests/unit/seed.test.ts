import { describe, expect, test } from 'bun:test'
import { asc, count } from 'drizzle-orm'
import { openDatabase, type Database } from '../../db/client'
import { cities, countries, listings, states, users } from '../../db/schema'
import { seedDemoData, seedGeography } from '../../db/seed/demo'
import { formatEntryId } from '../../src/modules/listings/entry-id'
import { LOCATION_ZONES } from '../../src/shared/constants'

const NOW = new Date('2026-11-21T10:00:00Z')
const DAY_MS = 86_400_000

function seeded(seed?: number): { db: Database; result: ReturnType<typeof seedDemoData> } {
  const db = openDatabase(':memory:')
  const result = seedDemoData(db, { passwordHash: 'x', listings: 300, now: NOW, seed })
  return { db, result }
}

const rows = (db: Database, table: typeof countries | typeof states | typeof cities | typeof listings) =>
  db.select({ n: count() }).from(table).get()!.n

describe('seedDemoData', () => {
  // One seeded database serves the read-only checks; seeding is the slow part.
  const { db, result } = seeded()
  const allListings = db.select().from(listings).orderBy(asc(listings.id)).all()
  const allUsers = db.select().from(users).all()
  const cityNames = new Map(db.select({ id: cities.id, name: cities.name }).from(cities).all().map((c) => [c.id, c.name]))

  test('returned counts match the rows in the tables', () => {
    expect(result.countries).toBe(rows(db, countries))
    expect(result.states).toBe(rows(db, states))
    expect(result.cities).toBe(rows(db, cities))
    expect(result.listings).toBe(300)
    expect(allListings).toHaveLength(300)
    expect(allUsers.filter((u) => u.role === 'MODULE_ADMIN')).toHaveLength(result.moduleAdmins)
    expect(allUsers.filter((u) => u.role === 'BROKER')).toHaveLength(result.brokers)
    expect(result.moduleAdmins).toBeGreaterThanOrEqual(5)
    expect(result.brokers).toBeGreaterThanOrEqual(20)
  })

  test('four countries, with unique well-formed state codes', () => {
    expect(db.select().from(countries).all().map((c) => c.code).sort()).toEqual(['AE', 'GB', 'IN', 'US'])
    for (const s of db.select().from(states).all()) expect(s.code).toMatch(/^[A-Z][A-Z-]{1,9}$/)
  })

  test("every entry_id is formatEntryId of the listing's post type, city and id", () => {
    for (const l of allListings) expect(l.entryId).toBe(formatEntryId(l.postType, cityNames.get(l.cityId)!, l.id))
  })

  test('every zone, post type and deal type occurs', () => {
    expect(new Set(allListings.map((l) => l.location))).toEqual(new Set(LOCATION_ZONES))
    expect(new Set(allListings.map((l) => l.postType))).toEqual(new Set(['REQ', 'AVL']))
    expect(new Set(allListings.map((l) => l.saleOrRent))).toEqual(new Set(['SALE', 'RENT']))
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
      expect(l.cityId).toBe(owner.cityId!)
      expect(l.contactName).toBe(owner.fullName)
      expect([owner.phone, owner.email]).toContain(l.contactValue)
    }
  })

  test('budgets, sizes and dates stay in their ranges', () => {
    for (const l of allListings) {
      const [min, max] = l.saleOrRent === 'SALE' ? [2_000_000, 90_000_000] : [15_000, 500_000]
      expect(l.budget!).toBeGreaterThanOrEqual(min)
      expect(l.budget!).toBeLessThanOrEqual(max)
      expect(l.budget! % 1000).toBe(0)
      expect(l.size!).toBeGreaterThanOrEqual(300)
      expect(l.size!).toBeLessThanOrEqual(10_000)
      expect(l.createdAt.getTime()).toBeLessThanOrEqual(NOW.getTime())
      expect(l.createdAt.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 120 * DAY_MS)
      expect(l.date).toBe(l.createdAt.toISOString().slice(0, 10))
    }
    expect(allListings.some((l) => l.date === '2026-11-21')).toBe(true)
  })

  test('running seedGeography again inserts nothing', () => {
    const before = [rows(db, countries), rows(db, states), rows(db, cities)]
    expect(seedGeography(db)).toEqual({ countries: 0, states: 0, cities: 0 })
    expect([rows(db, countries), rows(db, states), rows(db, cities)]).toEqual(before)
  })
})

describe('seedDemoData determinism', () => {
  const columns = (db: Database) =>
    db
      .select({
        id: listings.id,
        entryId: listings.entryId,
        propertyType: listings.propertyType,
        budget: listings.budget,
        locality: listings.locality,
        details: listings.details,
        ownerUserId: listings.ownerUserId,
        createdAt: listings.createdAt,
      })
      .from(listings)
      .orderBy(asc(listings.id))
      .all()

  test('the same seed on two fresh databases gives identical listings', () => {
    expect(columns(seeded(7).db)).toEqual(columns(seeded(7).db))
  })

  test('a different seed gives different listings', () => {
    expect(columns(seeded(7).db)).not.toEqual(columns(seeded(8).db))
  })
})
