import type { AppContext } from '../../platform/context'
import type { PageUser } from '../../platform/http/page-auth'
import { calendarDate } from '../../shared/dates'
import { touches } from '../../../db/change-feed'
import { activeBrokers } from '../analytics/service'
import { countListings } from '../listings/store/read'
import { scopeCity, scopeOf } from '../../platform/policy/scope'
import { cityCount, cityName } from '../geography/store'
import { listingsPostedSince } from '../analytics/store'

/** A module admin's own city for the fourth card: its name and how many of its listings are live (ACTIVE). */
export type CityFigure = { name: string; activeListings: number }

export type AdminStats = {
  activeBrokers: number
  totalListings: number
  thisMonth: number
  /** Cities in the network (master admin); 1 for a module admin. */
  cities: number
  /** A module admin's city, or null (a master admin, or a module admin not assigned to one). */
  city: CityFigure | null
}

/** The admin home's four cards, in the admin's scope (the original showed placeholders); cached until a change. */
export function adminStats(ctx: AppContext, user: Pick<PageUser, 'id' | 'role' | 'city_id'>): Promise<AdminStats> {
  const { db, counts } = ctx
  const viewer = { id: user.id, role: user.role, cityId: user.city_id }
  // The cards follow the `read:analytics` scope: the admin's city (-1 without one) or the network (null).
  const city = scopeCity(scopeOf(viewer, 'analytics'))
  const monthStart = `${calendarDate(Date.now(), ctx.config.timeZone).slice(0, 7)}-01`
  return counts.get(
    `admin-stats|${city}|${monthStart}`,
    async () => {
      const [brokers, total, thisMonth, cities, figure] = await Promise.all([
        activeBrokers(ctx, city),
        countListings(db, counts, viewer, {}),
        // From the daily counts (city 0 is the network): a month is a few dozen rows, not tens of thousands of listings.
        listingsPostedSince(db, city ?? 0, monthStart),
        city === null ? cityCount(db) : null,
        city === null ? null : cityFigure(ctx, viewer, city),
      ])
      return {
        activeBrokers: brokers,
        totalListings: total,
        thisMonth,
        cities: cities ?? 1,
        city: figure,
      }
    },
    // Brokers counted, listings counted by city, month and status, and the places.
    (c) => c.topic === 'geography' || touches(c, 'user', ['role', 'is_active', 'city_id']) || touches(c, 'listing', ['city_id', 'date', 'status']),
  )
}

/**
 * "Your City" (SPEC: a fixed '1'): the city's name and its live listings. Total Listings beside it counts every
 * status; this is what brokers of the city can act on today.
 */
async function cityFigure(ctx: AppContext, viewer: Parameters<typeof countListings>[2], cityId: number): Promise<CityFigure | null> {
  const name = await cityName(ctx.db, cityId)
  if (name === null) return null
  return { name, activeListings: await countListings(ctx.db, ctx.counts, viewer, { status: 'ACTIVE' }) }
}
