import { Database as SQLite, type SQLQueryBindings } from 'bun:sqlite'
import type { Database } from './client'
import { sqliteFault } from './faults'
import { timed, type Db, type Param, type Queryable, type StatementTimer } from './sql'
import { DEFAULT_READ_THREADS, ReadThreads } from './read-threads'
import { statement } from './statements'
import { walFileSize, WRITER_TRUNCATE_BYTES } from './wal'

const RETURNING = /\breturning\b/i

/** What a transaction asked for after the close meets (bun:sqlite's own words for a closed database). */
const closedError = () => new Error('Database has closed')

/** Another connection holds the file's write lock (SQLITE_BUSY and its extended codes). */
const BUSY = Symbol('busy')
const isBusy = (e: unknown): boolean => String((e as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY')

/** One statement on one connection: rows for a query, or the changed-row count (and RETURNING rows) for a write. */
function runOn<T>(client: SQLite, sql: string, params: readonly Param[]): { changes: number; rows: T[] } {
  const st = statement<T>(client, sql)
  if (RETURNING.test(sql)) {
    const rows = st.all(...(params as SQLQueryBindings[]))
    return { changes: rows.length, rows }
  }
  return { changes: st.run(...(params as SQLQueryBindings[])).changes, rows: [] }
}

/**
 * `work`'s result; SQLite's error as the application's (db/faults.ts): a unique key refused, the file locked past the
 * busy timeout or failing to read or write. Every statement passes here, in a transaction or not.
 */
function mapped<T>(work: () => T): T {
  try {
    return work()
  } catch (e) {
    throw sqliteFault(e)
  }
}

/** A read thread's failure, mapped as `mapped` maps one on the event loop. */
const fault = (e: unknown): never => {
  throw sqliteFault(e)
}

/** Inside a transaction: every statement on the writing connection, which holds the transaction. */
class SqliteTx implements Queryable {
  readonly dialect = 'sqlite' as const
  constructor(private readonly writer: SQLite) {}
  async all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    return mapped(() => statement<T>(this.writer, sql).all(...(params as SQLQueryBindings[])))
  }
  async get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    return mapped(() => statement<T>(this.writer, sql).get(...(params as SQLQueryBindings[])) ?? undefined)
  }
  async run<T>(sql: string, params: readonly Param[] = []) {
    return mapped(() => runOn<T>(this.writer, sql, params))
  }
  tx<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return work(this)
  }
  /** What the transaction waits for before its COMMIT (its statements ran already: SQLite answers at once). */
  deferred: Promise<unknown>[] = []
  defer(work: Promise<unknown>): void {
    work.catch(() => {})
    this.deferred.push(work)
  }
}

/**
 * The data layer on SQLite (docs/decisions/012-async-data-layer.md). Two connections to the same file:
 * - the reader answers every read outside a transaction. It is `query_only`, so a write sent the wrong way fails
 *   loudly, and WAL isolation keeps it from seeing a transaction that has not committed, even though transactions
 *   now wait on promises in between their statements;
 * - the writer holds transactions, one at a time in this process (others wait their turn in order), and plain writes.
 *   Other processes on the same file wait through SQLite's own lock (`busy_timeout`).
 * This is the same contract PostgreSQL gives with a pool: what one backend's stores assume, the other's keep.
 */
