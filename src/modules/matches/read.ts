import type { Db, Queryable } from '../../../db/sql'
import { paging } from '../../platform/http/paging'
import { getListing, listingsByIds, visibleIds, type Viewer } from '../listings/store/read'
import { countMatches, explain, findMatches, sourceOf, sourcesOf } from './find'
import type { Inbox, InboxQuery, ListingMatches, MatchCounts, MatchesQuery } from './model'
import { scoreMatch } from './rules'
import { drainAnnouncements } from './service'
import { dismissedMatches, shownEntries, unseenEntries } from './store'

/**
 * The matches of one listing, best first, for anyone who may see it (404 otherwise). Only ACTIVE listings match, and
 * an ACTIVE listing is visible to every role that can see a listing of its city, so the matches need no further
 * scope; pairs the caller dismissed from their inbox are left out for them.
 */
export async function listingMatches(db: Queryable, viewer: Viewer, id: number, q: MatchesQuery): Promise<ListingMatches> {
  const { page, perPage, offset } = paging(q, 25)
  await getListing(db, viewer, id)
  const src = (await sourceOf(db, id))!
  const dismissed = await dismissedMatches(db, id, viewer.id)
  const now = Date.now()
  // Only counterparts the caller sees (issue 35: others' CIRCLE and ONLY_ME listings are left out for the rest).
  const all = (await findMatches(db, src, now)).filter((m) => !dismissed.has(m.id))
  const shown = new Set(await visibleIds(db, viewer, all.map((m) => m.id)))
  const found = all.filter((m) => shown.has(m.id))
  const slice = found.slice(offset, offset + perPage)
  const listings = await listingsByIds(db, viewer, slice.map((m) => m.id))
  return {
    matches: slice.flatMap((m) => {
      const listing = listings.get(m.id)
      return listing ? [{ listing, score: m.score, reasons: explain(src, m, now) }] : []
    }),
    total: found.length,
    page,
    per_page: perPage,
  }
}

/**
 * Unseen entries of the caller's inbox that still hold: the navigation's badge (a range of one index), counted after
 * any announcement still queued (a write answered a moment ago) is made.
 */
export async function unseenCount(db: Db, userId: number): Promise<number> {
  await drainAnnouncements(db)
  return unseenEntries(db, userId)
}

/**
 * The caller's inbox, newest first: matches found for their own listings. The entries that hold give the total, the
 * unseen count and the page together; only the page's entries are then read in full and scored (scores move with the
 * day and with edits, so they are computed when read).
 */
export async function inbox(db: Db, viewer: Viewer, q: InboxQuery): Promise<Inbox> {
  const { page, perPage, offset } = paging(q, 50)
  const onlyUnseen = q.unseen === '1' || q.unseen === 'true'
  // Announcements of a write answered a moment ago may still be queued: they are made before the inbox is read.
  await drainAnnouncements(db)
  // An entry shows while its pair holds: `live`, kept by triggers whenever either listing or the city's tolerance changes.
  const live = await shownEntries(db, viewer.id)
  const unseen = live.filter((e) => e.seen_at === null)
  const shown = onlyUnseen ? unseen : q.order === 'unseen_first' ? [...unseen, ...live.filter((e) => e.seen_at !== null)] : live
  const entries = shown.slice(offset, offset + perPage)
  const ids = [...new Set(entries.flatMap((e) => [e.listing_id, e.match_id]))]
  const sides = new Map((await sourcesOf(db, ids)).map((r) => [r.id, r]))
  const listings = await listingsByIds(db, viewer, ids)
  const now = Date.now()
  return {
    matches: entries.flatMap((e) => {
      const [listing, match] = [listings.get(e.listing_id), listings.get(e.match_id)]
      if (!listing || !match) return []
      const mine = sides.get(e.listing_id)!
      const { score, reasons } = scoreMatch(mine, sides.get(e.match_id)!, mine.tolerance, mine.country, now)
      return [{ id: e.id, listing_id: e.listing_id, listing, match, score, reasons, created_at: new Date(e.created_at).toISOString(), seen: e.seen_at !== null }]
    }),
    unseen: unseen.length,
    total: shown.length,
    page,
    per_page: perPage,
  }
}

/** "3 matches" for each of these listings the viewer may see (the others are left out). */
export async function matchCounts(db: Queryable, viewer: Viewer, ids: number[]): Promise<MatchCounts> {
  const counts: Record<string, number> = {}
  for (const src of await sourcesOf(db, await visibleIds(db, viewer, ids))) counts[src.id] = await countMatches(db, src, viewer.id)
  return { counts }
}
