import type { FeedEvent } from '../../../db/change-feed'
import type { Db } from '../../../db/sql'
import type { Actor } from '../../platform/http/auth'
import { LiveTopic } from '../../platform/http/live-topic'
import type { SendEvent } from '../../platform/http/sse'
import { listingMatches, listingVisible } from '../listings/affects'
import type { ListingFilters } from '../listings/model'
import { allOf, listedWhere, listingIs, ownedBy, type Viewer } from '../listings/store/where'
import { activeViewers } from '../users/store/read'
import { newsOf, type FeedListing } from './news'
import { filtersOf } from './service'
import { entryIdWhere } from '../listings/store'
import { allInstantSearches, instantSearchesOf } from './store'

// INSTANT alerts (issue 17): a listing posted, repriced or back on the market that one of a user's INSTANT searches
// lets through, as they may see it and not their own, is a `saved_search` event on their stream (GET /api/events),
// from whichever process holds the stream: every process reads the change feed.

/** One alert: which search, and the listing with news. */
export type SavedSearchNews = { userId: number; search: { id: number; name: string }; listing: { id: number; entry_id: string } }

type Instant = { id: number; user_id: number; name: string; filters: string }

export class SavedSearchAlerts extends LiveTopic<SavedSearchNews> {
  /** The users with an open stream in this process, as their searches see the listings. */
  private readonly viewers = new Map<number, { viewer: Viewer; streams: number }>()

  constructor(
    private readonly db: Db,
    feed: ConstructorParameters<typeof LiveTopic>[0],
  ) {
    super(feed)
  }

  /** Sends the user's alerts to one stream until it ends; returns the release. */
  follow(viewer: Viewer, send: SendEvent, end: () => void): () => void {
    const held = this.viewers.get(viewer.id) ?? { viewer, streams: 0 }
    held.streams++
    this.viewers.set(viewer.id, held)
    const unsubscribe = this.subscribe((news) => {
      if (news.userId === viewer.id) send('saved_search', { id: news.search.id, name: news.search.name, listing: news.listing })
    }, end)
    return () => {
      unsubscribe()
      if (--held.streams === 0) this.viewers.delete(viewer.id)
    }
  }

  protected onFeed(event: FeedEvent): void {
    if ('reset' in event || this.viewers.size === 0) return
    const listings = event.changes.map(newsOf).filter((l): l is FeedListing => l !== null)
    if (listings.length === 0) return
    this.announce(listings).catch((err) => console.error('[saved-searches] could not send the instant alerts:', err))
  }

  /**
   * The listening users' INSTANT searches (one query), judged on the feed's rows first, and each hit confirmed by the
   * list's own SQL for that listing: the feed's judge of a word made of parts ("MUM-0001") errs towards yes.
   */
  private async announce(listings: FeedListing[]): Promise<void> {
    const searches: Instant[] = await instantSearchesOf(this.db, [...this.viewers.keys()])
    for (const s of searches) {
      const viewer = this.viewers.get(s.user_id)?.viewer
      if (!viewer) continue
      const filters = filtersOf(s)
      for (const l of listings) {
        if (l.owner_user_id === s.user_id || !listingVisible(viewer, l) || !listingMatches(filters, l)) continue
        const found = await this.confirm(viewer, filters, l.id)
        if (found) this.emit({ userId: s.user_id, search: { id: s.id, name: s.name }, listing: { id: l.id, entry_id: found } })
      }
    }
  }

  private async confirm(viewer: Viewer, filters: ListingFilters, id: number): Promise<string | null> {
    const where = allOf(listingIs(id), listedWhere(viewer, filters, this.db.dialect))
    return entryIdWhere(this.db, where)
  }
}

/** The user's `saved_search` events, for their stream (src/modules/events/stream.ts). */
export const followSavedSearches = (alerts: SavedSearchAlerts, actor: Pick<Actor, 'id' | 'role' | 'cityId'>, send: SendEvent, end: () => void) =>
  alerts.follow({ id: actor.id, role: actor.role, cityId: actor.cityId }, send, end)

/** One INSTANT search's hit on a listing with news, for its owner's push alert (issue 33). */
export type InstantHit = { userId: number; search: { id: number; name: string }; entryId: string }

/**
 * The INSTANT searches of any user (not only those with a stream open here) that a listing with news now satisfies,
 * as its owner may see it and not their own: for push alerts, run once per write by the process that wrote it.
 * `reachable` narrows to the users worth the work (those with a device), before any listing is read.
 */
export async function instantHits(db: Db, listingId: number, reachable: (userIds: number[]) => Promise<Set<number>>): Promise<InstantHit[]> {
  const searches: Instant[] = await allInstantSearches(db)
  if (searches.length === 0) return []
  const can = await reachable(searches.map((s) => Number(s.user_id)))
  const wanted = searches.filter((s) => can.has(Number(s.user_id)))
  const viewers = await activeViewers(db, wanted.map((s) => Number(s.user_id)))
  const hits: InstantHit[] = []
  for (const s of wanted) {
    const viewer = viewers.get(Number(s.user_id))
    if (!viewer) continue
    const where = allOf(listingIs(listingId), ownedBy(viewer.id, false), listedWhere(viewer, filtersOf(s), db.dialect))
    const entryId = await entryIdWhere(db, where)
    if (entryId !== null) hits.push({ userId: viewer.id, search: { id: Number(s.id), name: s.name }, entryId })
  }
  return hits
}
