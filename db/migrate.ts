import type { MigrationMeta } from 'drizzle-orm/migrator'
import type { Database } from './client'
import { migrationFiles, migrationJournal } from './migrations'

/** drizzle-kit's `meta/_journal.json`: the migrations in order, with the time each was generated. */
export type Journal = { entries: { tag: string; when: number; breakpoints: boolean }[] }

/**
 * The migrations embedded in this program, in the shape drizzle's migrator builds from disk:
 * same statements, same `when`, same SHA-256 of each file, so a database migrated by either stays compatible.
 * (Bun's own SHA-256: node:crypto costs several milliseconds of every start just to load.)
 */
export function embeddedMigrations(journal: Journal = migrationJournal, files: Record<string, string> = migrationFiles): MigrationMeta[] {
  return journal.entries.map((entry) => {
    const text = files[entry.tag]
    if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded: run bun run db:generate`)
    return {
      sql: text.split('--> statement-breakpoint'),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: new Bun.CryptoHasher('sha256').update(text).digest('hex'),
    }
  })
}

/**
 * Whether drizzle would apply nothing: it applies every migration whose `when` is after the newest `created_at`
 * recorded in __drizzle_migrations. The usual start (an existing, current database) then skips building and hashing
 * the migrations and drizzle's own statements.
 */
function upToDate(db: Database): boolean {
  const newest = Math.max(...migrationJournal.entries.map((e) => e.when))
  try {
    const last = db.$client.query('SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1').get() as { created_at: number | string } | null
    return last !== null && Number(last.created_at) >= newest
  } catch {
    return false // no migrations table yet: a new database
  }
}

/** Applies the embedded migrations not yet recorded in __drizzle_migrations, in one transaction. */
export function migrate(db: Database): void {
  if (upToDate(db)) return
  // drizzle's dialect decides what to apply (by `when`) and records each migration exactly as drizzle-kit does.
  ;(db as any).dialect.migrate(embeddedMigrations(), (db as any).session)
}
