import type { Queryable } from '../../../db/sql'
import type { City, Country, State } from './model'

// The only SQL of the places (countries, states, cities): other features ask these functions, or compose the
// fragments below into their own queries (a listing's place names, the cities of a state), instead of naming the
// tables (issue 31, docs/decisions/033-feature-plugins.md "Stores").

/** A city's name, or null when there is no such city. */
export const cityName = async (db: Queryable, id: number): Promise<string | null> =>
  (await db.get<{ name: string }>('select name from cities where id = ?', [id]))?.name ?? null

/** Whether a city exists. */
export const cityExists = async (db: Queryable, id: number): Promise<boolean> => !!(await db.get('select id from cities where id = ?', [id]))

/** How many cities the network has. */
export const cityCount = async (db: Queryable): Promise<number> => Number((await db.get<{ n: number }>('select count(*) as n from cities'))!.n)

/** A city with its state's name (a registration's mail names both), or null. */
export const cityWithState = (db: Queryable, id: number) =>
  db.get<{ id: number; name: string; stateName: string }>(
    'select cities.id, cities.name, states.name as "stateName" from cities join states on states.id = cities.state_id where cities.id = ?',
    [id],
  )

/** A city's default stays for new listings (SPEC: rent and sale days), or null. */
export const cityStays = (db: Queryable, id: number) =>
  db.get<{ id: number; name: string; rent_days: number; sale_days: number }>('select id, name, rent_days, sale_days from cities where id = ?', [id])

/** A city's match tolerance (the budget and size range a match allows), or null. */
export const cityTolerance = (db: Queryable, id: number) =>
  db.get<{ id: number; name: string; match_tolerance: number }>('select id, name, match_tolerance from cities where id = ?', [id])

export const setCityTolerance = (tx: Queryable, id: number, percent: number, now: number) =>
  tx.run('update cities set match_tolerance = ?, updated_at = ? where id = ?', [percent, now, id])

/** The names of the places that still exist, by id (the audit trail's names). */
export async function placeNames(db: Queryable, kind: 'cities' | 'states' | 'countries', ids: number[]): Promise<{ id: number; name: string }[]> {
  const sql = { cities: 'select id, name from cities', states: 'select id, name from states', countries: 'select id, name from countries' }[kind]
  return db.all<{ id: number; name: string }>(`${sql} where id in (${ids.map(() => '?').join(', ')})`, ids)
}

// ---- fragments other features compose -------------------------------------------------------------------------

/** A condition on a city id column: the city lies in the state given as the parameter. */
export const inState = (cityId: string) => `${cityId} in (select id from cities where state_id = ?)`

/** A condition on a city id column: the city lies in the country given as the parameter. */
export const inCountry = (cityId: string) => `${cityId} in (select c.id from cities c join states s on s.id = c.state_id where s.country_id = ?)`

/** Names the place tables are joined under, for `placeJoins` and the columns read through them. */
export type PlaceAliases = { city: string; state: string; country: string }
export const PLACE_TABLES: PlaceAliases = { city: 'cities', state: 'states', country: 'countries' }

/** The names of a joined row's city, state and country, as the given columns (`cities.name as city_name, …`). */
export function placeColumns(as: Partial<Record<keyof PlaceAliases, string>>, a: PlaceAliases = PLACE_TABLES): string {
  return (['city', 'state', 'country'] as const)
    .filter((k) => as[k])
    .map((k) => `${a[k]}.name as ${as[k]}`)
    .join(', ')
}

/**
 * Joins a row's city, state and country by its city id column (`left` for rows that may have none), under the given
 * aliases: `join cities c on c.id = l.city_id join states s on …`.
 */
export function placeJoins(cityId: string, a: PlaceAliases = PLACE_TABLES, left = false): string {
  const join = left ? 'left join' : 'join'
  const as = (table: string, alias: string) => (alias === table ? table : `${table} ${alias}`)
  return `${join} ${as('cities', a.city)} on ${a.city}.id = ${cityId} ${join} ${as('states', a.state)} on ${a.state}.id = ${a.city}.state_id ${join} ${as('countries', a.country)} on ${a.country}.id = ${a.state}.country_id`
}

/** Joins a row's city by its city id column, under an alias: `join cities c on c.id = l.city_id`. */
export const joinCity = (cityId: string, alias = 'cities') => `join ${alias === 'cities' ? 'cities' : `cities ${alias}`} on ${alias}.id = ${cityId}`

/**
 * The ids of a joined row's state and country as the given columns (`cities.state_id as state_id, …`); an empty name
 * gives the bare column (for a condition).
 */
export function placeIds(as: { state?: string; country?: string }, a: PlaceAliases = PLACE_TABLES): string {
  const column = (expr: string, name: string) => (name ? `${expr} as ${name}` : expr)
  return [as.state !== undefined && column(`${a.city}.state_id`, as.state), as.country !== undefined && column(`${a.state}.country_id`, as.country)].filter(Boolean).join(', ')
}

/** How many countries there are (a brand-new database has none). */
export const countryCount = async (db: Queryable): Promise<number> => Number((await db.get<{ n: number }>('select count(*) as n from countries'))!.n)

// ---- the places themselves (./service.ts: their rules, checks and audit) -----------------------------------------

// The columns are named as the API names its fields, so rows go out as read.
const countryCols = 'id, name, code'
const stateCols = 'id, name, code, country_id'
const cityCols = 'id, name, state_id, newsco_region, match_tolerance, rent_days, sale_days'

// PostgreSQL answers count(*) as a bigint, in text: Number() on both.
const count = async (db: Queryable, sql: string, params: (string | number)[]) => Number((await db.get<{ n: number }>(sql, params))!.n)

