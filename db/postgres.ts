import postgres from 'postgres'
import { DatabaseUnavailable, postgresFault } from './faults'
import { PgOutage } from './pg-outage'
import { timed, type Db, type Param, type Queryable, type StatementTimer, type TxOptions } from './sql'

type Client = postgres.Sql | postgres.TransactionSql

const MAX_TRANSLATIONS = 1024
const translations = new Map<string, string>()

/**
 * The stores' SQL with `?` placeholders (SQLite's, decision 012) as PostgreSQL wants it: `$1`, `$2`, … in order, and
 * `?N` as `$N`. Question marks inside quoted strings, quoted names and comments are left alone. Each text is translated
 * once and remembered (the stores' texts are few).
 */
export function numbered(sql: string): string {
  const known = translations.get(sql)
  if (known !== undefined) return known
  let n = 0
  const out = placeholders(sql, (k) => `$${k ?? ++n}`)
  if (translations.size >= MAX_TRANSLATIONS) translations.delete(translations.keys().next().value!)
  translations.set(sql, out)
  return out
}

/**
 * The stores' SQL with its parameters written into the text as literals (null when one cannot be: bytes), so it goes
 * out with no parameter at all. postgres.js sends a statement with parameters that its connection has not prepared yet
 * as Parse and Describe first, and the rest only once their answer has come back through this process's event loop:
 * inside a transaction, a turn of a busy loop (tens to hundreds of milliseconds) with the transaction's row locks held
 * (docs/decisions/064-pg-writes.md). A literal means what the parameter meant: postgres.js sends numbers and strings
 * as text of unknown type, which is what a quoted literal is; booleans and 64-bit integers typed, as they are here.
 */
export function inlined(sql: string, values: readonly Param[]): string | null {
  const literals: string[] = []
  for (const v of values) {
    const l = literal(v)
    if (l === null) return null
    literals.push(l)
  }
  let n = 0
  let missing = false
  const text = placeholders(sql, (k) => literals[(k ?? ++n) - 1] ?? ((missing = true), ''))
  // A placeholder without its value: sent as it is, PostgreSQL refuses it as it always did.
  return missing ? null : text
}

function literal(v: Param): string | null {
  if (v === null) return 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (typeof v === 'bigint') return `'${v}'::int8`
  if (typeof v === 'number') return `'${v}'`
  if (typeof v !== 'string') return null
  // Without backslashes a quoted string reads the same whatever standard_conforming_strings says. With them, an
  // escape string (E'…'), whose backslashes are escapes whatever that setting says: each doubled, as each quote is. (A
  // dollar-quoted string was tried: a text ending in the start of its tag, `\$q`, closed it early.)
  if (!v.includes('\\')) return `'${v.replaceAll("'", "''")}'`
  return `E'${v.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`
}

/** `sql` with each placeholder outside quotes and comments replaced: `?` (its number null) or `?N`. */
function placeholders(sql: string, replace: (numbered: number | null) => string): string {
  let out = ''
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c)
      out += sql.slice(i, end + 1)
      i = end
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end < 0 ? sql.length - 1 : end
      out += sql.slice(i, stop + 1)
      i = stop
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      const stop = end < 0 ? sql.length - 1 : end + 1
      out += sql.slice(i, stop + 1)
      i = stop
    } else if (c === '?') {
      let j = i + 1
      while (j < sql.length && sql[j]! >= '0' && sql[j]! <= '9') j++
      out += replace(j > i + 1 ? Number(sql.slice(i + 1, j)) : null)
      i = j - 1
    } else out += c
  }
  return out
}

