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
  let out = ''
  let n = 0
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
      out += j > i + 1 ? `$${sql.slice(i + 1, j)}` : `$${++n}`
      i = j - 1
    } else out += c
  }
  if (translations.size >= MAX_TRANSLATIONS) translations.delete(translations.keys().next().value!)
  translations.set(sql, out)
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

  async all<T>(sql: string, values: readonly Param[] = []): Promise<T[]> {
    try {
      return (await this.client.unsafe(numbered(sql), params(values), { prepare: true })) as unknown as T[]
    } catch (e) {
      throw postgresFault(e)
    }
  }

  async get<T>(sql: string, values: readonly Param[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, values))[0]
  }

  async run<T>(sql: string, values: readonly Param[] = []) {
    try {
      const result = await this.client.unsafe(numbered(sql), params(values), { prepare: true })
      return { changes: result.count ?? 0, rows: result as unknown as T[] }
    } catch (e) {
      throw postgresFault(e)
    }
  }

  /** Inside a transaction already: the same one. */
  tx<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return work(this)
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

  /** `afterWrite`: awaited after each committed transaction and each write on its own (the feed's catching up). */
  constructor(
    readonly sql: postgres.Sql,
    private readonly afterWrite: () => Promise<void> = async () => {},
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
    return this.guarded(() => timed(this.timer, 'read', () => super.all<T>(sql, values)))
  }

  override async run<T>(sql: string, values: readonly Param[] = []) {
    const result = await this.guarded(() => timed(this.timer, 'write', () => super.run<T>(sql, values)))
    await this.afterWrite()
    return result
  }

  override async tx<T>(work: (tx: Queryable) => Promise<T>, options: TxOptions = {}): Promise<T> {
    const open = (t: postgres.TransactionSql) => work(new PgQueryable(t))
    const value = (await this.guarded(() =>
      timed(this.timer, 'transaction', () => (options.consistent ? this.sql.begin('isolation level repeatable read', open) : this.sql.begin(open))),
    )) as T
    await this.afterWrite()
    return value
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
