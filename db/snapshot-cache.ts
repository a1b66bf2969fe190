import type { Change, Feed, FeedEvent } from './change-feed'

type Limits = {
  entries?: number
  /** Summed `weigh` of the entries (e.g. bytes of cached answers). */
  weight?: number
  weigh?: (value: unknown) => number
  /**
   * The topics of the feed this cache's answers are computed from; changes of other topics pass it by without a
   * look at any entry (a new listing announces up to 20 matches: 20 rows of the feed no listing answer depends on).
   */
  topics?: readonly Change['topic'][]
}

/** Which changes make a cached answer wrong. Without one, every change in the feed does. */
export type AffectedBy = (change: Change) => boolean

/**
 * The answer after a change that affects it (a count +1 or -1), or undefined when only computing it again can tell.
 * Such answers are kept up to date through writes instead of being recomputed after each.
 */
export type Adjust<T> = (value: T, change: Change) => T | undefined

type Entry = {
  value: unknown
  weight: number
  affectedBy: AffectedBy | null
  adjust: Adjust<unknown> | null
  /** The feed position the value is exactly as of (adjustable entries): earlier changes are in it already. */
  seq: number
}

/**
 * Answers computed from the database (totals, aggregates, whole pages), each forgotten as soon as a change that can
 * alter it is in the change feed (docs/decisions/005-change-feed.md): a new listing in Pune drops the pages and totals
 * it would appear in, not every answer. The feed is synced before each lookup, so nothing served is older than the
 * database as this process last saw it; past the limits the least recently used entries go first.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, Entry>()
  private weight = 0
  private readonly limits: Required<Limits>
  private readonly topics: Set<Change['topic']>

  constructor(
    private readonly feed: Feed,
    limits: Limits = {},
  ) {
    this.limits = { entries: 1000, weight: Infinity, weigh: () => 0, topics: ['listing', 'user', 'geography', 'match'], ...limits }
    this.topics = new Set(this.limits.topics)
    feed.subscribe((event) => this.apply(event))
  }

  get size() {
    return this.entries.size
  }

  clear() {
    this.entries.clear()
    this.weight = 0
  }

  /**
   * The cached answer for `key`, or `compute()`'s, kept until a change `affectedBy` accepts. The predicate given
   * with the lookup that computes is the one kept (it may close over what `compute` found, e.g. a page's ids).
   * Reads through the root handle only: a transaction's own writes must not be kept for everyone.
   */
  async get<T>(key: string, compute: () => Promise<T>, affectedBy?: AffectedBy, adjust?: Adjust<T>): Promise<T> {
    if (!this.feed.sync()) return compute()
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit.value as T
    }
    // An adjustable answer must be computed at a known feed position, or a change committed between the last sync and
    // the computation would be counted twice: once in the value, once applied.
    const synced = this.feed.seq
    const { value, seq } = adjust ? await this.feed.snapshot(compute) : { value: await compute(), seq: synced }
    // While this computed, another request may have synced the feed: the changes it handed out then never reach an
    // entry stored now, so such a value is served but not kept.
    if (seq === null || this.feed.seq > seq) return value
    const weight = this.limits.weigh(value)
    if (weight > this.limits.weight) return value
    this.entries.set(key, { value, weight, affectedBy: affectedBy ?? null, adjust: (adjust as Adjust<unknown>) ?? null, seq })
    this.weight += weight
    while (this.entries.size > this.limits.entries || this.weight > this.limits.weight) {
      const [oldest, entry] = this.entries.entries().next().value!
      this.entries.delete(oldest)
      this.weight -= entry.weight
    }
    return value
  }

  private apply(event: FeedEvent) {
    if ('reset' in event) return this.clear()
    const changes = event.changes.filter((c) => this.topics.has(c.topic))
    if (changes.length === 0) return
    for (const [key, entry] of this.entries) {
      const { affectedBy, adjust } = entry
      if (adjust) {
        for (const change of changes) {
          if (change.seq <= entry.seq || (affectedBy && !affectedBy(change))) continue
          const next = adjust(entry.value, change)
          if (next === undefined) {
            this.drop(key, entry)
            break
          }
          entry.value = next
        }
      } else if (affectedBy === null || changes.some(affectedBy)) this.drop(key, entry)
    }
  }

  private drop(key: string, entry: Entry) {
    this.entries.delete(key)
    this.weight -= entry.weight
  }
}
