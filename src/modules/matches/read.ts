import type { Database } from '../../../db/client'
import type { SnapshotCache } from '../../../db/snapshot-cache'
import { statement } from '../../../db/statements'
import { fieldError } from '../../http/errors'
import { PAGE_SIZES } from '../../shared/constants'
import { getListing, listingsByIds, visibleIds, type Viewer } from '../listings/read'
import { countMatches, findMatches, sourceOf } from './find'
import type { Inbox, InboxQuery, ListingMatches, MatchCounts, MatchesQuery } from './model'
import { pairMatchesSql, scoreMatch, type MatchSide } from './rules'

function paging(q: { page?: number; per_page?: number }, perPageDefault: number) {
  const perPage = q.per_page ?? perPageDefault
  if (!(PAGE_SIZES as readonly number[]).includes(perPage)) throw fieldError('per_page', 'per_page must be 10, 25, 50 or 100', 'query')
  const page = q.page ?? 1
  return { page, perPage, offset: (page - 1) * perPage }
}

/**
 * The matches of one listing, best first, for anyone who may see it (404 otherwise). Only ACTIVE listings match, and
 * an ACTIVE listing is visible to every role that can see a listing of its city, so the matches need no further
 * scope; pairs the caller dismissed from their inbox are left out for them.
 */
export function listingMatches(db: Database, viewer: Viewer, id: number, q: MatchesQuery): ListingMatches {
  const { page, perPage, offset } = paging(q, 25)
  getListing(db, viewer, id)
  const src = sourceOf(db, id)!
  const dismissed = new Set(
    statement<{ other: number }, [number, number]>(db.$client, 'select match_id as other from listing_matches where listing_id = ? and user_id = ? and dismissed_at is not null')
      .all(id, viewer.id)
      .map((r) => r.other),
  )
  const found = findMatches(db, src).filter((m) => !dismissed.has(m.id))
  const slice = found.slice(offset, offset + perPage)
  const listings = listingsByIds(db, viewer, slice.map((m) => m.id))
  return {
    matches: slice.flatMap((m) => {
      const listing = listings.get(m.id)
      return listing ? [{ listing, score: m.score, reasons: m.reasons }] : []
    }),
    total: found.length,
    page,
    per_page: perPage,
  }
}

type EntryRow = { id: number; listing_id: number; match_id: number; created_at: number; seen_at: number | null; city_id: number; tolerance: number }
type SideRow = MatchSide & { owner_user_id: number }

// An entry shows while both listings are ACTIVE and still match (either may have been edited since it was announced).
const LIVE = `from listing_matches m join listings a on a.id = m.listing_id join listings b on b.id = m.match_id
  join cities c on c.id = a.city_id
  where m.user_id = ?1 and m.dismissed_at is null and ${pairMatchesSql('a', 'b', 'c')}`

/** Unseen entries of the caller's inbox that still hold: the navigation's badge. */
export const unseenCount = (db: Database, userId: number): number =>
  statement<{ n: number }, [number]>(db.$client, `select count(*) as n ${LIVE} and m.seen_at is null`).get(userId)!.n

const byIdsJson = (db: Database, sql: string, ids: number[]) => statement<SideRow, [string]>(db.$client, sql).all(JSON.stringify(ids))

/**
 * The caller's entries that still hold, newest first, with every listing their entries name (held or not: a change
 * of any of them can make an entry hold or stop holding). Kept per user until such a change, a change of their
 * entries, or of a city's tolerance; one pass over the entries decides which hold (the rule, in SQL).
 */
function liveEntries(db: Database, cache: SnapshotCache, userId: number): EntryRow[] {
  const named = new Set<number>()
  return cache.get(
    `inbox|${userId}`,
    () => {
      for (const r of statement<{ l: number; m: number }, [number]>(db.$client, 'select listing_id as l, match_id as m from listing_matches where user_id = ? and dismissed_at is null').all(userId))
        named.add(r.l).add(r.m)
      return statement<EntryRow, [number]>(
        db.$client,
        `select m.id, m.listing_id, m.match_id, m.created_at, m.seen_at, a.city_id, c.match_tolerance as tolerance ${LIVE} order by m.id desc`,
      ).all(userId)
    },
    (c) =>
      c.topic === 'geography' ||
      (c.topic === 'match' && (c.before?.user_id === userId || c.after?.user_id === userId)) ||
      (c.topic === 'listing' && named.has(Number(c.before?.id ?? c.after?.id))),
  )
}

/**
 * The caller's inbox, newest first: matches found for their own listings. The entries that hold give the total, the
 * unseen count and the page together; only the page's entries are then read in full and scored (scores move with the
 * day, so they are never kept).
 */
export function inbox(db: Database, cache: SnapshotCache, viewer: Viewer, q: InboxQuery): Inbox {
  const { page, perPage, offset } = paging(q, 50)
  const onlyUnseen = q.unseen === '1' || q.unseen === 'true'
  const live = liveEntries(db, cache, viewer.id)
  const unseen = live.filter((e) => e.seen_at === null)
  const shown = onlyUnseen ? unseen : live
  const entries = shown.slice(offset, offset + perPage)
  const ids = [...new Set(entries.flatMap((e) => [e.listing_id, e.match_id]))]
  const sides = new Map(byIdsJson(db, 'select id, post_type, budget, size, location, locality, created_at, owner_user_id from listings where id in (select value from json_each(?))', ids).map((r) => [r.id, r]))
  const countries = new Map(
    statement<{ id: number; country: string }, [string]>(
      db.$client,
      'select c.id, co.name as country from cities c join states s on s.id = c.state_id join countries co on co.id = s.country_id where c.id in (select value from json_each(?))',
    )
      .all(JSON.stringify([...new Set(entries.map((e) => e.city_id))]))
      .map((r) => [r.id, r.country]),
  )
  const listings = listingsByIds(db, viewer, ids)
  const now = Date.now()
  return {
    matches: entries.flatMap((e) => {
      const [listing, match] = [listings.get(e.listing_id), listings.get(e.match_id)]
      if (!listing || !match) return []
      const { score, reasons } = scoreMatch(sides.get(e.listing_id)!, sides.get(e.match_id)!, e.tolerance, countries.get(e.city_id) ?? null, now)
      return [{ id: e.id, listing_id: e.listing_id, listing, match, score, reasons, created_at: new Date(e.created_at).toISOString(), seen: e.seen_at !== null }]
    }),
    unseen: unseen.length,
    total: shown.length,
    page,
    per_page: perPage,
  }
}

/** "3 matches" for each of these listings the viewer may see (the others are left out). */
export function matchCounts(db: Database, viewer: Viewer, ids: number[]): MatchCounts {
  const counts: Record<string, number> = {}
  for (const id of visibleIds(db, viewer, ids)) counts[id] = countMatches(db, sourceOf(db, id)!, viewer.id)
  return { counts }
}
