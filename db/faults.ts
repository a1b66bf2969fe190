// The database's refusals the application answers for (issue 29; docs/decisions/028-database-faults.md): each driver's
// error is turned here, once, into one of the errors every store and service may know, whichever the backend. The one
// error handler (src/platform/http/errors.ts) answers them: 409 and 503.

export const NOT_ANSWERING = 'The database is not answering: try again in a moment'

/** Seconds a client is told to wait before trying again while the database is out of reach. */
export const RETRY_AFTER_SECONDS = 2

/**
 * The database cannot answer now: PostgreSQL out of reach (stopped, restarting, refusing connections), or SQLite's
 * file locked by another process for longer than its busy timeout or failing to read or write. A 503 with Retry-After:
 * the request was fine, and may be sent again.
 */
export class DatabaseUnavailable extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS
  /** The operator has been told already: PostgreSQL's outage watch logs an outage once (db/pg-outage.ts). */
  readonly reported: boolean

  constructor(message: string, options: { cause?: unknown; reported?: boolean } = {}) {
    super(message, { cause: options.cause })
    this.reported = options.reported ?? false
  }
}

/**
 * A write refused by a unique index or primary key: another row already holds these values (two requests racing past
 * a service's check, or no check at all). A 409; a service that knows the row may say more (`table`, `columns`,
 * `constraint`). The driver's message is kept, and its code as `driverCode` (PostgreSQL's 23505 is also a conflict to
 * run again, `isConflict` in db/dialect.ts); not as `code`, which Elysia would take for the error's name.
 */
export class UniqueViolation extends Error {
  constructor(
    message: string,
    readonly driverCode: string,
    /** The table written, when the driver names it. */
    readonly table: string | null,
    /** The columns of the key, when the driver names them (an index on an expression has none: see `constraint`). */
    readonly columns: readonly string[],
    /** The index or constraint, when the driver names it (PostgreSQL always; SQLite for an index on an expression). */
    readonly constraint: string | null,
    options: { cause?: unknown } = {},
  ) {
    super(message, options)
  }
}

/**
 * A write made only if its row is still as it was read (`… where id = ? and status = ?`) found no such row: another
 * write came between the read and this one. A 409 with the message the store gave. On PostgreSQL the statement raises
 * it itself (SQLSTATE `STALE_WRITE_STATE`, db/pg/migrations/0039_stale_write.sql), so the statements sent behind it in
 * the same round trip fail with its transaction; on SQLite the store throws it once the statement has answered.
 */
export class StaleWrite extends Error {}

/** The SQLSTATE `brokernet_expect_rows` raises (an implementation-defined class, ZS). */
export const STALE_WRITE_STATE = 'ZS409'

type DriverError = { code?: unknown; message?: unknown }
const codeOf = (e: unknown): string => String((e as DriverError | null)?.code ?? '')

// ---- SQLite (bun:sqlite's SQLiteError: `code` is the extended result code's name) ----------------------------------

/** The busy and locked kinds (another connection held the file past busy_timeout) and the I/O kinds. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR)(_|$)/

/** `e` as the application's error, when it is one of the kinds above; else `e` itself. */
export function sqliteFault(e: unknown): unknown {
  if (e instanceof UniqueViolation || e instanceof DatabaseUnavailable) return e
  const code = codeOf(e)
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const message = String((e as Error).message)
    // "UNIQUE constraint failed: cities.state_id, cities.name", or "…: index 'saved_searches_user_name_unique'".
    const failed = message.replace(/^.*constraint failed: /, '')
    const index = /^index '([^']+)'/.exec(failed)?.[1] ?? null
    const keys = index ? [] : failed.split(', ').map((k) => k.split('.'))
    const table = keys[0]?.length === 2 ? keys[0][0]! : null
    return new UniqueViolation(message, code, table, keys.map((k) => k[k.length - 1]!), index, { cause: e })
  }
  if (SQLITE_UNAVAILABLE.test(code))
    return new DatabaseUnavailable(`The database could not be read or written (${code}): try again in a moment`, { cause: e })
  return e
}

// ---- PostgreSQL (postgres.js: SQLSTATE codes from the server, its own codes and Node's for the connection) ---------

/** Connections that could not be made, were cut, or timed out; and the driver's own names for them. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT', // a Unix socket's file is gone: the server is stopped
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
])

/**
 * SQLSTATEs of a server that is away or cannot take this connection now: class 08 (connection exception),
 * 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now: starting up or shutting down), 53300 (too many
 * connections).
 */
const isUnavailableState = (code: string) => code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300'

/** True when `e` says the PostgreSQL server could not be reached or is not taking work now. */
export function isPostgresUnreachable(e: unknown): boolean {
  if (e instanceof DatabaseUnavailable) return true
  const code = codeOf(e)
  return UNREACHABLE.has(code) || isUnavailableState(code)
}

type PgError = DriverError & { table_name?: string; constraint_name?: string; detail?: string }

/**
 * `e` as the application's error, when it is one of the kinds above; else `e` itself. An outage is logged by the watch
 * it starts (db/pg-outage.ts), not by each request it fails.
 */
export function postgresFault(e: unknown): unknown {
  if (e instanceof UniqueViolation || e instanceof DatabaseUnavailable || e instanceof StaleWrite) return e
  const code = codeOf(e)
  if (code === STALE_WRITE_STATE) return new StaleWrite(String((e as PgError).message), { cause: e })
  if (code === '23505') {
    const pg = e as PgError
    return new UniqueViolation(String(pg.message), code, pg.table_name ?? null, keyColumns(pg.detail), pg.constraint_name ?? null, { cause: e })
  }
  if (isPostgresUnreachable(e)) return new DatabaseUnavailable(NOT_ANSWERING, { cause: e, reported: true })
  return e
}

/**
 * The columns named by a 23505's detail, `Key (state_id, name)=(1, Pune) already exists.`; an expression's column
 * (`lower(name::text)`) as its column (`name`).
 */
function keyColumns(detail: string | undefined): string[] {
  const key = /^Key \((.*?)\)=\(/.exec(detail ?? '')?.[1]
  if (!key) return []
  return key.split(', ').map((part) => {
    let column = part.trim()
    for (let inner = /^\w+\((.*)\)$/.exec(column); inner; inner = /^\w+\((.*)\)$/.exec(column)) column = inner[1]!
    return column.replace(/::[\w ]+$/, '').replace(/^"|"$/g, '')
  })
}