export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const
  private writing = false
  private readonly waiting: (() => void)[] = []
  private readonly inside: SqliteTx

  constructor(
    readonly writer: SQLite,
    readonly reader: SQLite,
    /**
     * Where reads outside a transaction run (db/read-threads.ts), or null: on `reader`, on the event loop. The change
     * feed reads through `reader` either way (one cheap statement before a cached lookup).
     */
    readonly threads: ReadThreads | null = null,
  ) {
    this.inside = new SqliteTx(writer)
    this.lockWaitMs = writer.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()?.timeout ?? 0
  }

  /** Told each read, write and transaction's duration (db/sql.ts); the transaction's own statements are not told apart. */
  timer: StatementTimer | null = null

  /**
   * Told after each commit of this process's own writes (a transaction, or a single write): db/open.ts has the change
   * feed read them then, on a timer, rather than at the start of the next request (docs/decisions/073-single-insert.md).
   */
  committed: (() => void) | null = null

  async all<T>(sql: string, params: readonly Param[] = []): Promise<T[]> {
    const threads = this.threads
    if (threads) return timed(this.timer, 'read', () => threads.all<T>(sql, params).catch(fault))
    return timed(this.timer, 'read', () => mapped(() => statement<T>(this.reader, sql).all(...(params as SQLQueryBindings[]))))
  }

  async get<T>(sql: string, params: readonly Param[] = []): Promise<T | undefined> {
    const threads = this.threads
    if (threads) return timed(this.timer, 'read', () => threads.get<T>(sql, params).catch(fault))
    return timed(this.timer, 'read', () => mapped(() => statement<T>(this.reader, sql).get(...(params as SQLQueryBindings[])) ?? undefined))
  }

  async run<T>(sql: string, params: readonly Param[] = []) {
    // With no transaction of this process open, a single statement commits on its own right away; else (or when
    // another process holds the write lock) it waits its turn as a transaction of its own, and is still timed as the
    // one write it is.
    if (!this.writing) {
      this.keepLogShort()
      const at = performance.now()
      const now = this.withoutWaiting(() => runOn<T>(this.writer, sql, params))
      if (now !== BUSY) {
        this.timer?.('write', performance.now() - at)
        this.committed?.()
        return now
      }
    }
    return timed(this.timer, 'write', () => this.transact((tx) => tx.run<T>(sql, params)))
  }

  async tx<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return timed(this.timer, 'transaction', () => this.transact(work))
  }

  defer(): void {
    throw new Error('defer: only inside a transaction')
  }

  private async transact<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.closed) throw closedError()
    if (this.writing) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.writing = true
    // Woken by the close (below): the turn is the close's, and nothing begins any more.
    if (this.closed) throw closedError()
    try {
      this.keepLogShort()
      // IMMEDIATE: take the file's write lock now, so two processes never both read and then fail to upgrade.
      await this.lockedIn()
      try {
        this.inside.deferred = []
        const value = await work(this.inside)
        // Deferred work failed: the transaction fails with it, as it would had the work been awaited.
        for (const deferred of this.inside.deferred.splice(0)) await deferred
        mapped(() => this.writer.run('COMMIT'))
        this.committed?.()
        return value
      } catch (e) {
        if (this.writer.inTransaction) this.writer.run('ROLLBACK')
        throw e
      }
    } finally {
      // The next waiter inherits the turn; with none, the writer is free.
      const next = this.waiting.shift()
      if (next) next()
      else this.writing = false
    }
  }

  private logRetryAt = 0
  private logBackoffMs = 0

  /**
   * Before each write (a stat: microseconds): when the write-ahead log has grown past WRITER_TRUNCATE_BYTES, this
   * writer makes it start over itself (docs/decisions/030-wal.md). The checkpointer thread keeps it near 16 MB, but it
   * needs the write lock for a moment, and a process that commits transaction after transaction never leaves it one:
   * between two of them here the lock is ours to take.
   *
   * While another connection checkpoints (the checkpointer thread; SQLite then refuses at once, log -1) this writer
   * waits, writing nothing, for it to finish: that checkpoint may be the one waiting for a moment without writes. A
   * reader still in the log, or the other process's writer, is waited for 100 ms at most; when that is not enough
   * nothing changes, and the next try is a quarter of a second later, then twice as long each time up to 4 s (a backup
   * reads one snapshot for as long as it runs).
   */
  private keepLogShort(): void {
    const path = this.writer.filename
    if (this.writer === this.reader || walFileSize(path) <= WRITER_TRUNCATE_BYTES) return
    const now = performance.now()
    if (now < this.logRetryAt) return
    const { timeout } = this.writer.query<{ timeout: number }, []>('PRAGMA busy_timeout').get()!
    this.writer.run('PRAGMA busy_timeout = 100')
    let done = false
    try {
      for (const deadline = now + 2000; ; ) {
        const { busy, log } = this.writer.query<{ busy: number; log: number }, []>('PRAGMA wal_checkpoint(TRUNCATE)').get()!
        if (busy === 0) done = true
        if (done || log !== -1 || performance.now() > deadline) break
        Bun.sleepSync(2)
        if (walFileSize(path) <= WRITER_TRUNCATE_BYTES) done = true
        if (done) break
      }
    } catch {
      // As busy: SQLite said no for now.
    } finally {
      this.writer.run(`PRAGMA busy_timeout = ${timeout}`)
      this.logBackoffMs = done ? 0 : Math.min(4000, Math.max(250, this.logBackoffMs * 2))
      this.logRetryAt = now + this.logBackoffMs
    }
  }

  /** The writer's busy_timeout as opened (5 s, db/client.ts): how long a write waits for another process's. */
  private readonly lockWaitMs: number
  /** The last refusal `withoutWaiting` met: what a write that waited in vain fails with. */
  private busyError: unknown = null

  /**
   * `work` (a statement that takes the file's write lock), tried with no busy wait: BUSY when another process (or
   * connection) holds the lock. SQLite's own wait (busy_timeout) sleeps on this thread, between tries 1, 2, 5, 10 ...
   * 100 ms apart: every request of the process would wait with the write, and the write itself up to the next try
   * after the lock came free (docs/decisions/058-write-lane.md). The connection's timeout is set back at once: other
   * users of it (migrations, fixtures through drizzle) keep SQLite's wait.
   */
  private withoutWaiting<T>(work: () => T): T | typeof BUSY {
    if (this.lockWaitMs === 0) return mapped(work)
    statement(this.writer, 'PRAGMA busy_timeout = 0').run()
    try {
      return work()
    } catch (e) {
      if (!isBusy(e)) throw sqliteFault(e)
      this.busyError = e
      return BUSY
    } finally {
      statement(this.writer, `PRAGMA busy_timeout = ${this.lockWaitMs}`).run()
    }
  }

  /**
   * BEGIN IMMEDIATE, its lock waited for on the event loop (tried every millisecond, up to the busy timeout), not on
   * the thread: the process answers its other requests meanwhile. Past the timeout, SQLite's busy error (a 503, 028).
   */
  private async lockedIn(): Promise<void> {
    const begin = () => this.writer.run('BEGIN IMMEDIATE')
    if (this.withoutWaiting(begin) !== BUSY) return
    for (const deadline = performance.now() + this.lockWaitMs; performance.now() < deadline; ) {
      await Bun.sleep(1)
      if (this.withoutWaiting(begin) !== BUSY) return
    }
    throw sqliteFault(this.busyError)
  }

  private closed = false

  /**
   * A transaction under way ends first (a match drain its timer began as the app stopped): the closing checkpoint
   * cannot run inside it (SQLITE_LOCKED, "database table is locked", seen in a full run), and its work is not cut off
   * halfway. Then the close keeps the writer's turn: transactions waiting for it, and any asked for later, fail as on a
   * closed database instead of waiting for ever.
   */
  async close(): Promise<void> {
    if (!this.closed) {
      if (this.writing) await new Promise<void>((resolve) => this.waiting.push(resolve))
      this.writing = true
      this.closed = true
      for (const next of this.waiting.splice(0)) next()
    }
    await this.threads?.close()
    if (this.reader !== this.writer) this.reader.close()
  }
}

/**
 * The async data layer over an open database: its connection becomes the writer, and a second connection to the
 * same file the reader. An in-memory database has no second connection to open: it reads through the writer
 * (tests of seeds and migrations only; an app always runs on a file). `readThreads`: how many threads answer the reads
 * outside transactions, each with a connection of its own (db/read-threads.ts); 0: the reader on the event loop.
 */
export function sqliteDb(database: Database, { readThreads = DEFAULT_READ_THREADS } = {}): SqliteDb {
  const writer = database.$client
  const path = writer.filename
  if (!path || path === ':memory:') return new SqliteDb(writer, writer)
  const reader = new SQLite(path, { strict: true })
  reader.exec('PRAGMA busy_timeout = 5000')
  reader.exec('PRAGMA temp_store = MEMORY')
  reader.exec('PRAGMA query_only = 1')
  return new SqliteDb(writer, reader, readThreads > 0 ? new ReadThreads(path, readThreads) : null)
}
