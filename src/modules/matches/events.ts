import type { FeedEvent } from '../../../db/change-feed'
import { LiveTopic } from '../../platform/http/live-topic'

/**
 * Whose inbox may have changed: `created` holds the entries announced to them (unseen at birth). `'any'`: possibly
 * everyone's (changes were missed, or a listing was deleted), so every stream counts again.
 */
export type MatchNews = { userId: number | 'any'; created: number[] }

/**
 * Tells open event streams whose unseen matches changed, wherever the write was made. The feed's 'match' rows
 * (migrations 0017, 0018) name the entry's owner: an entry announced, seen, dismissed, or starting or ceasing to hold
 * (`live`, kept by triggers when a listing or a city's tolerance changes).
 */
export class MatchEvents extends LiveTopic<MatchNews> {
  protected onFeed(event: FeedEvent) {
    if ('reset' in event) return this.emit({ userId: 'any', created: [] })
    const news = new Map<number, number[]>()
    let everyone = false
    for (const c of event.changes) {
      if (c.topic === 'match') {
        const row = (c.after ?? c.before)!
        const created = news.get(row.user_id as number) ?? []
        news.set(row.user_id as number, created)
        if (!c.before && c.after && !c.after.seen && !c.after.dismissed) created.push(c.after.id as number)
      }
      // A deleted listing's entries go with it (a cascade, no trigger), so whose they were is not known.
      else if (c.topic === 'listing' && c.before && !c.after) everyone = true
    }
    // Each owner's own news first, so the ids of new entries reach them even when everyone counts again after.
    for (const [userId, created] of news) this.emit({ userId, created })
    if (everyone) this.emit({ userId: 'any', created: [] })
  }
}
