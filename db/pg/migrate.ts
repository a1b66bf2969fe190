import { drizzle } from 'drizzle-orm/postgres-js'
import type postgres from 'postgres'
import { embeddedMigrations } from '../migrate'
import { migrationFiles, migrationJournal } from './migrations'

/** The advisory lock every instance takes before migrating: "Brkn" as a number, any constant unique to the app. */
const MIGRATION_LOCK = 0x42726b6e

/**
 * Applies PostgreSQL's embedded migrations not yet recorded (in drizzle's own table, `drizzle.__drizzle_migrations`),
 * in one transaction, while holding an advisory lock: instances started together on an empty database wait for the
 * first one and then find nothing left to apply.
 */
export async function migratePostgres(sql: postgres.Sql): Promise<void> {
  // postgres.js 3.4.9 hands out a reserved connection only once the pool has opened one: a first query opens it.
  await sql`select 1`
  const held = await sql.reserve()
  try {
    await held`select pg_advisory_lock(${MIGRATION_LOCK})`
    const db = drizzle({ client: sql })
    await (db as any).dialect.migrate(embeddedMigrations(migrationJournal, migrationFiles), (db as any).session, {})
  } finally {
    await held`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
    held.release()
  }
}
