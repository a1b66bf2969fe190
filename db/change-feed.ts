import type { Database as SQLite } from 'bun:sqlite'
import type { Queryable } from './sql'
import { statement } from './statements'
import { WalIndexGate } from './wal-index'

/** One write, as the `change_feed` triggers record it (migration 0011): the row's relevant fields before and after. */
export type Change = {
  seq: number
  topic: 'listing' | 'user' | 'geography' | 'match' | 'session' | 'reminder' | 'circle' | 'deal'
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  /** PostgreSQL: the id of the transaction that made it (which snapshots see it). */
  xid?: number
}

/** Where a value read in one snapshot of the database stands against the feed. */
export type FeedPoint = {
  /** A feed position noted before the snapshot: every change handed out up to it is in the value. */
  since: number
  /** Whether a change handed out after `since` is in the value already. */
  seen: (change: Change) => boolean
}

/** What a listener is told: the changes since it last heard, in order, or that some were missed (forget everything). */
export type FeedEvent = { changes: Change[] } | { reset: true }

type Row = { seq: number; topic: Change['topic']; before: string | null; after: string | null }

/**
 * What caches and live streams follow: every committed change to the data their answers are computed from, from any
 * process or instance, in commit order. SQLite: `ChangeFeed` below (a table every process reads); PostgreSQL:
 * `PgFeed` (db/pg-feed.ts, notifications).
 */
export interface Feed {
  /** The position this process has caught up to: grows with every change handed to the listeners. */
  readonly seq: number
  /** Catches up before a cached read; false when the feed cannot be trusted right now (then nothing is cached). */
  sync(): boolean
  /**
   * `read`'s value through `db`, read so that which changes it holds is known exactly (`at`), or null when that cannot
   * be known (then the value may be served, not kept and adjusted).
   */
  snapshot<T>(db: Queryable, read: (db: Queryable) => Promise<T>): Promise<{ value: T; at: FeedPoint | null }>
  /** True when `db` reads a moment of the past (inside another read's snapshot): answers kept current do not fit it. */
  pinned(db: Queryable): boolean
  /** The changes handed out after position `seq`, in order; null when they are not all remembered. */
  since(seq: number): Change[] | null
  subscribe(listener: (event: FeedEvent) => void): () => void
  /** Keeps the listeners current without requests while anyone needs pushing; returns the release. */
  poll(ms: number): () => void
  close(): void
  /**
   * Read-after-write across instances (PostgreSQL only; docs/decisions/072-read-after-write.md): the position a write's
   * answer names, and the wait for this process to have heard it. Absent on SQLite, whose `sync()` reads every change
   * before a cached read: nothing to carry, nothing to wait for.
   */
  readonly position?: number | null
  reach?(position: number): Promise<void> | null
  /** What `reach` did since start (for the app's metrics): found the position heard, waited and heard it, gave up, ignored it. */
  readonly readAfter?: Readonly<Record<'heard' | 'waited' | 'timedOut' | 'ignored', number>>
}

/**
 * Follows the `change_feed` table (docs/decisions/005-change-feed.md). Every process on the database has one and
 * remembers the last sequence number it has passed on to its listeners (the caches, the live event streams).
 *
 * `sync()` is called before every cached read: when nothing has committed since the last call (the wal-index header
 * unchanged, ./wal-index.ts) that is one 48-byte read of the `-shm` file; else one statement tells whether this connection
 * (`total_changes`) or any other (`data_version`) wrote, and the new rows are read and handed to the listeners, so a
 * write is visible to the next read of every process that serves the same file.
 */
export class ChangeFeed implements Feed {
  private last: number
  private readonly recent: RecentChanges
  private version = ''
  private readonly listeners = new Set<(event: FeedEvent) => void>()
  private timer: ReturnType<typeof setInterval> | null = null
  private polled = 0
  private soonTimer: ReturnType<typeof setTimeout> | null = null
  private closed = false
  /** Skips the statement below while nothing has committed (./wal-index.ts); null: ask SQLite every time. */
  private gate: WalIndexGate | null

  /** `client`: the connection reads go through (the data layer's reader), which sees every commit of every process. */
  constructor(private readonly client: SQLite) {
    // Everything written before now is already in whatever this process will compute: start from the end.
    this.last = this.newest()
    this.recent = new RecentChanges(this.last)
    this.gate = WalIndexGate.open(client)
  }

  /** The sequence number this process has caught up to. */
  get seq(): number {
    return this.last
  }

  private newest(): number {
    return statement<{ seq: number | null }, []>(this.client, 'select max(seq) as seq from change_feed').get()!.seq ?? 0
  }

