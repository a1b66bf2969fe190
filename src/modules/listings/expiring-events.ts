import type { FeedEvent } from '../../../db/change-feed'
import { LiveTopic } from '../../platform/http/live-topic'

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
