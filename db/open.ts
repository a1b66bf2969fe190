import { closeDatabase, openDatabase, type Database } from './client'
import { ChangeFeed, type Feed } from './change-feed'
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
export async function openDataSource(config: { databasePath: string; databaseUrl?: string; readThreads?: number }, { migrate = true } = {}): Promise<DataSource> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, migrate)
  return sqliteSource(openDatabase(config.databasePath, { migrate }), { readThreads: config.readThreads })
}

/**
 * The data source over an open SQLite database (tests open theirs themselves). `readThreads`: as READ_THREADS
 * (db/read-threads.ts; default 2).
 */
export function sqliteSource(sqlite: Database, { readThreads }: { readThreads?: number } = {}): DataSource {
  const db = sqliteDb(sqlite, { readThreads })
  const feed = new ChangeFeed(db.reader)
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

async function openPostgres(url: string, migrate: boolean): Promise<DataSource> {
  // Imported here: the postgres driver brings node:net, tls, crypto and stream (~20 ms of CPU at start), which a server
  // on SQLite never uses (issue 36, docs/decisions/004-lazy-start.md).
  const [{ migratePostgres }, { PgFeed }, { connectPostgres, PostgresDb }] = await Promise.all([import('./pg/migrate'), import('./pg-feed'), import('./postgres')])
  const sql = connectPostgres(url)
  if (migrate) await migratePostgres(sql)
  const feed = await PgFeed.start(url)
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
