import { Database as SQLite } from 'bun:sqlite'
import type { Database } from './client'
import { connectPostgres, PostgresDb } from './postgres'
import type { Db } from './sql'
import { sqliteDb } from './sqlite'

/**
 * A data layer for a thread of its own beside the server's (the push sender's, src/platform/push/thread.ts): the
 * database the server has already opened and migrated, with no change feed (nothing there caches) and, on PostgreSQL,
 * a pool of `max` connections. SQLite: a connection to the file with the server's pragmas; the server's connections
 * and this one share the file through SQLite's lock, as WORKERS processes do. Imports no drizzle, schema or
 * migrations (./client.ts does), so the thread loads little.
 */
export function openThreadDb(config: { databasePath: string; databaseUrl?: string }, { max = 4 } = {}): { db: Db; close: () => Promise<void> } {
  if (config.databaseUrl) {
    const db = new PostgresDb(connectPostgres(config.databaseUrl, { max }))
    return { db, close: () => db.close() }
  }
  const sqlite = new SQLite(config.databasePath, { strict: true })
  // As db/client.ts's openDatabase, and no checkpoint in a commit (src/server.ts: the checkpointer thread does them).
  for (const pragma of ['busy_timeout = 5000', 'synchronous = NORMAL', 'foreign_keys = ON', 'temp_store = MEMORY', 'wal_autocheckpoint = 0'])
    sqlite.exec(`PRAGMA ${pragma}`)
  // The data layer reads only `$client` of drizzle's handle. This is already a thread beside the server's: its reads
  // stay on it.
  const db = sqliteDb({ $client: sqlite } as Database, { readThreads: 0 })
  return {
    db,
    close: async () => {
      await db.close()
      sqlite.close()
    },
  }
}