/** Where a quoted string or name that opens at `start` closes (a doubled quote inside is part of it). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1
  for (;;) {
    const next = sql.indexOf(quote, i)
    if (next < 0) return sql.length - 1
    if (sql[next + 1] !== quote) return next
    i = next + 2
  }
}

const params = (values: readonly Param[]) => values as postgres.ParameterOrJSON<never>[]

class PgQueryable implements Queryable {
  readonly dialect = 'postgres' as const
  constructor(protected readonly client: Client) {}

  // A driver's error leaves as the application's (db/faults.ts): a unique key refused, the server out of reach.

  /** One statement, prepared on its connection (its plan kept there for the next time). */
  protected send(sql: string, values: readonly Param[]): postgres.PendingQuery<postgres.Row[]> {
    return this.client.unsafe(numbered(sql), params(values), { prepare: true })
  }

  async all<T>(sql: string, values: readonly Param[] = []): Promise<T[]> {
    try {
      return (await this.send(sql, values)) as unknown as T[]
    } catch (e) {
      throw postgresFault(e)
    }
  }

  async get<T>(sql: string, values: readonly Param[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, values))[0]
  }

  async run<T>(sql: string, values: readonly Param[] = []) {
    try {
      const result = await this.send(sql, values)
      return { changes: result.count ?? 0, rows: result as unknown as T[] }
    } catch (e) {
      throw postgresFault(e)
    }
  }

  /** Inside a transaction already: the same one. */
  tx<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return work(this)
  }

  defer(work: Promise<unknown>): void {
    // A snapshot's reads (PgSnapshotReader) and the root handle hold no transaction to end with.
    void work
    throw new Error('defer: only inside a transaction')
  }
}

/** A transaction's feed ping (db/pg-feed.ts): sent as its last statement, heard once its changes have been. */
export type Ping = { sql: string; params: Param[]; heard: Promise<void>; drop(): void }

/** What a write waits for after its commit: its own ping through the feed (db/pg-feed.ts), sent as its last statement. */
export type WriteFeed = { ping(): Ping | null }

const FAILED_TRANSACTION = '25P02'

/** "current transaction is aborted": refused only because a statement before it in its transaction was. */
const failedBefore = (f: unknown) => (f as { driverCode?: string; code?: string } | null)?.driverCode === FAILED_TRANSACTION || (f as { code?: string } | null)?.code === FAILED_TRANSACTION

/**
 * A transaction on a reserved connection whose statements are pipelined (issue 36): BEGIN goes out with the first
 * statement, each statement is sent when it is issued (not when the one before it answered), and COMMIT follows the
 * last at once. A statement that fails aborts the transaction on the server, every later one fails with 25P02, and the
 * COMMIT is answered as a rollback: `end` throws the first real failure.
 */
class PgPipelinedTx extends PgQueryable {
  private readonly sent: Promise<unknown>[] = []
  private readonly deferred: Promise<unknown>[] = []
  private ended = false

  constructor(private readonly connection: postgres.ReservedSql) {
    super(connection)
  }

  /** A statement of the transaction's own (BEGIN, the ping, COMMIT), tracked like the work's; its text as it goes. */
  own(sql: string): Promise<unknown> {
    return this.track(this.connection.unsafe(sql, [], { prepare: false }))
  }

  /** How many of the work's statements were sent. */
  private statements = 0

  /**
   * The work's first statement is prepared as anywhere else: until it has run the transaction holds no lock, so the
   * describe round trip a statement new to its connection costs (`inlined`) makes only this write wait. Every later
   * one goes out with its parameters in its text, in the same round trip as the rest, and is never held back for an
   * answer while the locks of the statements before it are held.
   */
  protected override send(sql: string, values: readonly Param[]): postgres.PendingQuery<postgres.Row[]> {
    const text = this.statements++ === 0 || values.length === 0 ? null : inlined(sql, values)
    return text === null ? super.send(sql, values) : this.connection.unsafe(text, [], { prepare: false })
  }

  private track<T>(p: Promise<T>): Promise<T> {
    p.catch(() => {})
    this.sent.push(p)
    return p
  }

  private open(): void {
    if (this.ended) throw new Error('a statement issued after its transaction ended (deferred work must issue every statement before its first await)')
  }

  override async all<T>(sql: string, values: readonly Param[] = []): Promise<T[]> {
    this.open()
    return this.track(super.all<T>(sql, values))
  }

  override async run<T>(sql: string, values: readonly Param[] = []) {
    this.open()
    return this.track(super.run<T>(sql, values))
  }

  override defer(work: Promise<unknown>): void {
    this.open()
    work.catch(() => {})
    this.deferred.push(work)
  }

