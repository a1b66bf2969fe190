import type { AppContext } from '../../platform/context'
import { forbidden, notFound, invalid } from '../../platform/errors'
import { scopeOf } from '../../platform/policy/scope'
import { LOCATION_ZONES, type LocationZone } from '../../shared/constants'
import type { Viewer } from '../listings/store/where'
import { forgetLocalities } from './localities'
import type { LocalityDecision, LocalityDecisionBody, LocalityOffers } from './model'
import { cityExists } from '../geography/store'
import { localityCounts } from '../listings/store'
import { decidedLocalityKeys, decideLocality as storeDecision } from './store'

/**
 * Localities offered to a city's module admin (issue 30). Listings name their locality in free text, and a city the
 * network barely knows fills with places read by their shape (`Sector 82`, `Phase 4`, `Block H`) or as written
 * (`Aerocity`). Once OFFER_AT ACTIVE listings of the city use one (its spellings together: `Sector 82`, `SECTOR-82`),
 * it is offered: accepted, it is one of the city's localities, with the zone the admin gives it (the WhatsApp parser
 * knows it, its spelling and its zone, from then on); dismissed, it is not offered again.
 */
export const OFFER_AT = 3
const SHOWN = 50

/** A name folded as decisions are kept: lower case, letters and digits only. */
export const localityKey = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')

/** The city an admin decides for: a module admin's own (another's is refused), a master admin's named one. */
async function cityFor(ctx: AppContext, user: Viewer, cityId: number | undefined): Promise<number> {
  const scope = scopeOf(user, 'listing', 'manage')
  if (scope.kind === 'city') {
    if (cityId !== undefined && cityId !== scope.cityId) throw forbidden("You can only decide on your own city's localities")
    return scope.cityId
  }
  if (scope.kind !== 'all') throw forbidden()
  if (cityId === undefined) throw invalid('city_id is required')
  if (!(await cityExists(ctx.db, cityId))) throw notFound('City not found')
  return cityId
}

export async function localityOffers(ctx: AppContext, user: Viewer, cityId: number | undefined): Promise<LocalityOffers> {
  const city = await cityFor(ctx, user, cityId)
  const rows = await localityCounts(ctx.db, city, { activeOnly: true })
  const decided = await decidedLocalityKeys(ctx.db, city)
  const groups = new Map<string, { names: Map<string, number>; zones: Map<string, number>; n: number }>()
  for (const r of rows) {
    const name = r.locality.trim().replace(/\s+/g, ' ')
    const key = localityKey(name)
    if (!key || decided.has(key)) continue
    const g = groups.get(key) ?? { names: new Map(), zones: new Map(), n: 0 }
    const n = Number(r.n)
    g.n += n
    g.names.set(name, (g.names.get(name) ?? 0) + n)
    if (r.location && (LOCATION_ZONES as readonly string[]).includes(r.location)) g.zones.set(r.location, (g.zones.get(r.location) ?? 0) + n)
    groups.set(key, g)
  }
  // The spelling most listings use; on a tie the one written as a name (`Sector 82` before `SECTOR-82` and `sector 82`).
  const asName = (s: string) => (/^\p{Lu}/u.test(s) && /\p{Ll}/u.test(s) ? 2 : /\p{Ll}/u.test(s) ? 0 : 1)
  const most = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1] || asName(b[0]) - asName(a[0]) || a[0].localeCompare(b[0]))[0]?.[0] ?? null
  const offers = [...groups.values()]
    .filter((g) => g.n >= OFFER_AT)
    .map((g) => ({ name: most(g.names)!, listings: g.n, zone: most(g.zones) as LocationZone | null, spellings: [...g.names.keys()].sort() }))
    .sort((a, b) => b.listings - a.listings || a.name.localeCompare(b.name))
  return { city_id: city, offer_at: OFFER_AT, offers: offers.slice(0, SHOWN), more: Math.max(0, offers.length - SHOWN) }
}

export async function decideLocality(ctx: AppContext, user: Viewer, body: LocalityDecisionBody): Promise<LocalityDecision> {
  const city = await cityFor(ctx, user, body.city_id)
  const name = body.name.trim().replace(/\s+/g, ' ')
  const key = localityKey(name)
  if (!key) throw invalid('A locality needs a name')
  const status = body.decision === 'ACCEPT' ? 'ACCEPTED' : 'DISMISSED'
  const zone = body.decision === 'ACCEPT' ? (body.zone ?? null) : null
  const now = Date.now()
  await storeDecision(ctx.db, { cityId: city, name, key, zone, status, decidedBy: user.id }, now)
  // The parser reads the city's localities once a minute: an accepted one is known at once.
  forgetLocalities(ctx.db, city)
  return { city_id: city, name, zone, status }
}
