import { durationText, redactedUrl } from '../../platform/config'
import type { AppContext } from '../../platform/context'
import { databaseBytes } from '../../platform/database'
import { failedMails, outboxState } from '../../platform/mail'
import type { MetricJson } from '../../platform/metrics'
import type { BackupRun as Run } from '../../platform/backup/runs'
import { VERSION } from '../../platform/version'
import type { SystemStatus } from './model'

const startedAt = Date.now()

/** The system screen's figures: each read where it lives (the database, the backup runs, every process's counters). */
export async function systemStatus(ctx: AppContext): Promise<SystemStatus> {
  const { config, db } = ctx
  const [runs, bytes, outbox, failures, numbers] = await Promise.all([
    ctx.backups.recent(10),
    databaseBytes(ctx.db, ctx.config.databasePath),
    outboxState(db),
    // Mails whose last attempt failed: given up, or waiting to be tried again.
    failedMails(db),
    ctx.metrics.everyProcess(),
  ])
  const lastGood = runs.find((r) => r.status === 'OK') ?? (await ctx.backups.lastGood())
  const lookups = sum(numbers, 'brokernet_cache_lookups_total', (l) => l.result === 'hit')
  const misses = sum(numbers, 'brokernet_cache_lookups_total', (l) => l.result === 'miss')
  return {
    version: VERSION,
    started_at: startedAt,
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
    processes: config.workers,
    database: {
      backend: db.dialect,
      location: config.databaseUrl ? redactedUrl(config.databaseUrl) : config.databasePath,
      bytes,
    },
    backups: {
      dir: config.backupDir,
      every: config.backupEveryMs === null ? null : durationText(config.backupEveryMs),
      every_s: config.backupEveryMs === null ? null : config.backupEveryMs / 1000,
      keep: config.backupKeep,
      last_good: lastGood ? runView(lastGood) : null,
      age_s: lastGood?.finishedAt ? Math.max(0, Math.round((Date.now() - lastGood.finishedAt) / 1000)) : null,
      runs: runs.map(runView),
    },
    outbox: {
      pending: outbox.pending,
      failed: outbox.failed,
      last_failures: failures.map((f) => ({ ...f, id: Number(f.id), attempts: Number(f.attempts), created_at: Number(f.created_at) })),
    },
    // Every stream listens to the matches topic (src/modules/events): its listeners are the open streams.
    event_streams: sum(numbers, 'brokernet_event_streams', (l) => l.topic === 'matches'),
    cache: { hits: lookups, misses, hit_ratio: lookups + misses > 0 ? lookups / (lookups + misses) : null },
  }
}

const runView = (r: Run) => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  started_at: r.startedAt,
  finished_at: r.finishedAt,
  file: r.file,
  bytes: r.bytes,
  error: r.error,
})

/** The sum of one metric's samples over every process, of the labels `pick` accepts. */
function sum(processes: MetricJson[][], name: string, pick: (labels: Record<string, string | number>) => boolean): number {
  let total = 0
  for (const metrics of processes) for (const m of metrics) if (m.name === name) for (const v of m.values) if (pick(v.labels ?? {})) total += Number(v.value)
  return total
}
