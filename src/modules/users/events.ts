import type { FeedEvent } from '../../../db/change-feed'
import { LiveTopic } from '../../platform/http/live-topic'

/** `'any'`: changes were missed (the feed was too far ahead), so every screen should count again. */
export type PendingScope = number | null | 'any'

/**
 * Tells open event streams that the set of pending registrations changed, wherever the change was made: the change
 * feed carries every registration, approval and rejection, from this process or any other on the database. The city
 * lets each listener decide whether the change is in its admin's scope.
 */
export class PendingEvents extends LiveTopic<PendingScope> {
  protected onFeed(event: FeedEvent) {
    if ('reset' in event) return this.emit('any')
    const cities = new Set<number | null>()
    for (const c of event.changes) {
      if (c.topic !== 'user') continue
      for (const row of [c.before, c.after])
        if (row?.registration_status === 'PENDING') {
          cities.add((c.before?.city_id as number | null) ?? null)
          cities.add((c.after?.city_id as number | null) ?? null)
        }
    }
    for (const city of cities) this.emit(city)
  }
}
