import { UniqueViolation } from '../../../db/faults'
import type { Queryable } from '../../../db/sql'
import { conflict, fieldError, forbidden, notFound } from '../../platform/errors'
import { LIMITS } from '../../shared/constants'
import { recordAudit, type AuditActor } from '../audit/service'
import { scopeOf, type ScopeActor } from '../../platform/policy/scope'
import type { City, CityBody, Country, CountryBody, CountryTree, ListingExpiry, ListingExpiryBody, State, StateBody } from './model'
import { usersInCity } from '../users/store'
import { listingsInCity } from '../listings/store'
import {
  citiesIn,
  citiesOfCountry,
  cityExpiry,
  cityNamed,
  cityRow,
  countryCoded,
  countryNamed,
  countryRow,
  deleteCityRow,
  deleteCountryRow,
  deleteStateRow,
  insertCity,
  insertCountry,
  insertState,
  listCities,
  listCountries,
  listStates,
  setCityExpiry,
  stateCoded,
  stateNamed,
  stateRow,
  statesIn,
  updateCityRow,
  updateCountryRow,
  updateStateRow,
} from './store'

// ---- reading ------------------------------------------------------------------------------------------------

export { listCities, listCountries, listStates } from './store'

export async function getCountry(db: Queryable, id: number): Promise<Country> {
  const row = await countryRow(db, id)
  if (!row) throw notFound('Country not found')
  return row
}

export async function getState(db: Queryable, id: number): Promise<State> {
  const row = await stateRow(db, id)
  if (!row) throw notFound('State not found')
  return row
}

export async function getCity(db: Queryable, id: number): Promise<City> {
  const row = await cityRow(db, id)
  if (!row) throw notFound('City not found')
  return row
}

