import type { Change } from '../../../db/change-feed'
import type { Queryable } from '../../../db/sql'
import type { SnapshotCache } from '../../../db/snapshot-cache'
import { countAffectedBy, countDelta, listingMatches, listingVisible } from '../listings/affects'
import type { ListingFilters } from '../listings/model'
import { pageKey } from '../listings/store/read'
import { newsIds } from '../listings/store/news'
import type { Viewer } from '../listings/store/where'
import { newsOf } from './news'
import { NEW_COUNT_CAP } from './model'

// A saved search's new count (docs/decisions/018-saved-searches.md): the listings its filters let through, as the
// viewer sees them, with news (posted, price changed, back on market) since it was opened: the list's own
// `changed_since` filter, counted up to NEW_COUNT_CAP.

/** The listings counted: all of them below the cap, the first NEW_COUNT_CAP found at it. */
type Counted = { ids: number[] }

/**
 * How many listings the viewer sees with these filters that have news at or after `seenAt` (or the filters' own
 * `changed_since`, if later), up to NEW_COUNT_CAP. Kept in the count cache with the ids it counted, and kept true
 * through writes without counting again (`after`).
 */
export async function newCount(db: Queryable, cache: SnapshotCache, v: Viewer, filters: ListingFilters, seenAt: number): Promise<number> {
  const since = Math.max(seenAt, filters.changed_since ? Date.parse(filters.changed_since) : 0)
  const f: ListingFilters = { ...filters, changed_since: new Date(since).toISOString() }
  const { changed_since: _, ...others } = f
  const counted = await cache.adjustable<Counted>(
    `new|${pageKey(v, f)}`,
    db,
    async (db) => ({ ids: await newsIds(db, v, f, since, NEW_COUNT_CAP) }),
    countAffectedBy(v, f),
    (value, c) => after(v, others, value, c, db.dialect) ?? undefined,
  )
  return counted.ids.length
}

/**
 * The counted listings after a change, or null when only counting again can tell. A change that is news (posted,
 * repriced, back on the market) puts the listing in the set if the other filters let it through; one that takes it out
 * of the filters takes it out; an edit that brings into the filters a listing not counted needs its news' time, which
 * the feed does not carry. At the cap the set is the first NEW_COUNT_CAP found: one leaving it is counted again.
 */
function after(v: Viewer, others: ListingFilters, value: Counted, c: Change, dialect: Queryable['dialect']): Counted | null {
  if (c.topic !== 'listing' || countDelta(v, others, c, dialect) === null) return null
  const passes = (row: Record<string, unknown> | null) => !!row && listingVisible(v, row as never) && listingMatches(others, row as never)
  const id = (c.after ?? c.before)!.id as number
  const counted = value.ids.includes(id)
  const full = value.ids.length >= NEW_COUNT_CAP
  if (passes(c.after)) {
    if (counted || (full && newsOf(c))) return value
    if (newsOf(c)) return { ids: [...value.ids, id] }
    // Not news: still out if it was in the filters and not counted (old news), unknown if it just came into them.
    return full || passes(c.before) ? value : null
  }
  if (!counted) return full ? null : value
  return full ? null : { ids: value.ids.filter((x) => x !== id) }
}
