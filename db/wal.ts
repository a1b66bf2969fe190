import { statSync } from 'node:fs'

// How SQLite's write-ahead log is kept short (docs/decisions/030-wal.md), in one place.

/** The log file's size past which the checkpointer thread makes it start over, even while writes go on (db/checkpointer.ts). */
export const RESTART_BYTES = 16 * 1024 * 1024

/**
 * When a writer starts the log over on its own (everything in it copied back, nobody reading it), its next commit
 * cuts the file down to this size (`journal_size_limit`); without a limit the file keeps its largest size for good.
 */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024

/**
 * Past this the writers themselves make the log start over, before their next transaction (db/sqlite.ts): the
 * checkpointer needs the write lock for a moment, and a process that commits transaction after transaction with no
 * pause (a batch of reminder mails, thousands of them) never leaves it one.
 */
export const WRITER_TRUNCATE_BYTES = 40 * 1024 * 1024

/** The size of `<database>-wal` in bytes; 0 when there is none. */
export function walFileSize(databasePath: string): number {
  try {
    return statSync(`${databasePath}-wal`).size
  } catch {
    return 0
  }
}
