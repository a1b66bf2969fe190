import { closeDatabase, openDatabase, type Database } from './client'
import { ChangeFeed, type Feed } from './change-feed'
import { isPostgresUnreachable } from './faults'
import type { Db } from './sql'
import { sqliteDb } from './sqlite'

/** Where the app's data lives: the data layer, the change feed that keeps caches true, and on SQLite the file's handle. */
export type DataSource = {
  db: Db
  feed: Feed
  /** SQLite's own handle, for what only a file has (checkpoints, the WAL pragmas); null on PostgreSQL. */
  sqlite: Database | null
  close: (options?: { checkpoint?: boolean }) => Promise<void>
}

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set (migrated under an advisory lock,
 * docs/decisions/013-postgres.md), else the SQLite file (migrated in one transaction). `migrate: false` for processes
 * that serve a database another prepared (SQLite's workers).
 */
export async function openDataSource(
  config: { databasePath: string; databaseUrl?: string; readThreads?: number },
  { migrate = true, startWaitMs = START_WAIT_MS, log = (line: string) => console.error(line) } = {},
): Promise<DataSource> {
  if (config.databaseUrl) return openPostgresWhenUp(config.databaseUrl, migrate, startWaitMs, log)
  return sqliteSource(openDatabase(config.databasePath, { migrate }), { readThreads: config.readThreads })
}

/**
 * The data source over an open SQLite database (tests open theirs themselves). `readThreads`: as READ_THREADS
 * (db/read-threads.ts; default 2).
 */
export function sqliteSource(sqlite: Database, { readThreads }: { readThreads?: number } = {}): DataSource {
  const db = sqliteDb(sqlite, { readThreads })
  const feed = new ChangeFeed(db.reader)
  // This process's own writes are read by the feed right after them, off the next request's path.
  db.committed = () => feed.soon()
  return {
    db,
    feed,
    sqlite,
    close: async ({ checkpoint = true } = {}) => {
      feed.close()
      await db.close()
      closeDatabase(sqlite, { checkpoint })
    },
  }
}

/**
 * How long a starting server waits for PostgreSQL before it gives up. A server started beside its database (at boot,
 * in one compose file) finds it starting up; on a machine loaded many times over a connection can take longer than
 * the 1.5 s a running server gives one before it counts the database away (db/postgres.ts), and a start that gave up
 * at the first slow connection left a full test run with a server that never started (issue 37, load 45).
 */
export const START_WAIT_MS = 30_000

/** openPostgres, tried again while PostgreSQL is out of reach (not for other errors), for up to `waitMs`. */
async function openPostgresWhenUp(url: string, migrate: boolean, waitMs: number, log: (line: string) => void): Promise<DataSource> {
  const t0 = performance.now()
  for (let attempt = 1; ; attempt++) {
    try {
      const source = await openPostgres(url, migrate)
      if (attempt > 1) log(`[database] PostgreSQL answered after ${((performance.now() - t0) / 1000).toFixed(1)} s: starting`)
      return source
    } catch (e) {
      if (!isPostgresUnreachable(e) || performance.now() - t0 >= waitMs) throw e
      if (attempt === 1) log(`[database] PostgreSQL is not answering yet (${(e as { code?: string }).code ?? (e as Error).message}): trying again for up to ${waitMs / 1000} s`)
      await Bun.sleep(250)
    }
  }
}

async function openPostgres(url: string, migrate: boolean): Promise<DataSource> {
  // Imported here: the postgres driver brings node:net, tls, crypto and stream (~20 ms of CPU at start), which a server
  // on SQLite never uses (issue 36, docs/decisions/004-lazy-start.md).
  const [{ migratePostgres }, { PgFeed }, { connectPostgres, PostgresDb }] = await Promise.all([import('./pg/migrate'), import('./pg-feed'), import('./postgres')])
  const sql = connectPostgres(url)
  let feed: Awaited<ReturnType<typeof PgFeed.start>>
  try {
    if (migrate) await migratePostgres(sql)
    feed = await PgFeed.start(url)
  } catch (e) {
    // Nothing of a failed attempt stays open (the next attempt opens its own).
    await sql.end({ timeout: 1 }).catch(() => {})
    throw e
  }
  // Each write of this process waits until its changes have reached this process's caches: its next read sees it.
  const db = new PostgresDb(sql, feed)
  return {
    db,
    feed,
    sqlite: null,
    close: async () => {
      feed.close()
      await db.close()
    },
  }
}
