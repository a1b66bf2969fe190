import type { Queryable } from '../../../db/sql'
import { LOCATION_ZONES, type LocationZone } from '../../shared/constants'
import { LocalityIndex, type KnownLocality } from './parse'
import { cityName } from '../geography/store'
import { localityCounts } from '../listings/store'
import { acceptedLocalities } from './store'

/**
 * The localities the network already knows in a city: every locality its listings were posted with, in the spelling
 * most of them use, with the zone most of them carry. Read once a minute per city and kept: a locality is new rarely,
 * and the parse route is then one query-free call (a paste of 50 messages parses in a few milliseconds). A locality
 * posted a moment ago is recognised within the minute, and its name is still taken from the message meanwhile.
 */
const TTL_MS = 60_000
const MAX_LOCALITIES = 20_000

type Entry = { at: number; index: Promise<LocalityIndex> }
const caches = new WeakMap<Queryable, Map<number, Entry>>()

export function localitiesOf(db: Queryable, cityId: number | null, now = Date.now()): Promise<LocalityIndex> {
  if (cityId === null) return Promise.resolve(new LocalityIndex([]))
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = new Map()))
  const hit = cache.get(cityId)
  if (hit && now - hit.at < TTL_MS) return hit.index
  const index = load(db, cityId).catch((e) => {
    cache.delete(cityId)
    throw e
  })
  cache.set(cityId, { at: now, index })
  return index
}

/** Forgets a city's localities, read again on the next paste (a locality its admin has just accepted). */
export function forgetLocalities(db: Queryable, cityId: number): void {
  caches.get(db)?.delete(cityId)
}

async function load(db: Queryable, cityId: number): Promise<LocalityIndex> {
  const rows = await localityCounts(db, cityId, { limit: MAX_LOCALITIES })
  const byKey = new Map<string, { name: string; names: Map<string, number>; zones: Map<string, number> }>()
  for (const r of rows) {
    const name = r.locality.trim().replace(/\s+/g, ' ')
    if (!name) continue
    const key = name.toLowerCase()
    const e = byKey.get(key) ?? { name, names: new Map(), zones: new Map() }
    const n = Number(r.n)
    e.names.set(name, (e.names.get(name) ?? 0) + n)
    if (r.location && (LOCATION_ZONES as readonly string[]).includes(r.location)) e.zones.set(r.location, (e.zones.get(r.location) ?? 0) + n)
    byKey.set(key, e)
  }
  const most = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
  const known: KnownLocality[] = [...byKey.values()].map((e) => ({ name: most(e.names)!, zone: most(e.zones) as LocationZone | null }))
  // The localities the city's admin accepted (issue 30): known in their spelling and zone, first, whatever listings say.
  const accepted = await acceptedLocalities(db, cityId)
  const name = await cityName(db, cityId)
  const city = name === null ? undefined : { name }
  const zoneOf = (z: string | null) => (z && (LOCATION_ZONES as readonly string[]).includes(z) ? (z as LocationZone) : null)
  return new LocalityIndex([...accepted.map((a) => ({ name: a.name, zone: zoneOf(a.zone) })), ...known], city?.name ?? null)
}
