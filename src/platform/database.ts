import { statSync } from 'node:fs'
import type { Db } from '../../db/sql'

// What the health and system screens ask of the database itself, whichever backend it is (issue 31: the dialect's
// differences live in the stores and the platform, not in the features).

/** Whether the database answers a query of the migrations' record (drizzle keeps PostgreSQL's in its own schema). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await db.get(`select count(*) as n from ${db.dialect === 'postgres' ? 'drizzle.' : ''}__drizzle_migrations`)
    return true
  } catch {
    return false
  }
}

/** The database's size in bytes: PostgreSQL's own figure, or the SQLite file and its WAL at `path`; null when unknown. */
export async function databaseBytes(db: Db, path: string): Promise<number | null> {
  if (db.dialect === 'postgres') {
    const row = await db.get<{ n: number }>('select pg_database_size(current_database()) as n')
    return row ? Number(row.n) : null
  }
  const size = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }
  return size(path) + size(`${path}-wal`)
}
