import type { Change, Feed, FeedEvent } from './change-feed'
import type { Queryable } from './sql'

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

const MAX_PENDING = 10_000

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
  /** Adjustable entries: whether a change is in the value already (its snapshot saw it). */
  seen: ((change: Change) => boolean) | null
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
  /**
   * Changes not yet applied to the entries: applied at this cache's next lookup, not when the feed hands them out. A
   * request that reads nothing cached (a write, which syncs the feed for its session) does not pay for them.
   */
  private pending: Change[] = []
  /**
   * Answers being computed, by key: a lookup of the same key meanwhile waits for that computation instead of starting
   * another (the first requests of a cold page all arrive before its first answer), when it is as current as that
   * lookup needs: started at the feed position the lookup has synced to, on the same handle.
   */
  private readonly flying = new Map<string, { at: number; db: Queryable | null; value: Promise<unknown> }>()
  private readonly limits: Required<Limits>
  private readonly topics: Set<Change['topic']>
  /**
   * Lookups answered from memory, and those computed (a miss, or a feed that could not be trusted), since start: read
   * by whoever watches (the app's metrics).
   */
  readonly lookups = { hits: 0, misses: 0 }

  constructor(
    /** The feed it follows (rows kept beside its answers follow the same one: db/kept-rows.ts). */
    readonly feed: Feed,
    limits: Limits = {},
  ) {
    this.limits = { entries: 1000, weight: Infinity, weigh: () => 0, topics: ['listing', 'user', 'geography', 'match'], ...limits }
    this.topics = new Set(this.limits.topics)
    feed.subscribe((event) => this.apply(event))
  }

  get size() {
    return this.entries.size
  }

  /**
   * Entries, their summed weight, and the ids held in arrays (windows of ids, pages' id lists): what the memory probe
   * reports (src/platform/memory-probe.ts).
   */
  describe(): { entries: number; weight: number; ids: number; pending: number } {
    let ids = 0
    for (const e of this.entries.values()) {
      const v = e.value as { ids?: unknown } | null
      if (v && typeof v === 'object' && Array.isArray(v.ids)) ids += v.ids.length
    }
    return { entries: this.entries.size, weight: this.weight, ids, pending: this.pending.length }
  }

  clear() {
    // Computations in flight finish for those waiting on them; nobody new joins one started before the reset.
    this.flying.clear()
    this.entries.clear()
    this.weight = 0
    this.pending = []
  }

  /**
   * The cached answer for `key`, or `compute()`'s, kept until a change `affectedBy` accepts. The predicate given
   * with the lookup that computes is the one kept (it may close over what `compute` found, e.g. a page's ids).
   * Reads through the root handle only: a transaction's own writes must not be kept for everyone.
   */
  async get<T>(key: string, compute: () => Promise<T>, affectedBy?: AffectedBy): Promise<T> {
    if (!this.feed.sync()) {
      this.lookups.misses++
      return compute()
    }
    this.flush()
    const hit = this.hit<T>(key)
    if (hit) return hit.value
    const joined = this.join<T>(key, null)
    if (joined) return joined
    this.lookups.misses++
    const synced = this.feed.seq
    return this.fly(key, null, synced, async () => {
      const value = await compute()
      // While this computed, other requests may have synced the feed: the changes handed out then never reach an entry
      // stored now, so the value is kept only when none of them could alter it.
      if (this.feed.seq > synced) {
        const missed = this.feed.since(synced)
        if (missed === null || missed.some((c) => this.topics.has(c.topic) && (!affectedBy || affectedBy(c)))) return value
      }
      this.keep(key, { value, weight: 0, affectedBy: affectedBy ?? null, adjust: null, seen: null })
      return value
    })
  }

  /**
   * The computation of `key` in flight, when it started at the position the feed is at now (so it reads everything this
   * lookup's request may have written or seen: its statements run after that) and on the same handle.
   */
  private join<T>(key: string, db: Queryable | null): Promise<T> | undefined {
    const flight = this.flying.get(key)
    if (!flight || flight.at !== this.feed.seq || flight.db !== db) return undefined
    this.lookups.hits++
    return flight.value as Promise<T>
  }

  private fly<T>(key: string, db: Queryable | null, at: number, work: () => Promise<T>): Promise<T> {
    const value = work()
    const flight = { at, db, value }
    this.flying.set(key, flight)
    const land = () => {
      if (this.flying.get(key) === flight) this.flying.delete(key)
    }
    value.then(land, land)
    return value
  }

  /**
   * A cached answer kept current through writes (a count): `compute` reads it through `db` in one snapshot, whose
   * place in the feed is known exactly (`Feed.snapshot`); then `adjust` applies each later change `affectedBy`
   * accepts, those that arrived while it computed first. A change whose effect `adjust` cannot tell drops it.
   */
  async adjustable<T>(key: string, db: Queryable, compute: (db: Queryable) => Promise<T>, affectedBy: AffectedBy, adjust: Adjust<T>): Promise<T> {
    if (!this.feed.sync()) {
      this.lookups.misses++
      return compute(db)
    }
    this.flush()
    // Inside another answer's snapshot (PostgreSQL), an entry kept current is newer than that snapshot: computed again.
    const pinned = this.feed.pinned(db)
    if (!pinned) {
      const hit = this.hit<T>(key)
      if (hit) return hit.value
      const joined = this.join<T>(key, db)
      if (joined) return joined
    }
    this.lookups.misses++
    const work = async () => {
      const { value, at } = await this.feed.snapshot(db, compute)
      if (at === null) return value
      const missed = this.feed.since(at.since)
      if (missed === null) return value
      let current = value
      for (const change of missed) {
        if (!this.topics.has(change.topic) || at.seen(change) || !affectedBy(change)) continue
        const next = adjust(current, change)
        if (next === undefined) return value
        current = next
      }
      this.keep(key, { value: current, weight: 0, affectedBy, adjust: adjust as Adjust<unknown>, seen: at.seen })
      // The snapshot's own value to a read inside it; the current one to anyone else.
      return pinned ? value : current
    }
    // A read inside another's snapshot answers for that snapshot alone: nobody joins it.
    return pinned ? work() : this.fly(key, db, this.feed.seq, work)
  }

  private hit<T>(key: string): { value: T } | undefined {
    const hit = this.entries.get(key)
    if (!hit) return undefined
    this.lookups.hits++
    this.entries.delete(key)
    this.entries.set(key, hit)
    return { value: hit.value as T }
  }

  private keep(key: string, entry: Entry): void {
    // The changes that arrived meanwhile go to the entries there were; the new one has taken those it missed.
    this.flush()
    const weight = this.limits.weigh(entry.value)
    if (weight > this.limits.weight) return
    const old = this.entries.get(key)
    if (old) this.drop(key, old)
    this.entries.set(key, { ...entry, weight })
    this.weight += weight
    this.evict()
  }

  private apply(event: FeedEvent) {
    if ('reset' in event) return this.clear()
    for (const change of event.changes) if (this.topics.has(change.topic)) this.pending.push(change)
    // Nobody has looked for a long while: forgetting everything is cheaper than catching up.
    if (this.pending.length > MAX_PENDING) this.clear()
  }

  private flush() {
    if (this.pending.length === 0) return
    const changes = this.pending
    this.pending = []
    for (const [key, entry] of this.entries) {
      const { affectedBy, adjust, seen } = entry
      if (adjust) {
        let moved = false
        for (const change of changes) {
          if (seen?.(change) || (affectedBy && !affectedBy(change))) continue
          const next = adjust(entry.value, change)
          if (next === undefined) {
            this.drop(key, entry)
            break
          }
          if (next !== entry.value) moved = true
          entry.value = next
        }
        // A window of ids grows and shrinks with the listings it follows: weighed again, as it is now. Only an entry a
        // change moved: weighing walks a window's ids, and most entries are untouched by a given write (issue 36).
        if (moved && this.entries.get(key) === entry) {
          const weight = this.limits.weigh(entry.value)
          this.weight += weight - entry.weight
          entry.weight = weight
        }
      } else if (affectedBy === null || changes.some(affectedBy)) this.drop(key, entry)
    }
    this.evict()
  }

  /** The least recently used entries go until the cache is within its limits. */
  private evict() {
    while (this.entries.size > this.limits.entries || this.weight > this.limits.weight) {
      const [oldest, e] = this.entries.entries().next().value!
      this.drop(oldest, e)
    }
  }

  private drop(key: string, entry: Entry) {
    this.entries.delete(key)
    this.weight -= entry.weight
  }
}
