import type { FeedEvent } from '../../../db/change-feed'
import type { Queryable } from '../../../db/sql'
import { inOrder, LiveTopic } from '../../platform/http/live-topic'
import type { SendEvent } from '../../platform/http/sse'
import { expiringListings } from './reminders'

/**
 * Whose listings ending soon may have changed: `reminded` when a reminder was just recorded for them (news even if
 * the list is the same), else one of their listings changed (renewed, expired, closed). `'any'`: changes were missed.
 */
export type ExpiringNews = { userId: number | 'any'; reminded: boolean }

/**
 * Tells open event streams of owners reminded of an end (the feed's 'reminder' rows, which listing_reminders'
 * triggers write in whichever process sent the reminder) or whose listings changed, so the `expiring` event follows.
 */
export class ExpiringEvents extends LiveTopic<ExpiringNews> {
  protected onFeed(event: FeedEvent) {
    if ('reset' in event) return this.emit({ userId: 'any', reminded: false })
    const news = new Map<number, boolean>()
    for (const c of event.changes) {
      if (c.topic === 'reminder' && c.after) news.set(c.after.user_id as number, true)
      else if (c.topic === 'listing')
        for (const row of [c.before, c.after]) if (row && !news.has(row.owner_user_id as number)) news.set(row.owner_user_id as number, false)
    }
    for (const [userId, reminded] of news) this.emit({ userId, reminded })
  }
}

/**
 * Follows the owner's listings ending within 3 days (issue 17): sends `expiring` with `{ listings: [{ id, entry_id,
 * expires_at }] }` now, whenever a reminder of theirs is recorded (by any process), and when a change of one of their
 * listings changes that list (renewed, expired, closed).
 */
export function followExpiring(db: Queryable, events: ExpiringEvents, userId: number, send: SendEvent, end: () => void): () => void {
  let last: string | null = null
  const report = inOrder(async (reminded: boolean) => {
    const listings = await expiringListings(db, userId)
    const text = JSON.stringify(listings)
    if (!reminded && text === last) return
    last = text
    send('expiring', { listings })
  })
  const unsubscribe = events.subscribe((news) => {
    if (news.userId === userId || news.userId === 'any') report(news.reminded)
  }, end)
  report(true)
  return unsubscribe
}
