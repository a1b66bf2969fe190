import type { Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { countListings, type Viewer } from '../listings/store/read'
import { allOf, filterWhere, ownedBy, visibleTo } from '../listings/store/where'
import type { DashboardVisit } from './model'
import { countOwnWhere } from '../listings/store'
import { upsertVisit, visitStart } from './store'

/** A dashboard visit ends after this long without a dashboard request ("N new since your last visit", issue 17). */
export const VISIT_GAP_MS = 30 * 60 * 1000

/**
 * Records a request of the dashboard and answers since when the current visit counts news (ms). The first request of
 * a visit (none for 30 minutes) starts counting from the previous visit's last request; later ones only move
 * `last_at`, so reloading keeps the count. A first ever visit counts from now: nothing is new to someone who has
 * never been told what was there. One statement on both dialects: in `do update` the table's columns are the row as
 * it was, in SQLite and PostgreSQL alike.
 */
export async function recordVisit(db: Queryable, userId: number, now = Date.now()): Promise<number> {
  return upsertVisit(db, userId, now, VISIT_GAP_MS)
}

/** The current (or last) visit's start of news, without recording a visit; null before the first one. */
export async function visitSince(db: Queryable, userId: number): Promise<number | null> {
  return visitStart(db, userId)
}

/**
 * What is new to the viewer since `since`: the listings they may see with news (posted, repriced, back on the market)
 * at or after it, the list's `changed_since`, less their own. The count of the list is the cached one; their own
 * are a handful read through the owner's index.
 */
export async function newSince(ctx: AppContext, viewer: Viewer, since: number | null): Promise<DashboardVisit> {
  if (since === null) return { since: null, new_count: 0 }
  const filters = { changed_since: new Date(since).toISOString() }
  const own = allOf(visibleTo(viewer), filterWhere(filters), ownedBy(viewer.id))
  const [seen, mine] = await Promise.all([
    countListings(ctx.db, ctx.counts, viewer, filters),
    // Through the owner's index, always, as countFromTotals (listings/store/read.ts) counts a broker's own: with statistics
    // SQLite picks it already, but the news index from `since` (the whole network's news) is the other candidate.
    countOwnWhere(ctx.db, own),
  ])
  return { since: filters.changed_since, new_count: seen - mine }
}
