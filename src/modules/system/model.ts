import { t } from 'elysia'
import { Nullable } from '../../shared/schema'

/** One backup run (src/platform/backup/runs.ts) as the system screen shows it. */
export const BackupRun = t.Object({
  id: t.Integer(),
  trigger: t.Union([t.Literal('SCHEDULE'), t.Literal('MANUAL'), t.Literal('COMMAND')], { description: 'BACKUP_EVERY, Backup now, or `brokernet backup`' }),
  status: t.Union([t.Literal('RUNNING'), t.Literal('OK'), t.Literal('FAILED'), t.Literal('INTERRUPTED')]),
  started_at: t.Number({ description: 'Epoch milliseconds' }),
  finished_at: Nullable(t.Number()),
  file: Nullable(t.String()),
  bytes: Nullable(t.Integer()),
  error: Nullable(t.String()),
})

export const OutboxFailure = t.Object({
  id: t.Integer(),
  subject: t.String(),
  attempts: t.Integer(),
  error: Nullable(t.String()),
  status: t.Union([t.Literal('PENDING'), t.Literal('FAILED')], { description: 'PENDING: tried again later; FAILED: given up' }),
  created_at: t.Number(),
})

/** What the master admin's system screen shows: is this installation healthy, and is it backed up? */
export const SystemStatus = t.Object({
  version: t.String(),
  started_at: t.Number({ description: 'When the process answering started (epoch ms)' }),
  uptime_s: t.Integer(),
  processes: t.Integer({ description: 'WORKERS: server processes sharing the port' }),
  database: t.Object({
    backend: t.Union([t.Literal('sqlite'), t.Literal('postgres')]),
    location: t.String({ description: 'The SQLite file, or the PostgreSQL database without its password' }),
    bytes: Nullable(t.Integer({ description: 'The file with its write-ahead log, or pg_database_size' })),
  }),
  backups: t.Object({
    dir: t.String(),
    every: Nullable(t.String({ description: 'BACKUP_EVERY as configured (`6h`); null: no schedule' })),
    every_s: Nullable(t.Integer({ description: 'The same in seconds' })),
    keep: t.Integer(),
    last_good: Nullable(BackupRun),
    age_s: Nullable(t.Integer({ description: 'Seconds since the last good backup finished' })),
    runs: t.Array(BackupRun, { description: 'The newest ten runs, newest first' }),
  }),
  outbox: t.Object({
    pending: t.Integer(),
    failed: t.Integer(),
    last_failures: t.Array(OutboxFailure, { description: 'The newest five mails whose last attempt failed' }),
  }),
  event_streams: t.Integer({ description: 'Open event streams (GET /api/events), every process together' }),
  cache: t.Object({
    hits: t.Integer(),
    misses: t.Integer(),
    hit_ratio: Nullable(t.Number({ description: 'hits / (hits + misses) since start, every process together; null before any lookup' })),
  }),
})
export type SystemStatus = typeof SystemStatus.static

export const BackupStarted = t.Object({ id: t.Integer({ description: 'The run: GET /api/system shows how it goes' }) })
