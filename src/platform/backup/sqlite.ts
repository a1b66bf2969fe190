import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import { migrationJournal } from '../../../db/migrations'

/** What a restore checks a database against, and a backup records in its manifest. */
export type DatabaseFacts = {
  counts: Record<string, number>
  migrations: { count: number; last: string | null; lastWhen: number | null }
  /** The identity documents its users refer to (random file names). */
  documents: string[]
}

/**
 * An online copy of a live database: `VACUUM INTO` reads one consistent snapshot (every transaction committed before
 * it began, none after) through SQLite's own locking, while the server goes on reading and writing. A plain copy of
 * the file would miss what is still in the write-ahead log, or catch half a checkpoint.
 */
export function snapshotSqlite(databasePath: string, into: string): void {
  if (!existsSync(databasePath)) throw new Error(`there is no database at ${databasePath}: check DATA_DIR`)
  const live = new Database(databasePath, { readonly: true })
  try {
    live.exec('PRAGMA busy_timeout = 5000')
    live.query('VACUUM INTO ?').run(into)
  } finally {
    live.close()
  }
}

/** `PRAGMA integrity_check`'s verdict: 'ok', or its first complaints. */
export function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db.query('PRAGMA integrity_check(20)').values() as [string][]
    return rows.map((r) => r[0]).join('; ')
  } finally {
    db.close()
  }
}

/** Rows per table, the migration level and the documents referred to, read from a database file at rest. */
export function factsOfSqlite(path: string): DatabaseFacts {
  const db = new Database(path, { readonly: true })
  try {
    // Every table, internal ones of SQLite aside; FTS tables and their shadow tables are counted like any other.
    const tables = db.query("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").values() as [string][]
    const counts: Record<string, number> = {}
    for (const [name] of tables) counts[name] = (db.query(`select count(*) from "${name.replaceAll('"', '""')}"`).values()[0]![0] as number) ?? 0
    const documents = counts.users
      ? (db.query('select id_card_document from users where id_card_document is not null').values() as [string][]).map((r) => r[0])
      : []
    return { counts, migrations: migrationLevel(db), documents }
  } finally {
    db.close()
  }
}

function migrationLevel(db: Database): DatabaseFacts['migrations'] {
  try {
    const [count, lastWhen] = db.query('select count(*), max(created_at) from __drizzle_migrations').values()[0] as [number, number | string | null]
    return levelOf(count, lastWhen === null ? null : Number(lastWhen), migrationJournal)
  } catch {
    return { count: 0, last: null, lastWhen: null }
  }
}

/** A level by drizzle's `when`, named by this program's journal (null when this program does not know it: newer). */
export function levelOf(count: number, lastWhen: number | null, journal: { entries: { tag: string; when: number }[] }) {
  return { count, lastWhen, last: journal.entries.find((e) => e.when === lastWhen)?.tag ?? null }
}

/**
 * Fails when any process has the database open. A connection that holds it (a server, even idle) keeps a lock that
 * makes an exclusive transaction fail at once; one killed without closing holds none (the kernel drops its locks).
 */
export function assertNotInUse(databasePath: string): void {
  if (!existsSync(databasePath)) return
  const probe = new Database(databasePath)
  try {
    probe.exec('PRAGMA busy_timeout = 0')
    probe.exec('PRAGMA locking_mode = EXCLUSIVE')
    probe.exec('BEGIN EXCLUSIVE')
    probe.exec('ROLLBACK')
  } catch {
    throw new RestoreRefused(`a running Brokernet (or another program) has ${databasePath} open: stop it first`)
  } finally {
    probe.close()
  }
}

/** A restore that must not go ahead; its message says what to do instead. */
export class RestoreRefused extends Error {}
