import type { Queryable } from '../../../db/sql'

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
