import { touches } from '../../../db/change-feed'
import type { AppContext } from '../../platform/context'
import { calendarDate } from '../../shared/dates'
import type { DashboardStats } from '../listings/model'
import { countListings, type Viewer } from '../listings/store/read'
import { listingScope } from '../listings/store/where'
import { scopeCity } from '../../platform/policy/scope'
import { activeUsersOfRole } from '../users/store'

/** Active brokers of a city, or of the network (null); cached until the database changes. */
export function activeBrokers({ db, counts }: AppContext, cityId: number | null): Promise<number> {
  return counts.get(
    `active-brokers|${cityId}`,
    () => activeUsersOfRole(db, 'BROKER', cityId),
    (c) => touches(c, 'user', ['role', 'is_active', 'city_id']),
  )
}

/**
 * The stats strip (SPEC section 3 "Dashboard statistics"), in the viewer's scope decided here: a master admin the
 * whole network ('global'), a module admin their city ('city'), a broker the network as they may see it ('global').
 */
export async function dashboardStats(ctx: AppContext, viewer: Viewer): Promise<DashboardStats> {
  const { db, counts } = ctx
  const today = calendarDate(Date.now(), ctx.config.timeZone)
  // The strip counts what the viewer's listing scope holds: a city's (a module admin's; -1 without one) or the network's.
  const city = scopeCity(listingScope(viewer))
  const [requirements, availabilities, brokers, newToday] = await Promise.all([
    countListings(db, counts, viewer, { post_type: 'REQ' }),
    countListings(db, counts, viewer, { post_type: 'AVL' }),
    activeBrokers(ctx, city),
    countListings(db, counts, viewer, { date_from: today, date_to: today }),
  ])
  return {
    total_requirements: requirements,
    total_availabilities: availabilities,
    active_brokers: brokers,
    new_posts_today: newToday,
    scope: city === null ? 'global' : 'city',
  }
}