/** Countries with their states and cities nested, in three queries whatever the size of the map. */
export async function getHierarchy(db: Queryable, countryId?: number): Promise<CountryTree[]> {
  const countryRows = countryId ? [await getCountry(db, countryId)] : await listCountries(db)
  const stateRows = await listStates(db, countryId)
  const cityRows = countryId ? await citiesOfCountry(db, countryId) : await listCities(db)
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

// ---- countries ----------------------------------------------------------------------------------------------

// The uniqueness checks leave out the row being updated; `id <> 0` leaves out none (ids start at 1).

/**
 * `write`, whose uniqueness check ran inside it. Two requests racing with the same name both pass the check on
 * PostgreSQL (neither sees the other's row before it commits) and the unique index refuses the later insert (issue 29):
 * the check run again, now that the other has committed, says which in its own words. If it finds nothing (the other
 * row is gone again), the data layer's 409 stands.
 */
async function checkedAgain<T>(write: () => Promise<T>, check: () => Promise<unknown>): Promise<T> {
  try {
    return await write()
  } catch (e) {
    if (e instanceof UniqueViolation) await check()
    throw e
  }
}

async function assertCountryFree(db: Queryable, name: string, code: string, exceptId = 0) {
  const byName = await countryNamed(db, name, exceptId)
  if (byName) throw conflict(`A country named "${byName.name}" already exists`)
  const byCode = await countryCoded(db, code, exceptId)
  if (byCode) throw conflict(`Country code "${code}" is already used by ${byCode.name}`)
}

export async function createCountry(db: Queryable, actor: AuditActor, body: CountryBody): Promise<Country> {
  const name = cleanName(body.name)
  const code = cleanCode(body.code)
  return checkedAgain(() => db.tx(async (tx) => {
    await assertCountryFree(tx, name, code)
    const row = await insertCountry(tx, name, code, Date.now())
    await recordAudit(tx, { actor, action: 'country.create', entityType: 'country', entityId: row.id, after: row })
    return row
  }), () => assertCountryFree(db, name, code))
}

export async function updateCountry(db: Queryable, actor: AuditActor, id: number, body: CountryBody): Promise<Country> {
  const name = cleanName(body.name)
  const code = cleanCode(body.code)
  return checkedAgain(() => db.tx(async (tx) => {
    const before = await getCountry(tx, id)
    await assertCountryFree(tx, name, code, id)
    const row = await updateCountryRow(tx, id, name, code, Date.now())
    await recordAudit(tx, { actor, action: 'country.update', entityType: 'country', entityId: id, before, after: row })
    return row
  }), () => assertCountryFree(db, name, code, id))
}

export async function deleteCountry(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  await db.tx(async (tx) => {
    const before = await getCountry(tx, id)
    const stateCount = await statesIn(tx, id)
    if (stateCount > 0)
      throw conflict(`Cannot delete "${before.name}": it still has ${plural(stateCount, 'state')}. Delete or move them first.`)
    await deleteCountryRow(tx, id)
    await recordAudit(tx, { actor, action: 'country.delete', entityType: 'country', entityId: id, before })
  })
}

// ---- states -------------------------------------------------------------------------------------------------

async function assertStateFree(db: Queryable, countryId: number, name: string, code: string, exceptId = 0) {
  const byName = await stateNamed(db, countryId, name, exceptId)
  if (byName) throw conflict(`A state named "${byName.name}" already exists in ${(await getCountry(db, countryId)).name}`)
  const byCode = await stateCoded(db, code, exceptId)
  if (byCode) throw conflict(`State code "${code}" is already used by ${byCode.name}`)
}

async function existingCountry(db: Queryable, countryId: number) {
  const row = await countryRow(db, countryId)
  if (!row) throw fieldError('country_id', 'Country does not exist')
  return row
}

export async function createState(db: Queryable, actor: AuditActor, body: StateBody): Promise<State> {
  const name = cleanName(body.name)
  const code = cleanCode(body.code)
  const countryId = body.country_id
  return checkedAgain(() => db.tx(async (tx) => {
    await existingCountry(tx, countryId)
    await assertStateFree(tx, countryId, name, code)
    const row = await insertState(tx, name, code, countryId, Date.now())
    await recordAudit(tx, { actor, action: 'state.create', entityType: 'state', entityId: row.id, after: row })
    return row
  }), () => assertStateFree(db, countryId, name, code))
}

export async function updateState(db: Queryable, actor: AuditActor, id: number, body: StateBody): Promise<State> {
  const name = cleanName(body.name)
  const code = cleanCode(body.code)
  const countryId = body.country_id
  return checkedAgain(() => db.tx(async (tx) => {
    const before = await getState(tx, id)
    await existingCountry(tx, countryId)
    await assertStateFree(tx, countryId, name, code, id)
    const row = await updateStateRow(tx, id, name, code, countryId, Date.now())
    await recordAudit(tx, { actor, action: 'state.update', entityType: 'state', entityId: id, before, after: row })
    return row
  }), () => assertStateFree(db, countryId, name, code, id))
}

export async function deleteState(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  await db.tx(async (tx) => {
    const before = await getState(tx, id)
    const cityCount = await citiesIn(tx, id)
    if (cityCount > 0) throw conflict(`Cannot delete "${before.name}": it still has ${plural(cityCount, 'city', 'cities')}. Delete or move them first.`)
    await deleteStateRow(tx, id)
    await recordAudit(tx, { actor, action: 'state.delete', entityType: 'state', entityId: id, before })
  })
}

// ---- cities -------------------------------------------------------------------------------------------------

async function existingState(db: Queryable, stateId: number) {
  const row = await stateRow(db, stateId)
  if (!row) throw fieldError('state_id', 'State does not exist')
  return row
}

async function assertCityFree(db: Queryable, state: State, name: string, exceptId = 0) {
  const byName = await cityNamed(db, state.id, name, exceptId)
  if (byName) throw conflict(`A city named "${byName.name}" already exists in ${state.name}`)
}

export async function createCity(db: Queryable, actor: AuditActor, body: CityBody): Promise<City> {
  const name = cleanName(body.name)
  const stateId = body.state_id
  const region = cleanRegion(body.newsco_region)
  return checkedAgain(() => db.tx(async (tx) => {
    await assertCityFree(tx, await existingState(tx, stateId), name)
    const row = await insertCity(tx, name, stateId, region, Date.now())
    await recordAudit(tx, { actor, action: 'city.create', entityType: 'city', entityId: row.id, cityId: row.id, after: row })
    return row
  }), async () => assertCityFree(db, await existingState(db, stateId), name))
}

export async function updateCity(db: Queryable, actor: AuditActor, id: number, body: CityBody): Promise<City> {
  const name = cleanName(body.name)
  const stateId = body.state_id
  const region = cleanRegion(body.newsco_region)
  return checkedAgain(() => db.tx(async (tx) => {
    const before = await getCity(tx, id)
    await assertCityFree(tx, await existingState(tx, stateId), name, id)
    const row = await updateCityRow(tx, id, name, stateId, region, Date.now())
    await recordAudit(tx, { actor, action: 'city.update', entityType: 'city', entityId: id, cityId: id, before, after: row })
    return row
  }), async () => assertCityFree(db, await existingState(db, stateId), name, id))
}

export async function deleteCity(db: Queryable, actor: AuditActor, id: number): Promise<void> {
  await db.tx(async (tx) => {
    const before = await getCity(tx, id)
    const userCount = await usersInCity(tx, id)
    const listingCount = await listingsInCity(tx, id)
    if (userCount + listingCount > 0) {
      const uses = [userCount && plural(userCount, 'user'), listingCount && plural(listingCount, 'listing')].filter(Boolean).join(' and ')
      throw conflict(`Cannot delete "${before.name}": ${uses} still belong to it.`)
    }
    await deleteCityRow(tx, id)
    await recordAudit(tx, { actor, action: 'city.delete', entityType: 'city', entityId: id, cityId: id, before })
  })
}

/**
 * A city's listing expiry defaults (issue 17): how many days its RENT and SALE listings stay on the network after
 * posting or renewal. A master admin for any city, a module admin for their own (their `manage:listing` scope).
 */
export async function setListingExpiry(db: Queryable, actor: ScopeActor & { fullName: string }, cityId: number, body: ListingExpiryBody): Promise<ListingExpiry> {
  const city = await cityExpiry(db, cityId)
  if (!city) throw notFound('City not found')
  const scope = scopeOf(actor, 'listing', 'manage')
  if (scope.kind !== 'all' && !(scope.kind === 'city' && scope.cityId === cityId)) throw forbidden('You can only set the listing expiry of your own city')
  const after = { rent_days: body.rent_days, sale_days: body.sale_days }
  await db.tx(async (tx) => {
    await setCityExpiry(tx, cityId, after.rent_days, after.sale_days, Date.now())
    await recordAudit(tx, { actor: { id: actor.id, fullName: actor.fullName }, action: 'city.listing_expiry', entityType: 'city', entityId: cityId, cityId, before: city, after })
  })
  return { city_id: cityId, ...after }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