  /** COMMIT sent after the ping (if any); resolves once it is answered, or throws what failed (then nothing committed). */
  async commit(ping: Ping | null): Promise<void> {
    if (ping) this.own(inlined(ping.sql, ping.params)!)
    this.own('commit')
    this.ended = true
    await this.settled()
    // Deferred work that failed without a failed statement (a bug of its own): its statements went out already.
    for (const work of this.deferred) await work
  }

  /**
   * After the work failed with `error`: ROLLBACK, once everything sent before it has been answered. Answers the error
   * to throw: `error`, unless it is only that the transaction had already failed (a statement the work awaited after
   * one it did not, which refused: `updateListingAsRead`'s stale write); then that first refusal.
   */
  async rollback(error: unknown): Promise<unknown> {
    this.ended = true
    const rollback = this.connection.unsafe('rollback')
    const results = await Promise.allSettled([...this.sent, rollback, ...this.deferred])
    if (results.some((r) => r.status === 'rejected' && postgresFault(r.reason) instanceof DatabaseUnavailable)) this.lost = true
    if (!failedBefore(error)) return error
    return results.map((r) => (r.status === 'rejected' ? postgresFault(r.reason) : null)).find((f) => f !== null && !failedBefore(f)) ?? error
  }

  /** Whether the connection itself failed (it is the pool's again, not ours to release). */
  lost = false

  private async settled(): Promise<void> {
    const results = await Promise.allSettled(this.sent)
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [postgresFault(r.reason)] : []))
    if (failures.length === 0) return
    if (failures.some((f) => f instanceof DatabaseUnavailable)) this.lost = true
    throw failures.find((f) => !failedBefore(f)) ?? failures[0]
  }
}

/**
 * Which transactions a snapshot sees (`pg_current_snapshot()`, 'xmin:xmax:xip,…'): every one below `xmin`, none from
 * `xmax` on, and between them all but those still running when it was taken.
 */
export type PgSnapshot = { xmin: number; xmax: number; running: ReadonlySet<number> }

export function parseSnapshot(text: string): PgSnapshot {
  const [xmin, xmax, running = ''] = text.split(':')
  return { xmin: Number(xmin), xmax: Number(xmax), running: new Set(running ? running.split(',').map(Number) : []) }
}

export const visibleIn = (s: PgSnapshot, xid: number): boolean => xid < s.xmin || (xid < s.xmax && !s.running.has(xid))

/**
 * Reads inside one read-only repeatable-read transaction: every statement sees the database as of `snapshot`.
 * `mark` is whatever the caller noted before it was taken (the change feed's position, db/pg-feed.ts).
 */
export class PgSnapshotReader extends PgQueryable {
  constructor(
    client: postgres.TransactionSql,
    readonly snapshot: PgSnapshot,
    readonly mark: number,
  ) {
    super(client)
  }
}

/**
 * The data layer on PostgreSQL (issue 16): a postgres.js pool. Reads outside a transaction take any connection and see
 * what is committed; a transaction holds one connection from BEGIN to COMMIT. Integers of 64 bits (counts, epoch
 * milliseconds) and numerics (sums) come back as JavaScript numbers, as SQLite gives them: every such value here is far
 * below 2^53.
 */
export class PostgresDb extends PgQueryable implements Db {
  /** Whether the server can be reached: statements wait for it briefly during an outage, then fail (db/pg-outage.ts). */
  private readonly outage: PgOutage

  /**
   * `feed`: what a write waits for once committed, so this process's next read sees it (db/pg-feed.ts): a transaction
   * sends the feed's ping as its last statement (a write on its own is a transaction of one statement).
   */
  constructor(
    readonly sql: postgres.Sql,
    private readonly feed: WriteFeed | null = null,
    outage?: PgOutage,
  ) {
    super(sql)
    this.outage = outage ?? new PgOutage(() => sql.unsafe('select 1'))
  }

  get away(): boolean {
    return this.outage.away
  }

  /** Through the outage watch: `work` once the server is reachable (or a 503); a failure to reach it starts an outage. */
  private async guarded<T>(work: () => T | Promise<T>): Promise<T> {
    // Only during an outage: no extra turn for every statement otherwise.
    if (this.outage.away) await this.outage.ready()
    try {
      return await work()
    } catch (e) {
      const fault = postgresFault(e)
      if (fault instanceof DatabaseUnavailable) this.outage.lost(fault)
      throw fault
    }
  }

