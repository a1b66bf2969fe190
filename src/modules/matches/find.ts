import type { Queryable } from '../../../db/sql'
import { scoreMatch, weighMatch, type MatchSide } from './rules'
import { candidatesOf, countCandidates, sourcesOf, type Source } from './store'

export type { Source } from './store'

/** A counterpart found for a source, scored (its reasons in words are made by `explain`, for the few shown). */
export type Found = { id: number; owner_user_id: number; score: number; side: MatchSide }

export { sourcesOf } from './store'

export const sourceOf = async (db: Queryable, id: number): Promise<Source | null> => (await sourcesOf(db, [id]))[0] ?? null

/**
 * Every listing that matches the source now, best first (score, then newest): one range of `listings_match_idx`
 * (city, deal, the other post type, property key, ACTIVE), the budget and size rules checked on its entries. None
 * when the source itself is not ACTIVE.
 */
export async function findMatches(db: Queryable, src: Source, now = Date.now()): Promise<Found[]> {
  if (src.status !== 'ACTIVE') return []
  const rows = await candidatesOf(db, src)
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
  return countCandidates(db, src, viewerId)
}
