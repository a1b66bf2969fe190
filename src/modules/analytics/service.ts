import { and, count, eq } from 'drizzle-orm'
import { touches } from '../../../db/change-feed'
import { users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { calendarDate } from '../../shared/dates'
import type { DashboardStats } from '../listings/model'
import { countListings, type Viewer } from '../listings/read'
import { listingScope } from '../listings/where'
import { scopeCity } from '../../policy/scope'

/** Active brokers of a city, or of the network (null); cached until the database changes. */
export function activeBrokers({ db, counts }: AppContext, cityId: number | null): number {
  return counts.get(
    `active-brokers|${cityId}`,
    () =>
      db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'BROKER'), eq(users.isActive, true), cityId === null ? undefined : eq(users.cityId, cityId)))
        .get()!.n,
    (c) => touches(c, 'user', ['role', 'is_active', 'city_id']),
  )
}

/**
 * The stats strip (SPEC section 3 "Dashboard statistics"), in the viewer's scope decided here: a master admin the
 * whole network ('global'), a module admin their city ('city'), a broker the network as they may see it ('global').
 */
export function dashboardStats(ctx: AppContext, viewer: Viewer): DashboardStats {
  const { db, counts } = ctx
  const today = calendarDate(Date.now(), ctx.config.timeZone)
  // The strip counts what the viewer's listing scope holds: a city's (a module admin's; -1 without one) or the network's.
  const city = scopeCity(listingScope(viewer))
  return {
    total_requirements: countListings(db, counts, viewer, { post_type: 'REQ' }),
    total_availabilities: countListings(db, counts, viewer, { post_type: 'AVL' }),
    active_brokers: activeBrokers(ctx, city),
    new_posts_today: countListings(db, counts, viewer, { date_from: today, date_to: today }),
    scope: city === null ? 'global' : 'city',
  }
}