  /**
   * Told each read, write and transaction's duration (db/sql.ts), from asking the pool to the answer: the wait for this
   * process's caches to catch up after a write (`afterWrite`) is not the statement's.
   */
  timer: StatementTimer | null = null

  override async all<T>(sql: string, values: readonly Param[] = []): Promise<T[]> {
    return this.guarded(() => timed(this.timer, 'read', () => this.whileReachable(super.all<T>(sql, values))))
  }

  /**
   * A read's answer, waited for no longer than a statement waits once an outage starts meanwhile (503 after a second,
   * or the answer as soon as the server is back). A read queued in the pool when the server went out of reach waited
   * for the pool's connection attempts one after another (1.5 s each), as a reservation did (`reserve`): a full run saw
   * one request answered after 9.6 s with the network silent. Only reads: a read given up on changes nothing when it
   * runs later, where a write answered 503 and done afterwards would.
   */
  private async whileReachable<T>(reading: Promise<T>): Promise<T> {
    const lost = this.outage.whenLost()
    // Given up on below, it may still fail later: not an unhandled rejection.
    reading.catch(() => {})
    try {
      const first = await Promise.race([reading.then((value) => ({ value })), lost.promise.then(() => null)])
      if (first) return first.value
      const second = await Promise.race([reading.then((value) => ({ value })), this.outage.ready().then(() => null)])
      return second ? second.value : await reading
    } finally {
      lost.cancel()
    }
  }

  /**
   * A write on its own: a one-statement transaction on a reserved connection (`pipelined`), BEGIN, the statement, the
   * feed's ping and COMMIT in one round trip. Given to the pool's queue instead, a write waiting there when the server
   * went out of reach waited through the pool's connection attempts one after another (1.5 s each: a full run saw
   * "create a city" answered 503 after 11.2 s with the network silent), and it could not be bounded as reads are: once
   * the pool had handed it to a connection being opened, a cancel could not take it back, and 17 of 24 writes answered
   * 503 were written when the network came back. A reservation is bounded (`reserve`), and a write answered 503 while
   * waiting for its connection was never sent (issue 37). The ping and COMMIT go out right behind the statement, not
   * once it has answered: its row locks were held through a turn of this process's event loop, and two instances'
   * expiry timers writing the same listing waited on each other for that long (issue 36).
   */
  override async run<T>(sql: string, values: readonly Param[] = []) {
    const ping = this.feed?.ping() ?? null
    const work = async (tx: Queryable) => {
      const answer = tx.run<T>(sql, values)
      // Awaited once committed (a failure is also what the COMMIT throws).
      answer.catch(() => {})
      return { answer }
    }
    try {
      const result = await this.guarded(() => timed(this.timer, 'write', async () => (await this.pipelined(work, {}, ping)).answer))
      await ping?.heard
      return result
    } catch (e) {
      ping?.drop()
      throw e
    }
  }

  /**
   * One transaction, its statements pipelined on one reserved connection (PgPipelinedTx): BEGIN, the work's
   * statements, the feed's ping and COMMIT make as many round trips as the work awaits answers, plus one. A write whose
   * work awaits nothing (its statements issued at once, or deferred) is one round trip (issue 36).
   */
  override async tx<T>(work: (tx: Queryable) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const ping = this.feed?.ping() ?? null
    try {
      const value = await this.guarded(() => timed(this.timer, 'transaction', () => this.pipelined(work, options, ping)))
      await ping?.heard
      return value
    } catch (e) {
      ping?.drop()
      throw e
    }
  }

  private async pipelined<T>(work: (tx: Queryable) => Promise<T>, options: TxOptions, ping: Ping | null): Promise<T> {
    const connection = await this.reserve()
    const tx = new PgPipelinedTx(connection)
    try {
      tx.own(options.consistent ? 'begin isolation level repeatable read' : 'begin')
      let value: T
      try {
        value = await work(tx)
      } catch (e) {
        throw await tx.rollback(e)
      }
      await tx.commit(ping)
      return value
    } finally {
      // A connection that failed is back in the pool's hands (closed, to be connected again): not ours to release.
      if (!tx.lost) connection.release()
    }
  }

