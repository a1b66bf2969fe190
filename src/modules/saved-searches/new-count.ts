import { idsIn, indexedBy } from '../../../db/dialect'
import type { Clause, Queryable } from '../../../db/sql'
import type { SnapshotCache } from '../../../db/snapshot-cache'
import { countAffectedBy, countDelta } from '../listings/affects'
import type { ListingFilters } from '../listings/model'
import { pageKey } from '../listings/read'
import { allOf, filterWhere, listedWhere, searchPlan, visibleTo, type Viewer } from '../listings/where'
import { NEW_COUNT_CAP } from './model'

// A saved search's new count (docs/decisions/018-saved-searches.md): the listings its filters let through, as the
// viewer sees them, with news (posted, price changed, back on market) since it was opened: the list's own
// `changed_since` filter, counted up to NEW_COUNT_CAP.

/** Older listings with news since the moment, fetched by id at most: more are counted by their news' time instead. */
const OLDER_BY_ID = 1000

/**
 * How many listings the viewer sees with these filters that have news at or after `seenAt` (or the filters' own
 * `changed_since`, if later), up to NEW_COUNT_CAP. Kept in the count cache until a change of a listing the filters let
 * through; a listing posted meanwhile adds one without a count.
 */
export function newCount(db: Queryable, cache: SnapshotCache, v: Viewer, filters: ListingFilters, seenAt: number): Promise<number> {
  const since = Math.max(seenAt, filters.changed_since ? Date.parse(filters.changed_since) : 0)
  const f: ListingFilters = { ...filters, changed_since: new Date(since).toISOString() }
  const { changed_since: _, ...others } = f
  return cache.adjustable(
    `new|${pageKey(v, f)}`,
    db,
    (db) => countNews(db, v, f, since),
    countAffectedBy(v, f),
    (n, c) => {
      // A listing posted after the count is news since any moment before: one more if the other filters let it through.
      if (c.topic !== 'listing' || c.before || !c.after) return undefined
      const delta = countDelta(v, others, c, db.dialect)
      return delta === null ? undefined : Math.min(NEW_COUNT_CAP, n + delta)
    },
  )
}

/**
 * The count in two parts, each stopping at the cap. Ids grow with posting time, so the listings posted since the
 * moment are the ids from the first of them up: counted through the filters' own index from that id (a city's newest
 * rows, not all of them). The older listings with news since are few (repriced or back on market): their ids come
 * from the news index alone, and only they are checked against the filters.
 */
async function countNews(db: Queryable, v: Viewer, f: ListingFilters, since: number): Promise<number> {
  const hot = indexedBy(db.dialect, 'listings_hot_idx')
  const first = await db.get<{ id: number }>(
    `select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and hot_at is null order by coalesce(hot_at, created_at) limit 1`,
    [since],
  )
  const posted = first ? await countUpTo(db, v, f, { sql: 'listings.id >= ?', params: [first.id] }, NEW_COUNT_CAP) : 0
  if (posted >= NEW_COUNT_CAP) return NEW_COUNT_CAP
  const before = first?.id ?? Number.MAX_SAFE_INTEGER
  const older = await db.all<{ id: number }>(`select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and id < ? limit ${OLDER_BY_ID + 1}`, [since, before])
  if (older.length === 0) return posted
  const which = older.length > OLDER_BY_ID ? { sql: 'listings.id < ?', params: [before] } : idsIn(db.dialect, 'listings.id', older.map((r) => r.id))
  return posted + (await countUpTo(db, v, f, which, NEW_COUNT_CAP - posted))
}

/** The listings the viewer sees with the filters among `which`, counted up to `cap`. */
async function countUpTo(db: Queryable, v: Viewer, f: ListingFilters, which: Clause, cap: number): Promise<number> {
  const plan = db.dialect === 'sqlite' ? searchPlan(v, f) : null
  if (plan) {
    // A word: the search index's matches newest first, narrowed by its tag, as the list's pages walk it.
    const rest = allOf(visibleTo(v), filterWhere(plan.rest), which)
    const sql = `select count(*) as n from (select 1 from listings_fts s join listings on listings.id = s.rowid where listings_fts match ? and ${rest.sql} order by s.rowid desc limit ?) t`
    return (await db.get<{ n: number }>(sql, [plan.match, ...rest.params, cap]))!.n
  }
  const where = allOf(listedWhere(v, f, db.dialect), which)
  return (await db.get<{ n: number }>(`select count(*) as n from (select 1 from listings where ${where.sql} limit ?) t`, [...where.params, cap]))!.n
}
