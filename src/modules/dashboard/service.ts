import { and, count, eq, gte, sql } from 'drizzle-orm'
import { cities, listingDailyCounts } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import type { PageUser } from '../../http/page-auth'
import { calendarDate } from '../../shared/dates'
import { touches } from '../../../db/change-feed'
import { activeBrokers } from '../analytics/service'
import { countListings } from '../listings/read'
import { scopeCity, scopeOf } from '../../policy/scope'

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
export function adminStats(ctx: AppContext, user: Pick<PageUser, 'id' | 'role' | 'city_id'>): AdminStats {
  const { db, counts } = ctx
  const viewer = { id: user.id, role: user.role, cityId: user.city_id }
  // The cards follow the `read:analytics` scope: the admin's city (-1 without one) or the network (null).
  const city = scopeCity(scopeOf(viewer, 'analytics'))
  const monthStart = `${calendarDate(Date.now(), ctx.config.timeZone).slice(0, 7)}-01`
  return counts.get(
    `admin-stats|${city}|${monthStart}`,
    () => ({
      activeBrokers: activeBrokers(ctx, city),
      totalListings: countListings(db, counts, viewer, {}),
      // From the daily counts (city 0 is the network): a month is a few dozen rows, not tens of thousands of listings.
      thisMonth: db
        .select({ n: sql<number>`coalesce(sum(${listingDailyCounts.n}), 0)` })
        .from(listingDailyCounts)
        .where(and(eq(listingDailyCounts.cityId, city ?? 0), gte(listingDailyCounts.date, monthStart)))
        .get()!.n,
      cities: city === null ? db.select({ n: count() }).from(cities).get()!.n : 1,
      city: city === null ? null : cityFigure(ctx, viewer, city),
    }),
    // Brokers counted, listings counted by city, month and status, and the places.
    (c) => c.topic === 'geography' || touches(c, 'user', ['role', 'is_active', 'city_id']) || touches(c, 'listing', ['city_id', 'date', 'status']),
  )
}

/**
 * "Your City" (SPEC: a fixed '1'): the city's name and its live listings. Total Listings beside it counts every
 * status; this is what brokers of the city can act on today.
 */
function cityFigure(ctx: AppContext, viewer: Parameters<typeof countListings>[2], cityId: number): CityFigure | null {
  const row = ctx.db.select({ name: cities.name }).from(cities).where(eq(cities.id, cityId)).get()
  if (!row) return null
  return { name: row.name, activeListings: countListings(ctx.db, ctx.counts, viewer, { status: 'ACTIVE' }) }
}
