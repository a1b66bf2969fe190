import type { Feed, FeedEvent } from '../../../db/change-feed'

/** How often a process with open event streams looks for changes made through another process. */
export const LIVE_POLL_MS = 250

/**
 * One kind of news for this process's open event streams, wherever the change was made: a subclass reads the change
 * feed (every write, from this process or any other on the database) and `emit`s what its streams need to hear.
 * While any stream listens, the feed is polled, so other processes' writes arrive within `LIVE_POLL_MS`.
 */
export abstract class LiveTopic<News> {
  private readonly listeners = new Set<(news: News) => void>()
  private readonly closers = new Set<() => void>()

  constructor(protected readonly feed: Feed) {
    feed.subscribe((event) => this.onFeed(event))
  }

  /** How many open event streams of this process listen (for the app's metrics). */
  get listening(): number {
    return this.listeners.size
  }

  /** Called after this process's own change: passes it on now rather than at the next poll. */
  changed(): void {
    this.feed.sync()
  }

  subscribe(listener: (news: News) => void, onClose: () => void): () => void {
    this.listeners.add(listener)
    this.closers.add(onClose)
    const release = this.feed.poll(LIVE_POLL_MS)
    return () => {
      release()
      this.listeners.delete(listener)
      this.closers.delete(onClose)
    }
  }

  /** Ends every open stream: a graceful shutdown waits for requests in flight, and a stream never ends by itself. */
  close(): void {
    for (const onClose of [...this.closers]) onClose()
  }

  protected emit(news: News): void {
    for (const listener of [...this.listeners]) {
      // One stream's failure (its database read) is its own: the others, and the write that synced, go on.
      try {
        listener(news)
      } catch (err) {
        console.error('[events] a stream could not take its news:', err)
      }
    }
  }

  protected abstract onFeed(event: FeedEvent): void
}

/**
 * One report at a time, in the order the news came: each is read asynchronously, and an older one must not be sent
 * after a newer one. A failed read is this stream's own (logged); the next news reads again.
 */
export function inOrder<T>(report: (news: T) => Promise<void>): (news: T) => void {
  let reporting = Promise.resolve()
  return (news) => {
    reporting = reporting.then(() => report(news)).catch((err) => console.error('[events] a stream could not take its news:', err))
  }
}
