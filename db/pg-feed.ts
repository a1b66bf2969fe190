import type postgres from 'postgres'
import { RecentChanges, type Change, type Feed, type FeedEvent, type FeedPoint } from './change-feed'
import { connectPostgres, PgSnapshotReader, PostgresDb, visibleIn, type Ping } from './postgres'
import type { Queryable } from './sql'

/** How often the listening connection is tried again while the database is away. */
const RELISTEN_MS = 100

/** The channel the triggers of db/pg/feed.sql notify. */
export const CHANGES_CHANNEL = 'brokernet_changes'

/**
 * The longest a request carrying a write's position waits for this process's feed to reach it (`reach`); past it the
 * request, and every other until the feed has caught up, reads from the database (docs/decisions/072-read-after-write.md).
 */
export const READ_AFTER_WAIT_MS = 1000
/**
 * A position further than this past the newest transaction id this process knows of is no transaction's (ids are
 * handed out one by one; 16 million more between two notifications this process hears is beyond any real gap): ignored.
 */
export const READ_AFTER_AHEAD = 2 ** 24
/** The transactions whose pings were heard lately, remembered so that a position already heard costs no round trip. */
const HEARD_KEPT = 4096

type Payload = { topic: Change['topic']; before: Record<string, unknown> | null; after: Record<string, unknown> | null; xid?: string | null; ping?: number; from?: string }

/**
 * The change feed on PostgreSQL (docs/decisions/013-postgres.md). Triggers notify every change on one channel;
 * PostgreSQL delivers notifications of committed transactions only, in commit order, to every instance listening.
 * This process listens on a connection of its own:
 * - `sync()` is true while that connection is up, so caches may serve; while it is down nothing is cached or served
 *   from a cache, and when it is back every listener is told to forget everything (what was missed is unknown);
 * - a change reaches the listeners a moment after its commit. A write of this process waits for its own changes
 *   (`caughtUp()`: a ping through the same channel, which arrives after them), so the next read of this process sees
 *   it; another instance sees it within that moment (milliseconds);
 * - a value is known exact by its snapshot instead of a position: `snapshot` reads in one repeatable-read transaction
 *   and notes which transactions it saw; each notification names its transaction (db/pg/feed.sql), so a kept count
 *   is adjusted by exactly the changes its snapshot did not see, whenever they arrive;
 * - read-after-write across instances (docs/decisions/072-read-after-write.md): a write transaction's ping names its
 *   transaction id, so every instance knows which writes it has heard. A write's answer names the newest one this
 *   process heard (`position`: its own write's or later); a request naming one this process has not heard waits until
 *   a ping it sends then comes back (`reach`: everything committed before is heard by then), at most
 *   READ_AFTER_WAIT_MS; past that, nothing is served from a cache until that ping arrives.
 */
export class PgFeed implements Feed {
  private last = 0
  private up = false
  private closed = false
  private pings = 0
  /**
   * Names this process's pings: every instance hears every ping on the channel, and another's ping of the same number
   * must not end this one's wait before its own changes have arrived.
   */
  private readonly token = crypto.randomUUID()
  private readonly waiting = new Map<number, () => void>()
  /** Transaction ids of the write pings heard lately (every instance's), oldest first. */
  private readonly heard = new Set<number>()
  /** The newest of them (0: none since the listener last connected), and the newest transaction id known at all. */
  private newest = 0
  private horizon = 0
  /** Waits of `reach` that ran out and whose ping has not arrived yet: while any does, no cache serves. */
  private behind = 0
  /** What `reach` did, since start: found the position heard, waited and heard it, gave up, or ignored a bad one. */
  readonly readAfter = { heard: 0, waited: 0, timedOut: 0, ignored: 0 }
  private readonly recent = new RecentChanges(0)
  private readonly listeners = new Set<(event: FeedEvent) => void>()
  private readonly connection: postgres.Sql

