import { idsIn, indexedBy } from '../../../../db/dialect'
import type { Clause, Queryable } from '../../../../db/sql'
import type { ListingFilters } from '../model'
import { allOf, filterWhere, listedWhere, searchPlan, visibleTo, type Viewer } from './where'

// The listings with news (posted, price changed, back on market) since a moment, as a viewer sees them with filters:
// what a saved search's new count counts (src/modules/saved-searches/new-count.ts), read here with the listings'
// SQL (issue 31: a store per entity).

/** Older listings with news since the moment, fetched by id at most: more are counted by their news' time instead. */
const OLDER_BY_ID = 1000

/**
 * The ids in two parts, each stopping at the cap. Ids grow with posting time, so the listings posted since the moment
 * are the ids from the first of them up: read through the filters' own index from that id (a city's newest rows, not
 * all of them). The older listings with news since are few (repriced or back on the market): their ids come from the
 * news index alone, and only they are checked against the filters.
 */
export async function newsIds(db: Queryable, v: Viewer, f: ListingFilters, since: number, cap: number): Promise<number[]> {
  const hot = indexedBy(db.dialect, 'listings_hot_idx')
  const first = await db.get<{ id: number }>(
    `select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and hot_at is null order by coalesce(hot_at, created_at) limit 1`,
    [since],
  )
  const posted = first ? await idsUpTo(db, v, f, { sql: 'listings.id >= ?', params: [first.id] }, cap) : []
  if (posted.length >= cap) return posted
  const before = first?.id ?? Number.MAX_SAFE_INTEGER
  const older = await db.all<{ id: number }>(`select id from listings ${hot} where coalesce(hot_at, created_at) >= ? and id < ? limit ${OLDER_BY_ID + 1}`, [since, before])
  if (older.length === 0) return posted
  const which = older.length > OLDER_BY_ID ? { sql: 'listings.id < ?', params: [before] } : idsIn(db.dialect, 'listings.id', older.map((r) => r.id))
  return [...posted, ...(await idsUpTo(db, v, f, which, cap - posted.length))]
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