  /**
   * A connection of the pool for one transaction. A reservation waits in the pool's queue, and when the server goes out
   * of reach there it would wait for the pool's connection attempts one after another (1.5 s each: 11 s seen in a full
   * run). Once an outage is on it waits no longer than a statement does (PgOutage.ready: 503 after a second, or on as
   * soon as the server is back); a connection that comes after it gave up goes straight back to the pool.
   */
  private async reserve(): Promise<postgres.ReservedSql> {
    const reserving = this.sql.reserve()
    const lost = this.outage.whenLost()
    try {
      const first = await Promise.race([reserving.then((c) => ({ c })), lost.promise.then(() => null)])
      if (first) return first.c
      const second = await Promise.race([reserving.then((c) => ({ c })), this.outage.ready().then(() => null)])
      return second ? second.c : await reserving
    } catch (e) {
      void reserving.then((c) => c.release(), () => {})
      throw e
    } finally {
      lost.cancel()
    }
  }

  /** `read` in one snapshot of the database, and which transactions that snapshot sees. */
  async readSnapshot<T>(mark: number, read: (reader: PgSnapshotReader) => Promise<T>): Promise<{ value: T; reader: PgSnapshotReader }> {
    return (await this.guarded(() =>
      timed(this.timer, 'transaction', () =>
        this.sql.begin('isolation level repeatable read read only', async (t) => {
          // The first statement takes the transaction's snapshot; the function returns that very one.
          const [row] = await t.unsafe<{ s: string }[]>('select pg_current_snapshot()::text as s', [], { prepare: true })
          const reader = new PgSnapshotReader(t, parseSnapshot(row!.s), mark)
          return { value: await read(reader), reader }
        }),
      ),
    )) as { value: T; reader: PgSnapshotReader }
  }

  async close(): Promise<void> {
    this.outage.close()
    await this.sql.end({ timeout: 5 })
  }
}

/** Seconds to wait for a connection to the server before counting it out of reach (issue 29: within 2 s). */
export const CONNECT_TIMEOUT_S = 1.5
/** Seconds between a failed connection and the next attempt of the same pooled connection. */
const RECONNECT_DELAY_S = 0.05

const asNumber = { serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) }

/**
 * A pool for `DATABASE_URL` (`postgres://user:password@host:port/database`). A Unix socket is named as libpq does, by
 * a `host` parameter holding its folder: `postgres://user@localhost/db?host=/run/postgresql`.
 */
type ConnectOptions = {
  max?: number
  connect_timeout?: number
  idle_timeout?: number
  max_lifetime?: number
  onnotify?: (channel: string, payload: string) => void
  onclose?: (connectionId: number) => void
}

export function connectPostgres(url: string, options: ConnectOptions = {}): postgres.Sql {
  const parsed = new URL(url)
  const socketDir = parsed.searchParams.get('host')
  parsed.searchParams.delete('host')
  return postgres(parsed.toString(), {
    ...(options as postgres.Options<{}>),
    max: options.max ?? 10,
    ...(socketDir ? { host: socketDir } : {}),
    // A server out of reach is known within CONNECT_TIMEOUT_S (postgres.js waits 30 s), unless the URL sets its own
    // `connect_timeout` (seconds); and a connection is tried again at once, not after the driver's backoff, which grows
    // to 20 s over failed attempts and held requests that long after the server was back (issue 29). During an outage
    // only the outage watch's probe tries (db/pg-outage.ts).
    ...(parsed.searchParams.has('connect_timeout') ? {} : { connect_timeout: options.connect_timeout ?? CONNECT_TIMEOUT_S }),
    backoff: () => RECONNECT_DELAY_S,
    // Our own statements only: no type lookups at connect (no arrays of custom types here).
    fetch_types: false,
    onnotice: () => {},
    types: {
      bigint: { to: 20, from: [20], ...asNumber },
      numeric: { to: 1700, from: [1700], ...asNumber },
    },
  })
}

export function postgresDb(url: string, options: { max?: number } = {}): PostgresDb {
  return new PostgresDb(connectPostgres(url, options))
}