  /**
   * Runs `read` and tells the feed's position it is exactly as of: no later change in it, none before missing, so
   * changes after `seq` can be applied to it one by one. Reads are separate statements now (they wait on promises in
   * between), so instead of one read transaction the position is taken before and after: equal means no change was
   * committed meanwhile (SQLite commits one writer at a time, in feed order). Null when changes kept arriving: the
   * value is then right to serve once but not to keep.
   */
  async snapshot<T>(db: Queryable, read: (db: Queryable) => Promise<T>): Promise<{ value: T; at: FeedPoint | null }> {
    const since = this.last
    let value: T
    for (let attempt = 0; attempt < 3; attempt++) {
      const seq = this.newest()
      value = await read(db)
      if (this.newest() === seq) return { value, at: { since, seen: (c) => c.seq <= seq } }
    }
    return { value: value!, at: null }
  }

  /** Every read here sees the database as it is now. */
  pinned(): boolean {
    return false
  }

  since(seq: number): Change[] | null {
    return this.recent.since(seq)
  }

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Reads what other writers (and this connection) appended since the last call. Inside an open transaction it does
   * nothing and says so (false): rows of an uncommitted transaction may still be rolled back and their numbers
   * reused, so they must not be taken as seen; callers then compute without caching.
   */
  sync(): boolean {
    const client = this.client
    if (client.inTransaction) return false
    if (this.gate?.unchanged()) return true
    const v = statement<{ d: number; t: number }, []>(client, 'select (select data_version from pragma_data_version) as d, total_changes() as t').get()!
    const version = `${v.d}:${v.t}`
    if (version === this.version) return true
    this.version = version
    const rows = statement<Row, [number]>(client, 'select seq, topic, before, after from change_feed where seq > ? order by seq').all(this.last)
    if (rows.length === 0) return true
    // The feed keeps the newest rows only: a gap before the first one means changes this process never saw.
    const missed = rows[0]!.seq !== this.last + 1
    this.last = rows.at(-1)!.seq
    let event: FeedEvent
    if (missed) {
      event = { reset: true }
      this.recent.reset(this.last)
    } else {
      const changes: Change[] = rows.map((r) => ({ seq: r.seq, topic: r.topic, before: r.before === null ? null : JSON.parse(r.before), after: r.after === null ? null : JSON.parse(r.after) }))
      event = { changes }
      this.recent.add(changes)
    }
    for (const listener of this.listeners) listener(event)
    return true
  }

  /**
   * Syncs on a timer, once the work of this turn is done: called after each commit of this process's own writes
   * (db/open.ts), so a write's rows are read (and the caches told) after its answer has gone, not at the start of the
   * next request, whose answer waited for them (0.36 ms of CPU on a POST after a POST on the million listings, issue 36,
   * docs/decisions/073-single-insert.md). Any number of commits in a turn make one sync.
   */
  soon(): void {
    if (this.soonTimer || this.closed) return
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null
      if (!this.closed) this.sync()
    }, 0)
    this.soonTimer.unref?.()
  }

  /**
   * Syncs every `ms` while anyone needs pushing (an open event stream): other processes' writes reach this one's
   * listeners without waiting for a request. Returns the release; the timer stops with the last holder.
   */
  poll(ms: number): () => void {
    this.polled++
    this.timer ??= setInterval(() => this.sync(), ms)
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.polled === 0 && this.timer) {
        clearInterval(this.timer)
        this.timer = null
      }
    }
  }

  close(): void {
    this.closed = true
    this.gate = null
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    if (this.soonTimer) clearTimeout(this.soonTimer)
    this.soonTimer = null
    this.listeners.clear()
  }
}

/**
 * The last thousand or so changes a feed handed out: what a value computed while they arrived has missed (the cache
 * applies them before keeping it, db/snapshot-cache.ts). Every change after `floor` is here. A computation takes
 * milliseconds to seconds, and a value that missed more than this is served and not kept. Each change holds its rows
 * as objects (~1 KB): 4,096–8,192 of them were about half of a process's live heap after an expiry burst (issue 36,
 * docs/decisions/062-memory.md).
 */
export class RecentChanges {
  private log: Change[] = []

  constructor(
    private floor: number,
    private readonly limit = 1024,
  ) {}

  add(changes: readonly Change[]): void {
    this.log.push(...changes)
    if (this.log.length > 2 * this.limit) {
      this.log = this.log.slice(-this.limit)
      this.floor = this.log[0]!.seq - 1
    }
  }

  /** After a reset nothing before `at` is known. */
  reset(at: number): void {
    this.log = []
    this.floor = at
  }

  since(seq: number): Change[] | null {
    if (seq < this.floor) return null
    let i = this.log.length
    while (i > 0 && this.log[i - 1]!.seq > seq) i--
    return this.log.slice(i)
  }
}

/** True when a change of `topic` adds or removes a row, or changes any of `fields` (all fields when none are named). */
export function touches(c: Change, topic: Change['topic'], fields?: readonly string[]): boolean {
  if (c.topic !== topic) return false
  if (!c.before || !c.after || !fields) return true
  return fields.some((f) => c.before![f] !== c.after![f])
}