  private constructor(url: string) {
    this.connection = connectPostgres(url, {
      max: 1,
      idle_timeout: 0,
      max_lifetime: 0,
      onnotify: (channel, payload) => channel === CHANGES_CHANNEL && this.receive(payload),
      onclose: () => this.lost(),
    })
  }

  /** Listening before it returns: changes committed after that are all heard. */
  static async start(url: string): Promise<PgFeed> {
    const feed = new PgFeed(url)
    await feed.listen()
    return feed
  }

  get seq(): number {
    return this.last
  }

  sync(): boolean {
    return this.up && this.behind === 0
  }

  /**
   * The position a write's answer names: the newest write ping heard, which this process's own write waited for, so it
   * is that write's or a later one's (PostgreSQL delivers in commit order). Null while the listener is down, or since it
   * came back until a ping is heard again (a write of that time may have had none).
   */
  get position(): number | null {
    return this.up && this.newest > 0 ? this.newest : null
  }

  /**
   * Null at once when this process has heard `position` (or cannot trust its caches anyway, or the position is no
   * transaction's); otherwise a wait until a ping sent now comes back, which is after every change committed before the
   * request came (the write named among them), or READ_AFTER_WAIT_MS, whichever is first. A wait that ran out leaves
   * every cache of this process unused until that ping arrives: the request reads from the database, never a stale cache.
   */
  reach(position: number): Promise<void> | null {
    if (!this.up) return null
    if (this.heard.has(position)) {
      this.readAfter.heard++
      return null
    }
    if (!Number.isSafeInteger(position) || position <= 0 || position > this.horizon + READ_AFTER_AHEAD) {
      this.readAfter.ignored++
      return null
    }
    return this.catchUpWithin(READ_AFTER_WAIT_MS)
  }

