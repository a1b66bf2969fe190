import { City, Country, State, type ICity, type ICountry } from 'country-state-city'
import { eq } from 'drizzle-orm'
import type { Database } from '../client'
import { auditEvents, countries, states } from '../schema'
import { LIMITS } from '../../src/shared/constants'

export type GeoImportResult = {
  /** The package's name and ISO code, "India (IN)": what was imported, whatever our row is called. */
  country: string
  countryCreated: boolean
  states: { added: number; existing: number }
  cities: { added: number; existing: number }
  /** Names too short to keep, as "State" or "State / City". */
  skipped: string[]
}

// Names compare case-insensitively, as a person reading the map would; the unique indexes are exact, so this is stricter.
const key = (name: string) => name.toLowerCase()
// Country queries are typed by people: accents and case should not matter ("curacao" finds "Curaçao").
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim()

/**
 * Adds one country's states and cities from the `country-state-city` package, keeping every row that is already there.
 * `query` is an ISO alpha-2 code or a country name (exact, else a unique prefix). Running it again adds nothing.
 */
export function importCountry(db: Database, query: string): GeoImportResult {
  const source = findCountry(query)
  const iso = source.isoCode.toUpperCase()
  // The package lists some states twice under one name (Taiwan's "Chiayi" city and county): they merge into one state,
  // because our states are unique by name within a country.
  const sourceStates = new Map<string, { name: string; codes: string[] }>()
  for (const s of State.getStatesOfCountry(source.isoCode)) {
    const name = s.name.trim()
    let entry = sourceStates.get(key(name))
    if (!entry) sourceStates.set(key(name), (entry = { name, codes: [] }))
    entry.codes.push(s.isoCode)
  }
  const citiesByState = new Map<string, ICity[]>()
  for (const c of City.getCitiesOfCountry(source.isoCode) ?? []) {
    let list = citiesByState.get(c.stateCode)
    if (!list) citiesByState.set(c.stateCode, (list = []))
    list.push(c)
  }

  return db.$client.transaction(() => {
    const result: GeoImportResult = {
      country: `${source.name} (${iso})`,
      countryCreated: false,
      states: { added: 0, existing: 0 },
      cities: { added: 0, existing: 0 },
      skipped: [],
    }

    // Code first: a country renamed by hand ("USA") is still the same country.
    // Names compared here rather than with SQLite's lower(), which folds ASCII only.
    const known = db.select({ id: countries.id, name: countries.name, code: countries.code }).from(countries).all()
    let countryId = (known.find((c) => c.code === iso) ?? known.find((c) => key(c.name) === key(source.name)))?.id
    if (countryId === undefined) {
      countryId = db.insert(countries).values({ name: source.name, code: iso }).returning({ id: countries.id }).get().id
      result.countryCreated = true
    }

    // A state is ours by name, else by its code in this country: the demo's "Abu Dhabi" (AE-AZ) is the package's
    // "Abu Dhabi Emirate" (AZ). A row whose name another package state claims is left to that state.
    const stateIds = new Map<string, number>()
    const stateIdsByCode = new Map<string, number>()
    for (const s of db.select().from(states).where(eq(states.countryId, countryId)).all()) {
      stateIds.set(key(s.name), s.id)
      if (!sourceStates.has(key(s.name))) stateIdsByCode.set(s.code, s.id)
    }
    // Every code in use anywhere, plus the codes this import will ask for, so a fallback never takes a later state's code.
    const takenCodes = new Set(db.select({ code: states.code }).from(states).all().map((s) => s.code))
    const wanted = (code: string) => `${iso}-${code}`.toUpperCase().slice(0, LIMITS.geoCodeMax)
    const reserved = new Set([...sourceStates.values()].map((s) => wanted(s.codes[0]!)))
    let counter = 0
    const codeFor = (stateCode: string): string => {
      const code = wanted(stateCode)
      if (code.length >= LIMITS.geoCodeMin && !takenCodes.has(code)) return code
      let fallback: string
      do fallback = `${iso}-${++counter}`
      while (takenCodes.has(fallback) || reserved.has(fallback))
      return fallback
    }

    const existingCities = new Set(
      db.$client
        .query<{ state_id: number; name: string }, [number]>(
          'SELECT c.state_id, c.name FROM cities c JOIN states s ON s.id = c.state_id WHERE s.country_id = ?',
        )
        .all(countryId)
        .map((c) => `${c.state_id}|${key(c.name)}`),
    )
    const insertState = db.$client.prepare<{ id: number }, [number, string, string]>(
      'INSERT INTO states (country_id, name, code) VALUES (?, ?, ?) RETURNING id',
    )
    const insertCity = db.$client.prepare<never, [number, string]>('INSERT INTO cities (state_id, name) VALUES (?, ?)')

    for (const state of sourceStates.values()) {
      if (state.name.length < LIMITS.geoNameMin) {
        result.skipped.push(state.name)
        continue
      }
      let stateId = stateIds.get(key(state.name)) ?? stateIdsByCode.get(wanted(state.codes[0]!))
      if (stateId === undefined) {
        const code = codeFor(state.codes[0]!)
        stateId = insertState.get(countryId, state.name, code)!.id
        takenCodes.add(code)
        stateIds.set(key(state.name), stateId)
        result.states.added++
      } else {
        result.states.existing++
      }

      for (const city of state.codes.flatMap((c) => citiesByState.get(c) ?? [])) {
        const name = city.name.trim() // the package has stray spaces ("Ha'il ")
        if (name.length < LIMITS.geoNameMin) {
          result.skipped.push(`${state.name} / ${name}`)
          continue
        }
        const cityKey = `${stateId}|${key(name)}`
        if (existingCities.has(cityKey)) {
          result.cities.existing++
          continue
        }
        insertCity.run(stateId, name)
        existingCities.add(cityKey)
        result.cities.added++
      }
    }

    db.insert(auditEvents)
      .values({
        actorUserId: null,
        actorName: 'geo:import',
        action: 'geography.import',
        entityType: 'country',
        entityId: String(countryId),
        after: { states_added: result.states.added, cities_added: result.cities.added },
      })
      .run()
    return result
  })()
}

/** ISO alpha-2 code, else exact name, else unique name prefix; otherwise an error naming the closest countries. */
function findCountry(query: string): ICountry {
  const q = fold(query)
  const all = Country.getAllCountries()
  const byCode = /^[a-z]{2}$/.test(q) ? all.find((c) => c.isoCode.toLowerCase() === q) : undefined
  if (byCode) return byCode
  const exact = all.find((c) => fold(c.name) === q)
  if (exact) return exact
  const prefixed = q ? all.filter((c) => fold(c.name).startsWith(q)) : []
  if (prefixed.length === 1) return prefixed[0]!
  if (prefixed.length > 1)
    throw new Error(`Country "${query}" is ambiguous: ${prefixed.map((c) => `${c.name} (${c.isoCode})`).join(', ')}`)

  // Substring matches first ("emirates"), then by edit distance, so a typo still lands near the right name.
  const closest = all
    .map((c) => ({ c, d: fold(c.name).includes(q) ? 0 : distance(q, fold(c.name)) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ c }) => `${c.name} (${c.isoCode})`)
  throw new Error(`Unknown country "${query}". Closest: ${closest.join(', ')}. Use an ISO code like IN or a full name.`)
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = row
  }
  return prev[b.length]!
}
