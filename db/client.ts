import { Database as SQLite } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'
import { migrate } from './migrate'
import { JOURNAL_SIZE_LIMIT } from './wal'

export type Database = BunSQLiteDatabase<typeof schema> & { $client: SQLite }

/**
 * Opens (creating if needed) the SQLite file with the pragmas of a trusted single-node deployment,
 * and brings its schema up to date. `:memory:` works too.
 */
export function openDatabase(path: string, { migrate: upgrade = true } = {}): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path, { create: true, strict: true })
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA temp_store = MEMORY')
  sqlite.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`)
  const db = drizzle({ client: sqlite, schema }) as Database
  if (upgrade) migrate(db)
  return db
}

export function closeDatabase(db: Database, { checkpoint = true } = {}): void {
  // Folds the WAL back into the main file so a copied database is whole (the last process to close does it).
  try {
    if (checkpoint) db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  } finally {
    db.$client.close()
  }
}
