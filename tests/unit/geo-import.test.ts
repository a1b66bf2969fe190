import { describe, expect, test } from 'bun:test'
import { and, count, eq } from 'drizzle-orm'
import { openDatabase, type Database } from '../../db/client'
import { auditEvents, cities, countries, states } from '../../db/schema'
import { importCountry } from '../../db/seed/geo-import'

const CODE = /^[A-Z0-9-]{2,10}$/

const rows = (db: Database, table: typeof countries | typeof states | typeof cities) =>
  db.select({ n: count() }).from(table).get()!.n

function withCountry(name: string, code: string): { db: Database; countryId: number } {
  const db = openDatabase(':memory:')
  const countryId = db.insert(countries).values({ name, code }).returning({ id: countries.id }).get().id
  return { db, countryId }
}

describe('importCountry', () => {
  test('imports AE: counts match the rows, codes are AE-prefixed, valid and unique', () => {
    const db = openDatabase(':memory:')
    const r = importCountry(db, 'AE')
    expect(r.country).toBe('United Arab Emirates (AE)')
    expect(r.countryCreated).toBe(true)
    expect(r.states).toEqual({ added: rows(db, states), existing: 0 })
    expect(r.cities).toEqual({ added: rows(db, cities), existing: 0 })
    expect(r.states.added).toBeGreaterThan(0)
    expect(r.cities.added).toBeGreaterThan(0)
    expect(r.skipped).toEqual([])

    const codes = db.select({ code: states.code }).from(states).all().map((s) => s.code)
    for (const code of codes) {
      expect(code.startsWith('AE-')).toBe(true)
      expect(code).toMatch(CODE)
    }
    expect(new Set(codes).size).toBe(codes.length)
    expect(db.select().from(cities).all().every((c) => c.newscoRegion === null)).toBe(true)

    const country = db.select().from(countries).get()!
    const audit = db.select().from(auditEvents).all()
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      action: 'geography.import',
      entityType: 'country',
      entityId: String(country.id),
      actorUserId: null,
      actorName: 'geo:import',
      after: { states_added: r.states.added, cities_added: r.cities.added },
    })
  })

  test('a second run adds nothing; a name finds the same country', () => {
    const db = openDatabase(':memory:')
    const first = importCountry(db, 'ae')
    const before = [rows(db, countries), rows(db, states), rows(db, cities)]
    const second = importCountry(db, 'united arab emirates')
    expect(second.country).toBe(first.country)
    expect(second.countryCreated).toBe(false)
    expect(second.states).toEqual({ added: 0, existing: first.states.added })
    expect(second.cities).toEqual({ added: 0, existing: first.cities.added })
    expect([rows(db, countries), rows(db, states), rows(db, cities)]).toEqual(before)
    expect(db.select().from(auditEvents).all().at(-1)!.after).toEqual({ states_added: 0, cities_added: 0 })
  })

  test('an unknown country throws, naming close matches', () => {
    const db = openDatabase(':memory:')
    expect(() => importCountry(db, 'Atlantis')).toThrow(/Unknown country "Atlantis"\. Closest: .+\(..\)/)
    expect(() => importCountry(db, 'Emirates')).toThrow(/United Arab Emirates \(AE\)/)
    expect(() => importCountry(db, 'United')).toThrow(/ambiguous: .*United Kingdom \(GB\)/)
    expect(rows(db, countries)).toBe(0)
  })

  test('a state already there by name is reused, keeps its code, and gets the cities', () => {
    const { db, countryId } = withCountry('United Arab Emirates', 'AE')
    const dubaiId = db.insert(states).values({ countryId, name: 'Dubai', code: 'DXB' }).returning({ id: states.id }).get().id
    // Lower-cased on purpose: names match case-insensitively, so the package's "Dubai" is this city.
    db.insert(cities).values({ stateId: dubaiId, name: 'dubai' }).run()
    const r = importCountry(db, 'AE')
    expect(r.countryCreated).toBe(false)
    expect(r.states.existing).toBe(1)
    expect(r.cities.existing).toBe(1)
    const dubai = db.select().from(states).all().filter((s) => s.name.toLowerCase() === 'dubai')
    expect(dubai).toEqual([expect.objectContaining({ id: dubaiId, code: 'DXB' })])
    const dubaiCities = db.select().from(cities).where(eq(cities.stateId, dubaiId)).all()
    expect(dubaiCities.filter((c) => c.name.toLowerCase() === 'dubai')).toHaveLength(1)
    expect(rows(db, cities)).toBe(r.cities.added + 1)
  })

  test('a state of this country holding the ISO code is the same state under another name', () => {
    // As the demo seed has it: "Abu Dhabi" AE-AZ, where the package says "Abu Dhabi Emirate" AZ.
    const { db, countryId } = withCountry('United Arab Emirates', 'AE')
    const abuDhabiId = db
      .insert(states)
      .values({ countryId, name: 'Abu Dhabi', code: 'AE-AZ' })
      .returning({ id: states.id })
      .get().id
    const r = importCountry(db, 'AE')
    expect(r.states.existing).toBe(1)
    expect(db.select().from(states).where(eq(states.name, 'Abu Dhabi Emirate')).all()).toEqual([])
    expect(db.select({ n: count() }).from(cities).where(eq(cities.stateId, abuDhabiId)).get()!.n).toBeGreaterThan(0)
  })

  test('states the package lists twice under one name merge into one (Taiwan)', () => {
    const db = openDatabase(':memory:')
    const r = importCountry(db, 'TW')
    expect(r.states).toEqual({ added: rows(db, states), existing: 0 })
    expect(r.cities.added).toBe(rows(db, cities))
    const chiayi = db.select().from(states).where(eq(states.name, 'Chiayi')).all()
    expect(chiayi).toHaveLength(1)
    // Cities of both package states (CYI and CYQ) end up under the one row.
    const names = db.select({ name: cities.name }).from(cities).where(eq(cities.stateId, chiayi[0]!.id)).all().map((c) => c.name)
    expect(names).toEqual(expect.arrayContaining(['Chiayi', 'Chiayi County']))
  })

  test("a code held by another country's state falls back to a unique valid code", () => {
    const { db, countryId: testland } = withCountry('Testland', 'TL')
    db.insert(states).values({ countryId: testland, name: 'Dubai Heights', code: 'AE-DU' }).run()
    importCountry(db, 'AE')
    const ae = db.select().from(countries).where(eq(countries.code, 'AE')).get()!
    const dubai = db.select().from(states).where(and(eq(states.countryId, ae.id), eq(states.name, 'Dubai'))).get()!
    expect(dubai.code).not.toBe('AE-DU')
    expect(dubai.code).toMatch(/^AE-\d+$/)
    expect(dubai.code).toMatch(CODE)
    expect(dubai.code.startsWith('AE')).toBe(true)
    const codes = db.select({ code: states.code }).from(states).all().map((s) => s.code)
    expect(new Set(codes).size).toBe(codes.length)
  })
})
