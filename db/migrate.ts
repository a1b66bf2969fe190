import { createHash } from 'node:crypto'
import type { MigrationMeta } from 'drizzle-orm/migrator'
import type { Database } from './client'
import { migrationFiles, migrationJournal } from './migrations'

/**
 * The migrations embedded in this program, in the shape drizzle's migrator builds from disk:
 * same statements, same `when`, same SHA-256 of each file, so a database migrated by either stays compatible.
 */
export function embeddedMigrations(): MigrationMeta[] {
  return migrationJournal.entries.map((entry) => {
    const text = migrationFiles[entry.tag]
    if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded: run bun run db:generate`)
    return {
      sql: text.split('--> statement-breakpoint'),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(text).digest('hex'),
    }
  })
}

/** Applies the embedded migrations not yet recorded in __drizzle_migrations, in one transaction. */
export function migrate(db: Database): void {
  // drizzle's dialect decides what to apply (by `when`) and records each migration exactly as drizzle-kit does.
  ;(db as any).dialect.migrate(embeddedMigrations(), (db as any).session)
}
