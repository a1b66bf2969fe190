import { idsIn, indexedBy } from '../../../db/dialect'
import type { Dialect, Queryable } from '../../../db/sql'
import { fitSql, scoreMatch, weighMatch, type MatchSide } from './rules'
import { notShownTo } from '../listings/where'
import { placeJoins } from '../geography/store'
import { listingsFrom } from '../listings/store'

/** A listing about to be matched: its own fields, its city's tolerance and its country (for the currency). */
export type Source = MatchSide & {
  city_id: number
  sale_or_rent: 'SALE' | 'RENT'
  property_key: string
  status: string
  owner_user_id: number
  tolerance: number
  country: string | null
}

/** A counterpart found for a source, scored (its reasons in words are made by `explain`, for the few shown). */
export type Found = { id: number; owner_user_id: number; score: number; side: MatchSide }

const SIDE = 'l.id, l.post_type, l.budget, l.size, l.location, l.locality, l.created_at, l.owner_user_id'

/** Listings as matching reads them, with their city's tolerance and country, in one query; missing ids left out. */
export async function sourcesOf(db: Queryable, ids: number[]): Promise<Source[]> {
  if (ids.length === 0) return []
  const listed = idsIn(db.dialect, 'l.id', ids)
  return db.all<Source>(
    `select ${SIDE}, l.city_id, l.sale_or_rent, l.property_key, l.status, c.match_tolerance as tolerance, co.name as country
     from ${listingsFrom(db.dialect, 'l')} ${placeJoins('l.city_id', { city: 'c', state: 's', country: 'co' })}
     where ${listed.sql}`,
    listed.params,
  )
}

export const sourceOf = async (db: Queryable, id: number): Promise<Source | null> => (await sourcesOf(db, [id]))[0] ?? null

// Numbered parameters: the source's budget and size appear more than once in the rule.
// PostgreSQL cannot tell a parameter's type from `? is null`: there they are cast (SQLite's text stays as it was).
const SOURCE = { sqlite: { budget: '?6', size: '?7', tolerance: '?8' }, postgres: { budget: '?6::float8', size: '?7::float8', tolerance: '?8::int' } }
const OTHER = { budget: 'l.budget', size: 'l.size' }
const candidatesWhere = (dialect: Dialect, sourceIs: 'REQ' | 'AVL') => {
  const src = SOURCE[dialect]
  return `from ${listingsFrom(dialect, 'l', 'listings_match_idx')}
   where l.city_id = ?1 and l.sale_or_rent = ?2 and l.post_type = ?3 and l.property_key = ?4 and l.status = 'ACTIVE' and l.id <> ?5
     and ${sourceIs === 'REQ' ? fitSql(src, OTHER, src.tolerance) : fitSql(OTHER, src, src.tolerance)}`
}
const sourceParams = (src: Source) =>
  [src.city_id, src.sale_or_rent, src.post_type === 'REQ' ? 'AVL' : 'REQ', src.property_key, src.id, src.budget, src.size, src.tolerance] as const

/**
 * Every listing that matches the source now, best first (score, then newest): one range of `listings_match_idx`
 * (city, deal, the other post type, property key, ACTIVE), the budget and size rules checked on its entries. None
 * when the source itself is not ACTIVE.
 */
export async function findMatches(db: Queryable, src: Source, now = Date.now()): Promise<Found[]> {
  if (src.status !== 'ACTIVE') return []
  const rows = await db.all<MatchSide & { owner_user_id: number }>(`select ${SIDE} ${candidatesWhere(db.dialect, src.post_type)}`, sourceParams(src))
  return rows
    .map((r) => ({ id: r.id, owner_user_id: r.owner_user_id, score: weighMatch(src, r, src.tolerance, now), side: r }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
}

/** The reasons of a found match, in words. */
export const explain = (src: Source, found: Found, now = Date.now()) => scoreMatch(src, found.side, src.tolerance, src.country, now).reasons

/**
 * How many listings match the source for this viewer (the pairs they dismissed, and listings not shown to them, left out): the same range as
 * `findMatches`, counted on the index alone. The "3 matches" of a listings row.
 */
export async function countMatches(db: Queryable, src: Source, viewerId: number): Promise<number> {
  if (src.status !== 'ACTIVE') return 0
  const sql = `select count(*) as n ${candidatesWhere(db.dialect, src.post_type)}
    and l.id not in (select match_id from listing_matches where listing_id = ?5 and user_id = ?9 and dismissed_at is not null)
    and l.id not in (${notShownTo('?9')})`
  return (await db.get<{ n: number }>(sql, [...sourceParams(src), viewerId]))!.n
}