  private async catchUpWithin(ms: number): Promise<void> {
    const heard = this.sendPing()
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = await Promise.race([heard.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, true)))])
    clearTimeout(timer)
    if (!late) {
      this.readAfter.waited++
      return
    }
    this.readAfter.timedOut++
    this.behind++
    void heard.then(() => this.behind--)
  }

  async snapshot<T>(db: Queryable, read: (db: Queryable) => Promise<T>): Promise<{ value: T; at: FeedPoint | null }> {
    // Inside another read's snapshot: the same one. Inside a write transaction: its own writes, never to be kept.
    if (db instanceof PgSnapshotReader) return { value: await read(db), at: pointOf(db) }
    if (!(db instanceof PostgresDb)) return { value: await read(db), at: null }
    const { value, reader } = await db.readSnapshot(this.last, read)
    return { value, at: pointOf(reader) }
  }

  pinned(db: Queryable): boolean {
    return db instanceof PgSnapshotReader
  }

  since(seq: number): Change[] | null {
    return this.recent.since(seq)
  }

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Notifications push: nothing to poll. */
  poll(): () => void {
    return () => {}
  }

  /**
   * Resolves once every change committed before the call has reached the listeners: a ping sent now is delivered
   * after them. Called after each write this process commits.
   */
  async caughtUp(): Promise<void> {
    if (!this.up) return
    await this.sendPing()
  }

  /**
   * A ping sent now on the listening connection; resolves once it is heard, or at once when it could not be sent (the
   * listening connection is going: nothing is served from a cache until it is back, and then every cache is forgotten).
   * A connection lost meanwhile resolves every wait (the listeners were reset instead).
   */
  private sendPing(): Promise<void> {
    const ping = ++this.pings
    const heard = new Promise<void>((resolve) => this.waiting.set(ping, resolve))
    this.connection.unsafe('select pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify({ ping, from: this.token })]).then(
      () => {},
      () => {
        this.waiting.get(ping)?.()
        this.waiting.delete(ping)
      },
    )
    return heard
  }

  /**
   * A ping for a write's transaction to send as its last statement (db/postgres.ts), so that no round trip of its own
   * follows the commit (issue 36). PostgreSQL delivers a transaction's notifications in the order they were sent, after
   * those of every transaction committed before it: when the ping is heard, so are the write's own changes and every
   * change committed before it. Null while this connection is down (nothing is served from a cache then). `drop` when
   * the transaction did not commit: its ping will never come.
   */
  ping(): Ping | null {
    if (!this.up) return null
    const ping = ++this.pings
    const heard = new Promise<void>((resolve) => this.waiting.set(ping, resolve))
    return {
      // The stores' placeholders: the transaction writes its parameters into its text (db/postgres.ts, `inlined`). The
      // transaction's id, when it has one (it wrote something), lets every instance tell that it has heard this write
      // (`reach`); a transaction that wrote nothing is given none (`_if_assigned`): no id is used up for it.
      sql: "select pg_notify(?, (?::jsonb || jsonb_build_object('xid', pg_current_xact_id_if_assigned()::text))::text)",
      params: [CHANGES_CHANNEL, JSON.stringify({ ping, from: this.token })],
      heard,
      drop: () => {
        this.waiting.get(ping)?.()
        this.waiting.delete(ping)
      },
    }
  }

  close(): void {
    this.closed = true
    this.listeners.clear()
    this.release()
    void this.connection.end({ timeout: 1 })
  }

  private async listen(): Promise<void> {
    await this.connection.unsafe(`listen ${CHANGES_CHANNEL}`)
    // The next transaction id to be handed out: a position beyond it (by far) is no transaction's (`reach`).
    const [next] = await this.connection.unsafe<{ x: string }[]>('select pg_snapshot_xmax(pg_current_snapshot())::text as x')
    if (this.closed) return
    const wasDown = this.last > 0 || this.pings > 0
    this.horizon = Math.max(this.horizon, Number(next?.x ?? 0))
    // A write of this process while the listener was down sent no ping: the newest heard may be older than it.
    this.newest = 0
    this.up = true
    if (wasDown) this.forget()
  }

  /** What was missed is unknown: every listener forgets everything, and a value read before now is not kept. */
  private forget(): void {
    this.recent.reset(++this.last)
    this.emit({ reset: true })
  }

  private lost(): void {
    if (this.closed || !this.up) return
    this.up = false
    this.release()
    this.forget()
    void this.reconnect()
  }

  /**
   * Tries again every RELISTEN_MS until the database answers (postgres.js reconnects on the next statement), so caches
   * serve again a moment after the database is back (issue 29).
   */
  private async reconnect(): Promise<void> {
    while (!this.closed && !this.up) {
      try {
        await this.listen()
      } catch {
        await Bun.sleep(RELISTEN_MS)
      }
    }
  }

  private release(): void {
    for (const resolve of this.waiting.values()) resolve()
    this.waiting.clear()
  }

  private receive(text: string): void {
    const payload = JSON.parse(text) as Payload
    if (payload.ping !== undefined) {
      // Every instance's write pings: heard here after that write's changes and every change committed before it.
      if (payload.xid) this.hearWrite(Number(payload.xid))
      if (payload.from !== this.token) return
      this.waiting.get(payload.ping)?.()
      this.waiting.delete(payload.ping)
      return
    }
    const change: Change = { seq: ++this.last, topic: payload.topic, before: payload.before, after: payload.after }
    if (payload.xid) {
      change.xid = Number(payload.xid)
      if (change.xid > this.horizon) this.horizon = change.xid
    }
    this.recent.add([change])
    this.emit({ changes: [change] })
  }

  private hearWrite(xid: number): void {
    this.heard.add(xid)
    if (this.heard.size > HEARD_KEPT) this.heard.delete(this.heard.values().next().value!)
    this.newest = xid
    if (xid > this.horizon) this.horizon = xid
  }

  private emit(event: FeedEvent): void {
    for (const listener of this.listeners) listener(event)
  }
}

/** A change is in a value read in `reader`'s snapshot when its transaction is one that snapshot sees. */
const pointOf = (reader: PgSnapshotReader): FeedPoint => ({
  since: reader.mark,
  seen: (c) => c.xid !== undefined && visibleIn(reader.snapshot, c.xid),
})
