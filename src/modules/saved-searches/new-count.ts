import type { Change } from '../../../db/change-feed'
import { idsIn, indexedBy } from '../../../db/dialect'
import type { Clause, Queryable } from '../../../db/sql'
import type { SnapshotCache } from '../../../db/snapshot-cache'
import { countAffectedBy, countDelta, listingMatches, listingVisible } from '../listings/affects'
import type { ListingFilters } from '../listings/model'
import { pageKey } from '../listings/read'
import { allOf, filterWhere, listedWhere, searchPlan, visibleTo, type Viewer } from '../listings/where'
import { newsOf } from './news'
import { NEW_COUNT_CAP } from './model'

// A saved search's new count (docs/decisions/018-saved-searches.md): the listings its filters let through, as the
// viewer sees them, with news (posted, price changed, back on market) since it was opened: the list's own
// `changed_since` filter, counted up to NEW_COUNT_CAP.

/** Older listings with news since the moment, fetched by id at most: more are counted by their news' time instead. */
const OLDER_BY_ID = 1000

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
    async (db) => ({ ids: await newsIds(db, v, f, since) }),
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

/**
 * The ids in two parts, each stopping at the cap. Ids grow with posting time, so the listings posted since the moment
 * are the ids from the first of them up: read through the filters' own index from that id (a city's newest rows, not
 * all of them). The older listings with news since are few (repriced or back on the market): their ids come from the
 * news index alone, and only they are checked against the filters.
 */
async function newsIds(db: Queryable, v: Viewer, f: ListingFilters, since: number): Promise<number[]> {
  const hot = indexedBy(db.dialect, 'listings_hot_idx')
  const first = await db.get<{ id: number }>(
    `select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and hot_at is null order by coalesce(hot_at, created_at) limit 1`,
    [since],
  )
  const posted = first ? await idsUpTo(db, v, f, { sql: 'listings.id >= ?', params: [first.id] }, NEW_COUNT_CAP) : []
  if (posted.length >= NEW_COUNT_CAP) return posted
  const before = first?.id ?? Number.MAX_SAFE_INTEGER
  const older = await db.all<{ id: number }>(`select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and id < ? limit ${OLDER_BY_ID + 1}`, [since, before])
  if (older.length === 0) return posted
  const which = older.length > OLDER_BY_ID ? { sql: 'listings.id < ?', params: [before] } : idsIn(db.dialect, 'listings.id', older.map((r) => r.id))
  return [...posted, ...(await idsUpTo(db, v, f, which, NEW_COUNT_CAP - posted.length))]
}

/** The ids of the listings the viewer sees with the filters among `which`, newest first, up to `cap`. */
async function idsUpTo(db: Queryable, v: Viewer, f: ListingFilters, which: Clause, cap: number): Promise<number[]> {
  const plan = db.dialect === 'sqlite' ? searchPlan(v, f) : null
  if (plan) {
    // A word: the search index's matches newest first, narrowed by its tag, as the list's pages walk it.
    const rest = allOf(visibleTo(v), filterWhere(plan.rest), which)
    const sql = `select listings.id as id from listings_fts s join listings on listings.id = s.rowid where listings_fts match ? and ${rest.sql} order by s.rowid desc limit ?`
    return (await db.all<{ id: number }>(sql, [plan.match, ...rest.params, cap])).map((r) => r.id)
  }
  const where = allOf(listedWhere(v, f, db.dialect), which)
  const sql = `select listings.id as id from listings ${newestFirst(db, f)} where ${where.sql} order by listings.id desc limit ?`
  return (await db.all<{ id: number }>(sql, [...where.params, cap])).map((r) => r.id)
}

/**
 * SQLite: the walk newest first that stops at the cap among the newest rows, through an index whose equalities the
 * filters fill right up to its id (a city, with a type and deal; a zone; a type and deal; a status), else the table
 * itself. Left to itself the planner takes any index of an equality (a type alone) and sorts every row of it by id:
 * 57 ms for the requirements of three days against 0.05 ms walking the table down to them.
 */
function newestFirst(db: Queryable, f: ListingFilters): string {
  if (db.dialect !== 'sqlite') return ''
  if (f.city_id) return indexedBy(db.dialect, f.post_type && f.sale_or_rent ? 'listings_city_type_deal_idx' : 'listings_city_id_idx')
  if (f.location) return indexedBy(db.dialect, 'listings_location_id_idx')
  if (f.post_type && f.sale_or_rent) return indexedBy(db.dialect, 'listings_type_deal_idx')
  if (f.status) return indexedBy(db.dialect, 'listings_status_id_idx')
  return 'not indexed'
}
