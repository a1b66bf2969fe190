import { and, asc, count, eq, ne, sql } from 'drizzle-orm'
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Database } from '../../../db/client'
import { cities, countries, listings, states, users } from '../../../db/schema'
import { conflict, fieldError, notFound } from '../../http/errors'
import { LIMITS } from '../../shared/constants'
import { recordAudit, type AuditActor } from '../audit/service'
import type { City, CityBody, Country, CountryBody, CountryTree, State, StateBody } from './model'

const countryCols = { id: countries.id, name: countries.name, code: countries.code }
const stateCols = { id: states.id, name: states.name, code: states.code, country_id: states.countryId }
const cityCols = { id: cities.id, name: cities.name, state_id: cities.stateId, newsco_region: cities.newscoRegion, match_tolerance: cities.matchTolerance }

// ---- reading ------------------------------------------------------------------------------------------------

export const listCountries = (db: Database): Country[] => db.select(countryCols).from(countries).orderBy(asc(countries.name)).all()

export const listStates = (db: Database, countryId?: number): State[] =>
  db
    .select(stateCols)
    .from(states)
    .where(countryId ? eq(states.countryId, countryId) : undefined)
    .orderBy(asc(states.name))
    .all()

export const listCities = (db: Database, stateId?: number): City[] =>
  db
    .select(cityCols)
    .from(cities)
    .where(stateId ? eq(cities.stateId, stateId) : undefined)
    .orderBy(asc(cities.name))
    .all()

export function getCountry(db: Database, id: number): Country {
  const row = db.select(countryCols).from(countries).where(eq(countries.id, id)).get()
  if (!row) throw notFound('Country not found')
  return row
}

export function getState(db: Database, id: number): State {
  const row = db.select(stateCols).from(states).where(eq(states.id, id)).get()
  if (!row) throw notFound('State not found')
  return row
}

export function getCity(db: Database, id: number): City {
  const row = db.select(cityCols).from(cities).where(eq(cities.id, id)).get()
  if (!row) throw notFound('City not found')
  return row
}

/** Countries with their states and cities nested, in three queries whatever the size of the map. */
export function getHierarchy(db: Database, countryId?: number): CountryTree[] {
  const countryRows = countryId ? [getCountry(db, countryId)] : listCountries(db)
  const stateRows = listStates(db, countryId)
  const cityRows = countryId
    ? db.select(cityCols).from(cities).innerJoin(states, eq(cities.stateId, states.id)).where(eq(states.countryId, countryId)).orderBy(asc(cities.name)).all()
    : listCities(db)
  const citiesByState = Map.groupBy(cityRows, (c) => c.state_id)
  const statesByCountry = Map.groupBy(
    stateRows.map((s) => ({ ...s, cities: citiesByState.get(s.id) ?? [] })),
    (s) => s.country_id,
  )
  return countryRows.map((c) => ({ ...c, states: statesByCountry.get(c.id) ?? [] }))
}

// ---- input clean-up the schema cannot do -------------------------------------------------------------------

function cleanName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ')
  if (!name) throw fieldError('name', 'Name is required')
  if (name.length < LIMITS.geoNameMin) throw fieldError('name', 'Name must be at least 2 characters')
  return name
}

function cleanCode(raw: string): string {
  const code = raw.trim().toUpperCase()
  if (!code) throw fieldError('code', 'Code is required')
  if (code.length < LIMITS.geoCodeMin) throw fieldError('code', 'Code must be at least 2 characters')
  return code
}

const cleanRegion = (raw: string | null | undefined) => raw?.trim().replace(/\s+/g, ' ') || null

const sameName = (column: AnySQLiteColumn, name: string) => sql`lower(${column}) = lower(${name})`
const notId = (column: AnySQLiteColumn, id?: number) => (id ? ne(column, id) : undefined)

// ---- countries ----------------------------------------------------------------------------------------------

function assertCountryFree(db: Database, name: string, code: string, exceptId?: number) {
  const byName = db.select(countryCols).from(countries).where(and(sameName(countries.name, name), notId(countries.id, exceptId))).get()
  if (byName) throw conflict(`A country named "${byName.name}" already exists`)
  const byCode = db.select(countryCols).from(countries).where(and(eq(countries.code, code), notId(countries.id, exceptId))).get()
  if (byCode) throw conflict(`Country code "${code}" is already used by ${byCode.name}`)
}

export function createCountry(db: Database, actor: AuditActor, body: CountryBody): Country {
  const values = { name: cleanName(body.name), code: cleanCode(body.code) }
  return db.transaction((tx) => {
    assertCountryFree(db, values.name, values.code)
    const row = tx.insert(countries).values(values).returning(countryCols).get()
    recordAudit(tx, { actor, action: 'country.create', entityType: 'country', entityId: row.id, after: row })
    return row
  })
}

export function updateCountry(db: Database, actor: AuditActor, id: number, body: CountryBody): Country {
  const values = { name: cleanName(body.name), code: cleanCode(body.code) }
  return db.transaction((tx) => {
    const before = getCountry(db, id)
    assertCountryFree(db, values.name, values.code, id)
    const row = tx.update(countries).set({ ...values, updatedAt: new Date() }).where(eq(countries.id, id)).returning(countryCols).get()!
    recordAudit(tx, { actor, action: 'country.update', entityType: 'country', entityId: id, before, after: row })
    return row
  })
}

