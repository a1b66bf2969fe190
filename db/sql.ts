/**
 * The data layer's one way to the database, the same on every backend (docs/decisions/012-async-data-layer.md):
 * plain SQL text with `?` placeholders and its parameters, answered asynchronously. Stores write the portable subset
 * of SQL both SQLite and PostgreSQL speak; where they differ, the store asks `dialect`.
 *
 * Outside a transaction a read sees everything committed before it; a transaction (`tx`) sees its own writes, which
 * nobody else sees before it commits. Reads through the root handle never see an open transaction's writes, even on
 * SQLite, where the process shares one file: the root reads through its own connection (db/sqlite.ts).
 */
export type Param = string | number | bigint | boolean | null | Uint8Array

export type Dialect = 'sqlite' | 'postgres'

/** A piece of SQL with its parameters, composed into larger statements (filters, scopes). */
export type Clause = { sql: string; params: Param[] }

export interface Queryable {
  readonly dialect: Dialect
  /** Every row of a query. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<T[]>
  /** The first row of a query, or undefined. */
  get<T = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<T | undefined>
  /**
   * A statement that writes. Outside a transaction it is one on its own. `changes` counts the rows it changed;
   * RETURNING rows come back in `rows`.
   */
  run<T = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<{ changes: number; rows: T[] }>
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Inside, use only `tx`
   * (the root handle reads committed data and would not see the transaction's own writes). A transaction inside a
   * transaction is the same transaction. Keep slow work (hashing, mail, files) outside: on SQLite one transaction at a
   * time writes.
   *
   * `consistent`: every statement of the transaction sees the database as of its first one (PostgreSQL's repeatable
   * read; a SQLite transaction always does, its process writing one at a time). A concurrent write it would contradict
   * then fails it instead (`isConflict` in db/dialect.ts): the caller runs it again.
   */
  tx<T>(work: (tx: Queryable) => Promise<T>, options?: TxOptions): Promise<T>
  /**
   * Inside a transaction: work the transaction ends with, which its caller does not wait for first (the audit row and
   * the queue a write leaves, issue 36). On PostgreSQL its statements go out with the transaction's COMMIT, all in one
   * round trip; a statement that fails makes that COMMIT a rollback, and the transaction fails with its error
   * (docs/decisions/053-one-round-trip.md). So `work` must issue every statement before its first `await`: a statement
   * issued after the transaction ended fails. On SQLite the statements ran already; its failure fails the transaction.
   * Outside a transaction: refused.
   */
  defer(work: Promise<unknown>): void
}

export type TxOptions = { consistent?: boolean }

/** What a timed piece of work was: one read or one write on its own, or a whole transaction (its statements within). */
export type StatementKind = 'read' | 'write' | 'transaction'

/**
 * Told how long each statement outside a transaction, and each transaction as a whole, took (milliseconds, waiting for
 * a connection or SQLite's turn included). Whoever watches sets it (the app's metrics); the data layer knows no more.
 */
export type StatementTimer = (kind: StatementKind, ms: number) => void

/** The root handle of a running app: what its context holds and closes. */
export interface Db extends Queryable {
  close(): Promise<void>
  /**
   * True while the database is known to be out of reach: PostgreSQL from a failed connection until the server answers
   * again (db/pg-outage.ts; statements meanwhile wait for it briefly, then fail with DatabaseUnavailable, db/faults.ts).
   * Unset on SQLite, whose file is never away.
   */
  readonly away?: boolean
  /** Unset: nothing is timed (two `performance.now()` calls a statement when set). */
  timer?: StatementTimer | null
  /**
   * SQLite's read threads (db/read-threads.ts), for whoever watches: reads they answered since start, and those posted
   * and not answered yet. Unset or null: reads run where the backend runs them (PostgreSQL's pool; READ_THREADS=0).
   */
  readonly threads?: { readonly reads: number; readonly waiting: number } | null
}

/**
 * `work`'s result, its duration told to `timer` as `kind` (succeeded or not); without a timer, just `work`. A result
 * that is no promise (SQLite answers synchronously) is passed on as it is: no extra turn of the event loop.
 */
export function timed<T>(timer: StatementTimer | null | undefined, kind: StatementKind, work: () => T | Promise<T>): T | Promise<T> {
  if (!timer) return work()
  const at = performance.now()
  const tell = () => timer(kind, performance.now() - at)
  let result: T | Promise<T>
  try {
    result = work()
  } catch (e) {
    tell()
    throw e
  }
  if (result instanceof Promise) return result.finally(tell)
  tell()
  return result
}
