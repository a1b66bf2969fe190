import { and, count, eq } from 'drizzle-orm'
import { listings, users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { calendarDate } from '../../shared/dates'
import { CountCache, countListings, visibleTo, type Viewer } from '../listings/read'
import type { DashboardStats } from '../listings/model'

/**
 * The stats strip (SPEC section 3 "Dashboard statistics"), in the viewer's scope decided here: a master admin the
 * whole network ('global'), a module admin their city ('city'), a broker the network as they may see it ('global').
 */
export function dashboardStats(ctx: AppContext, cache: CountCache, viewer: Viewer): DashboardStats {
  const { db } = ctx
  const cityId = viewer.role === 'MODULE_ADMIN' ? viewer.cityId : null
  const scopeKey = viewer.role === 'BROKER' ? `broker:${viewer.id}` : `city:${cityId}`
  const today = calendarDate(Date.now(), ctx.config.timeZone)
  const visible = visibleTo(viewer)
  const byType = (postType: 'REQ' | 'AVL') => countListings(db, cache, viewer, { post_type: postType })
  return {
    total_requirements: byType('REQ'),
    total_availabilities: byType('AVL'),
    active_brokers: cache.get(db, `stats|active-brokers|${cityId}`, () =>
      db
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'BROKER'), eq(users.isActive, true), cityId === null ? undefined : eq(users.cityId, cityId)))
        .get()!.n,
    ),
    new_posts_today: cache.get(db, `stats|${scopeKey}|today:${today}`, () =>
      db.select({ n: count() }).from(listings).where(and(visible, eq(listings.date, today))).get()!.n,
    ),
    scope: viewer.role === 'MODULE_ADMIN' ? 'city' : 'global',
  }
}