export function deleteCountry(db: Database, actor: AuditActor, id: number): void {
  db.transaction((tx) => {
    const before = getCountry(db, id)
    const stateCount = db.select({ n: count() }).from(states).where(eq(states.countryId, id)).get()!.n
    if (stateCount > 0)
      throw conflict(`Cannot delete "${before.name}": it still has ${plural(stateCount, 'state')}. Delete or move them first.`)
    tx.delete(countries).where(eq(countries.id, id)).run()
    recordAudit(tx, { actor, action: 'country.delete', entityType: 'country', entityId: id, before })
  })
}

// ---- states -------------------------------------------------------------------------------------------------

function assertStateFree(db: Database, countryId: number, name: string, code: string, exceptId?: number) {
  const byName = db
    .select(stateCols)
    .from(states)
    .where(and(eq(states.countryId, countryId), sameName(states.name, name), notId(states.id, exceptId)))
    .get()
  if (byName) throw conflict(`A state named "${byName.name}" already exists in ${getCountry(db, countryId).name}`)
  const byCode = db.select(stateCols).from(states).where(and(eq(states.code, code), notId(states.id, exceptId))).get()
  if (byCode) throw conflict(`State code "${code}" is already used by ${byCode.name}`)
}

function existingCountry(db: Database, countryId: number) {
  const row = db.select(countryCols).from(countries).where(eq(countries.id, countryId)).get()
  if (!row) throw fieldError('country_id', 'Country does not exist')
  return row
}

export function createState(db: Database, actor: AuditActor, body: StateBody): State {
  const values = { name: cleanName(body.name), code: cleanCode(body.code), countryId: body.country_id }
  return db.transaction((tx) => {
    existingCountry(db, values.countryId)
    assertStateFree(db, values.countryId, values.name, values.code)
    const row = tx.insert(states).values(values).returning(stateCols).get()
    recordAudit(tx, { actor, action: 'state.create', entityType: 'state', entityId: row.id, after: row })
    return row
  })
}

export function updateState(db: Database, actor: AuditActor, id: number, body: StateBody): State {
  const values = { name: cleanName(body.name), code: cleanCode(body.code), countryId: body.country_id }
  return db.transaction((tx) => {
    const before = getState(db, id)
    existingCountry(db, values.countryId)
    assertStateFree(db, values.countryId, values.name, values.code, id)
    const row = tx.update(states).set({ ...values, updatedAt: new Date() }).where(eq(states.id, id)).returning(stateCols).get()!
    recordAudit(tx, { actor, action: 'state.update', entityType: 'state', entityId: id, before, after: row })
    return row
  })
}

export function deleteState(db: Database, actor: AuditActor, id: number): void {
  db.transaction((tx) => {
    const before = getState(db, id)
    const cityCount = db.select({ n: count() }).from(cities).where(eq(cities.stateId, id)).get()!.n
    if (cityCount > 0) throw conflict(`Cannot delete "${before.name}": it still has ${plural(cityCount, 'city', 'cities')}. Delete or move them first.`)
    tx.delete(states).where(eq(states.id, id)).run()
    recordAudit(tx, { actor, action: 'state.delete', entityType: 'state', entityId: id, before })
  })
}

// ---- cities -------------------------------------------------------------------------------------------------

function existingState(db: Database, stateId: number) {
  const row = db.select(stateCols).from(states).where(eq(states.id, stateId)).get()
  if (!row) throw fieldError('state_id', 'State does not exist')
  return row
}

function assertCityFree(db: Database, state: State, name: string, exceptId?: number) {
  const byName = db
    .select(cityCols)
    .from(cities)
    .where(and(eq(cities.stateId, state.id), sameName(cities.name, name), notId(cities.id, exceptId)))
    .get()
  if (byName) throw conflict(`A city named "${byName.name}" already exists in ${state.name}`)
}

export function createCity(db: Database, actor: AuditActor, body: CityBody): City {
  const values = { name: cleanName(body.name), stateId: body.state_id, newscoRegion: cleanRegion(body.newsco_region) }
  return db.transaction((tx) => {
    assertCityFree(db, existingState(db, values.stateId), values.name)
    const row = tx.insert(cities).values(values).returning(cityCols).get()
    recordAudit(tx, { actor, action: 'city.create', entityType: 'city', entityId: row.id, cityId: row.id, after: row })
    return row
  })
}

export function updateCity(db: Database, actor: AuditActor, id: number, body: CityBody): City {
  const values = { name: cleanName(body.name), stateId: body.state_id, newscoRegion: cleanRegion(body.newsco_region) }
  return db.transaction((tx) => {
    const before = getCity(db, id)
    assertCityFree(db, existingState(db, values.stateId), values.name, id)
    const row = tx.update(cities).set({ ...values, updatedAt: new Date() }).where(eq(cities.id, id)).returning(cityCols).get()!
    recordAudit(tx, { actor, action: 'city.update', entityType: 'city', entityId: id, cityId: id, before, after: row })
    return row
  })
}

export function deleteCity(db: Database, actor: AuditActor, id: number): void {
  db.transaction((tx) => {
    const before = getCity(db, id)
    const userCount = db.select({ n: count() }).from(users).where(eq(users.cityId, id)).get()!.n
    const listingCount = db.select({ n: count() }).from(listings).where(eq(listings.cityId, id)).get()!.n
    if (userCount + listingCount > 0) {
      const uses = [userCount && plural(userCount, 'user'), listingCount && plural(listingCount, 'listing')].filter(Boolean).join(' and ')
      throw conflict(`Cannot delete "${before.name}": ${uses} still belong to it.`)
    }
    tx.delete(cities).where(eq(cities.id, id)).run()
    recordAudit(tx, { actor, action: 'city.delete', entityType: 'city', entityId: id, cityId: id, before })
  })
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
