import type { FeedEvent } from '../../../db/change-feed'
import type { Db } from '../../../db/sql'
import { LiveTopic } from '../../platform/http/live-topic'
import type { SendEvent } from '../../platform/http/sse'

/** A co-broke step for the two brokers' streams: a request sent or answered, a deal's step, a message. */
export type DealNews = { users: number[]; kind: 'request' | 'deal' | 'message'; id: number; status: string }

/**
 * Tells open event streams of each co-broking step, wherever it was written: the feed's `deal` rows (db/*\/feed.sql)
 * name both brokers.
 */
export class DealEvents extends LiveTopic<DealNews> {
  protected onFeed(event: FeedEvent) {
    if ('reset' in event) return
    for (const c of event.changes) {
      if (c.topic !== 'deal' || !c.after) continue
      const a = c.after
      this.emit({ users: [Number(a.owner_id), Number(a.requester_id)], kind: a.kind as DealNews['kind'], id: Number(a.id), status: String(a.status ?? a.stage) })
    }
  }
}

/** The user's `deal` events, for their stream. */
export function followDeals(_db: Db, events: DealEvents, userId: number, send: SendEvent, end: () => void): () => void {
  return events.subscribe((news) => {
    if (news.users.includes(userId)) send('deal', { kind: news.kind, id: news.id, status: news.status })
  }, end)
}
