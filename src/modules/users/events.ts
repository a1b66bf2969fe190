import type { ChangeFeed, FeedEvent } from '../../../db/change-feed'

/** How often a process with open approval screens looks for registrations made through another process. */
const POLL_MS = 250

/** `'any'`: changes were missed (the feed was too far ahead), so every screen should count again. */
export type PendingScope = number | null | 'any'

/**
 * Tells open approval screens that the set of pending registrations changed, wherever the change was made: the
 * change feed carries every registration, approval and rejection, from this process or any other on the database.
 * `cityId` lets each listener decide whether the change is in its admin's scope.
 */
export class PendingEvents {
  private readonly target = new EventTarget()

  constructor(private readonly feed: ChangeFeed) {
    feed.subscribe((event) => this.onFeed(event))
  }

  /** Called after this process's own change: passes it on now rather than at the next poll. */
  changed(): void {
    this.feed.sync()
  }

  subscribe(listener: (cityId: PendingScope) => void, onClose: () => void): () => void {
    const handler = (e: Event) => listener((e as CustomEvent<{ cityId: PendingScope }>).detail.cityId)
    this.target.addEventListener('pending', handler)
    this.target.addEventListener('close', onClose)
    const release = this.feed.poll(POLL_MS)
    return () => {
      release()
      this.target.removeEventListener('pending', handler)
      this.target.removeEventListener('close', onClose)
    }
  }

  /** Ends every open stream: a graceful shutdown waits for requests in flight, and a stream never ends by itself. */
  close(): void {
    this.target.dispatchEvent(new Event('close'))
  }

  private emit(cityId: PendingScope) {
    this.target.dispatchEvent(new CustomEvent('pending', { detail: { cityId } }))
  }

  private onFeed(event: FeedEvent) {
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
