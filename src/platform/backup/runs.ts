import type { Queryable } from '../../../db/sql'
import type { BackupResult, DataConfig } from './backup'

export type BackupTrigger = 'SCHEDULE' | 'MANUAL' | 'COMMAND'

export type BackupRun = {
  id: number
  trigger: BackupTrigger
  status: 'RUNNING' | 'OK' | 'FAILED' | 'INTERRUPTED'
  startedAt: number
  finishedAt: number | null
  file: string | null
  bytes: number | null
  error: string | null
  userId: number | null
}

/**
 * A run still RUNNING after this long died with its process (a backup of even a large database takes minutes): it no
 * longer holds Backup now back, and reads as INTERRUPTED.
 */
const INTERRUPTED_AFTER_MS = 3600_000

const COLUMNS = 'id, trigger, status, started_at as "startedAt", finished_at as "finishedAt", file, bytes, error, user_id as "userId"'

/**
 * Records the start of a run. With `unlessSince`, only when no run of that trigger started at or after that time (the
 * schedule across instances sharing one PostgreSQL database: the first to claim a period writes its backup), and
 * `unlessRunning`: only when no run is RUNNING. Answers the run's id, or null when another run has it.
 */
export async function startRun(
  db: Queryable,
  trigger: BackupTrigger,
  options: { userId?: number | null; unlessSince?: number; unlessRunning?: boolean; now?: number } = {},
): Promise<number | null> {
  const now = options.now ?? Date.now()
  const guards: string[] = []
  const params: (string | number | null)[] = [trigger, now, options.userId ?? null]
  if (options.unlessSince !== undefined) {
    guards.push("not exists (select 1 from backup_runs where trigger = ? and started_at >= ? and status <> 'FAILED')")
    params.push(trigger, options.unlessSince)
  }
  if (options.unlessRunning) {
    guards.push("not exists (select 1 from backup_runs where status = 'RUNNING' and started_at > ?)")
    params.push(now - INTERRUPTED_AFTER_MS)
  }
  const where = guards.length ? ` where ${guards.join(' and ')}` : ''
  const insert = `insert into backup_runs (trigger, status, started_at, user_id) select ?, 'RUNNING', ?, ?${where} returning id`
  // One statement; SQLite runs one writer at a time, so two processes claiming at once cannot both see "none". On
  // PostgreSQL each would see none while the other's row is uncommitted, and both write a backup: the instances' schedules
  // fall due together (each counts from the same last run), so the claim waits for any other first, under an
  // advisory lock held to its commit ("Bkup").
  const { rows } =
    guards.length && db.dialect === 'postgres'
      ? await db.tx(async (tx) => {
          await tx.get(`select pg_advisory_xact_lock(${0x426b7570}, 0) as held`)
          return tx.run<{ id: number }>(insert, params)
        })
      : await db.run<{ id: number }>(insert, params)
  return rows[0] ? Number(rows[0].id) : null
}

export async function finishRun(db: Queryable, id: number, outcome: { file: string; bytes: number } | { error: string }, now = Date.now()) {
  if ('error' in outcome)
    await db.run("update backup_runs set status = 'FAILED', finished_at = ?, error = ? where id = ?", [now, outcome.error.slice(0, 2000), id])
  else await db.run("update backup_runs set status = 'OK', finished_at = ?, file = ?, bytes = ? where id = ?", [now, outcome.file, outcome.bytes, id])
}

/**
 * At the start of a server on SQLite (one machine, one primary): the runs a previous server was writing when it
 * stopped (killed, or its machine lost) can no longer finish. Runs of `brokernet backup` by hand are left alone.
 */
export async function markAbandonedRuns(db: Queryable, now = Date.now()): Promise<number> {
  const { changes } = await db.run(
    "update backup_runs set status = 'INTERRUPTED', finished_at = ?, error = 'the server stopped before this backup finished' where status = 'RUNNING' and trigger in ('SCHEDULE', 'MANUAL')",
    [now],
  )
  return changes
}

/** A restored database shows the runs that were under way when its backup was taken as interrupted. */
export const MARK_RESTORED_RUNS =
  "update backup_runs set status = 'INTERRUPTED', error = 'in progress when the backup restored here was taken' where status = 'RUNNING'"

/** The newest runs, newest first. */
export async function recentRuns(db: Queryable, limit = 10, now = Date.now()): Promise<BackupRun[]> {
  const rows = await db.all<BackupRun>(`select ${COLUMNS} from backup_runs order by started_at desc, id desc limit ?`, [limit])
  return rows.map((r) => normalise(r, now))
}

/** The newest backup that was written, or null. */
export async function lastGoodRun(db: Queryable): Promise<BackupRun | null> {
  const row = await db.get<BackupRun>(`select ${COLUMNS} from backup_runs where status = 'OK' order by finished_at desc limit 1`)
  return row ? normalise(row, Date.now()) : null
}

function normalise(r: BackupRun, now: number): BackupRun {
  const run = {
    ...r,
    id: Number(r.id),
    startedAt: Number(r.startedAt),
    finishedAt: r.finishedAt === null ? null : Number(r.finishedAt),
    bytes: r.bytes === null ? null : Number(r.bytes),
    userId: r.userId === null ? null : Number(r.userId),
  }
  if (run.status === 'RUNNING' && now - run.startedAt > INTERRUPTED_AFTER_MS) run.status = 'INTERRUPTED'
  return run
}

/**
 * `brokernet backup` run by hand: recorded in the database it backs up (so the system screen knows of it), unless
 * `record` is false (the server runs the command and records the run itself). A database too old to have the table
 * (a backup before an upgrade) is backed up all the same.
 */
export async function recordCommandRun(config: DataConfig, record: boolean, work: () => Promise<BackupResult>): Promise<BackupResult> {
  if (!record) return work()
  const db = await openForRecord(config)
  let id: number | null = null
  try {
    id = db ? await startRun(db.q, 'COMMAND').catch(() => null) : null
    const result = await work().catch(async (e: Error) => {
      if (db && id !== null) await finishRun(db.q, id, { error: e.message }).catch(() => {})
      throw e
    })
    if (db && id !== null) await finishRun(db.q, id, { file: result.file, bytes: result.bytes }).catch(() => {})
    return result
  } finally {
    await db?.close()
  }
}

async function openForRecord(config: DataConfig): Promise<{ q: Queryable; close: () => Promise<void> } | null> {
  if (config.databaseUrl) {
    const { postgresDb } = await import('../../../db/postgres')
    const db = postgresDb(config.databaseUrl, { max: 1 })
    return { q: db, close: () => db.close() }
  }
  const { existsSync } = await import('node:fs')
  if (!existsSync(config.databasePath)) return null
  const { Database } = await import('bun:sqlite')
  const { SqliteDb } = await import('../../../db/sqlite')
  const file = new Database(config.databasePath, { strict: true })
  file.exec('PRAGMA busy_timeout = 5000')
  // One connection for two statements: it reads and writes.
  return { q: new SqliteDb(file, file), close: async () => file.close() }
}