export const listCountries = (db: Queryable): Promise<Country[]> => db.all<Country>(`select ${countryCols} from countries order by name`)

export const listStates = (db: Queryable, countryId?: number): Promise<State[]> =>
  countryId
    ? db.all<State>(`select ${stateCols} from states where country_id = ? order by name`, [countryId])
    : db.all<State>(`select ${stateCols} from states order by name`)

export const listCities = (db: Queryable, stateId?: number): Promise<City[]> =>
  stateId
    ? db.all<City>(`select ${cityCols} from cities where state_id = ? order by name`, [stateId])
    : db.all<City>(`select ${cityCols} from cities order by name`)

/** The cities of a country, by name. */
export const citiesOfCountry = (db: Queryable, countryId: number): Promise<City[]> =>
  db.all<City>(
    `select ${cityCols.split(', ').map((col) => `c.${col}`).join(', ')}
         from cities c join states s on s.id = c.state_id where s.country_id = ? order by c.name`,
    [countryId],
  )

export const countryRow = (db: Queryable, id: number) => db.get<Country>(`select ${countryCols} from countries where id = ?`, [id])
export const stateRow = (db: Queryable, id: number) => db.get<State>(`select ${stateCols} from states where id = ?`, [id])
export const cityRow = (db: Queryable, id: number) => db.get<City>(`select ${cityCols} from cities where id = ?`, [id])

/** Another country (not `exceptId`; 0: none) with this name in any case, or this code. */
export const countryNamed = (db: Queryable, name: string, exceptId: number) =>
  db.get<Country>(`select ${countryCols} from countries where lower(name) = lower(?) and id <> ?`, [name, exceptId])
export const countryCoded = (db: Queryable, code: string, exceptId: number) => db.get<Country>(`select ${countryCols} from countries where code = ? and id <> ?`, [code, exceptId])

/** Another state of the country (not `exceptId`) with this name in any case; another state anywhere with this code. */
export const stateNamed = (db: Queryable, countryId: number, name: string, exceptId: number) =>
  db.get<State>(`select ${stateCols} from states where country_id = ? and lower(name) = lower(?) and id <> ?`, [countryId, name, exceptId])
export const stateCoded = (db: Queryable, code: string, exceptId: number) => db.get<State>(`select ${stateCols} from states where code = ? and id <> ?`, [code, exceptId])

/** Another city of the state (not `exceptId`) with this name in any case. */
export const cityNamed = (db: Queryable, stateId: number, name: string, exceptId: number) =>
  db.get<City>(`select ${cityCols} from cities where state_id = ? and lower(name) = lower(?) and id <> ?`, [stateId, name, exceptId])

export const insertCountry = async (tx: Queryable, name: string, code: string, now: number): Promise<Country> =>
  (await tx.run<Country>(`insert into countries (name, code, created_at, updated_at) values (?, ?, ?, ?) returning ${countryCols}`, [name, code, now, now])).rows[0]!
export const updateCountryRow = async (tx: Queryable, id: number, name: string, code: string, now: number): Promise<Country> =>
  (await tx.run<Country>(`update countries set name = ?, code = ?, updated_at = ? where id = ? returning ${countryCols}`, [name, code, now, id])).rows[0]!
export const statesIn = (db: Queryable, countryId: number) => count(db, 'select count(*) as n from states where country_id = ?', [countryId])
export async function deleteCountryRow(tx: Queryable, id: number): Promise<void> {
  await tx.run('delete from countries where id = ?', [id])
}

export const insertState = async (tx: Queryable, name: string, code: string, countryId: number, now: number): Promise<State> =>
  (await tx.run<State>(`insert into states (name, code, country_id, created_at, updated_at) values (?, ?, ?, ?, ?) returning ${stateCols}`, [name, code, countryId, now, now])).rows[0]!
export const updateStateRow = async (tx: Queryable, id: number, name: string, code: string, countryId: number, now: number): Promise<State> =>
  (await tx.run<State>(`update states set name = ?, code = ?, country_id = ?, updated_at = ? where id = ? returning ${stateCols}`, [name, code, countryId, now, id])).rows[0]!
export const citiesIn = (db: Queryable, stateId: number) => count(db, 'select count(*) as n from cities where state_id = ?', [stateId])
export async function deleteStateRow(tx: Queryable, id: number): Promise<void> {
  await tx.run('delete from states where id = ?', [id])
}

export const insertCity = async (tx: Queryable, name: string, stateId: number, region: string | null, now: number): Promise<City> =>
  (await tx.run<City>(`insert into cities (name, state_id, newsco_region, created_at, updated_at) values (?, ?, ?, ?, ?) returning ${cityCols}`, [name, stateId, region, now, now])).rows[0]!
export const updateCityRow = async (tx: Queryable, id: number, name: string, stateId: number, region: string | null, now: number): Promise<City> =>
  (await tx.run<City>(`update cities set name = ?, state_id = ?, newsco_region = ?, updated_at = ? where id = ? returning ${cityCols}`, [name, stateId, region, now, id])).rows[0]!
export async function deleteCityRow(tx: Queryable, id: number): Promise<void> {
  await tx.run('delete from cities where id = ?', [id])
}

/** A city's listing expiry defaults (issue 17), or undefined when there is no such city. */
export const cityExpiry = (db: Queryable, id: number) => db.get<{ rent_days: number; sale_days: number }>('select rent_days, sale_days from cities where id = ?', [id])
export async function setCityExpiry(tx: Queryable, id: number, rentDays: number, saleDays: number, now: number): Promise<void> {
  await tx.run('update cities set rent_days = ?, sale_days = ?, updated_at = ? where id = ?', [rentDays, saleDays, now, id])
}
