import type { Db } from '../../db/sql'
import type { Feed } from '../../db/change-feed'
import { walFileSize } from '../../db/wal'
import type { SnapshotCache } from '../../db/snapshot-cache'
import type { Config } from './config'
import type { Backups } from './backup/service'
import type { Features } from './features'
import type { Metrics, MetricJson } from './metrics'
import { outboxState, type OutboxState } from './mail'
import type { SessionCache } from './session-cache'

/** What of the app's context (./context.ts) the metrics read. */
type Watched = {
  db: Db
  config: Pick<Config, 'databasePath'>
  metrics: Metrics
  counts: SnapshotCache
  pages: SnapshotCache
  sessions: SessionCache
  feed: Pick<Feed, 'readAfter'>
  backups: Pick<Backups, 'lastGood' | 'recent'>
  features: Pick<Features, 'events'>
}

/**
 * What /metrics reads of a running app: the data layer's time, the caches' lookups, the open event streams (numbers of
 * this process, added up across processes) and the mail outbox (read from the database by the process that answers
 * the scrape, so never added up).
 */
export function watchApp(ctx: Watched): void {
  const { metrics } = ctx
  ctx.db.timer = metrics.timeStatement

  const caches = { counts: ctx.counts, pages: ctx.pages, sessions: ctx.sessions }
  metrics.addSource((): MetricJson[] => [
    {
      name: 'brokernet_cache_lookups_total',
      help: 'Lookups in the in-memory caches (counts, pages, sessions), answered from memory (hit) or computed (miss).',
      type: 'counter',
      aggregator: 'sum',
      values: Object.entries(caches).flatMap(([cache, c]) => [
        { labels: { cache, result: 'hit' }, value: c.lookups.hits },
        { labels: { cache, result: 'miss' }, value: c.lookups.misses },
      ]),
    },
    {
      name: 'brokernet_cache_entries',
      help: 'Entries held in the in-memory caches, all processes together.',
      type: 'gauge',
      aggregator: 'sum',
      values: Object.entries(caches).map(([cache, c]) => ({ labels: { cache }, value: c.size })),
    },
    {
      name: 'brokernet_event_streams',
      help: 'Open event streams listening to each topic (one GET /api/events listens to matches, expiring and saved_search; an admin\'s to pending too).',
      type: 'gauge',
      aggregator: 'sum',
      // The events features registered (src/platform/features.ts), read at each scrape.
      values: ctx.features.events.map((e) => ({ labels: { topic: e.event }, value: e.topic.listening })),
    },
  ])
  // PostgreSQL: requests that named a write (docs/decisions/072-read-after-write.md), by what this process did.
  const readAfter = ctx.feed.readAfter
  if (readAfter)
    metrics.addSource((): MetricJson[] => [
      {
        name: 'brokernet_read_after_total',
        help: "Requests naming a write's feed position (PostgreSQL): heard already, waited for and heard, given up after a second (read from the database), or ignored (not a real position).",
        type: 'counter',
        aggregator: 'sum',
        values: [
          { labels: { result: 'heard' }, value: readAfter.heard },
          { labels: { result: 'waited' }, value: readAfter.waited },
          { labels: { result: 'timed_out' }, value: readAfter.timedOut },
          { labels: { result: 'ignored' }, value: readAfter.ignored },
        ],
      },
    ])
  // SQLite's reads on threads of their own (READ_THREADS, db/read-threads.ts): how many, and how many wait right now.
  const threads = ctx.db.threads
  if (threads)
    metrics.addSource((): MetricJson[] => [
      {
        name: 'brokernet_sqlite_thread_reads_total',
        help: 'SQLite reads answered by the read threads (READ_THREADS), all processes together.',
        type: 'counter',
        aggregator: 'sum',
        values: [{ labels: {}, value: threads.reads }],
      },
      {
        name: 'brokernet_sqlite_thread_reads_waiting',
        help: 'SQLite reads posted to the read threads and not answered yet, all processes together.',
        type: 'gauge',
        aggregator: 'sum',
        values: [{ labels: {}, value: threads.waiting }],
      },
    ])

  const outbox = outboxReader(ctx.db)
  metrics.registerGauge({ name: 'brokernet_mail_outbox_pending', help: 'Mails waiting in the outbox to be sent (the backlog).', collect: async () => (await outbox()).pending })
  metrics.registerGauge({
    name: 'brokernet_mail_outbox_retrying',
    help: 'Pending mails whose last attempt failed (they are tried again on a schedule).',
    collect: async () => (await outbox()).retrying,
  })
  metrics.registerGauge({
    name: 'brokernet_mail_outbox_failed',
    help: 'Mails given up after their last attempt (status FAILED in the outbox).',
    collect: async () => (await outbox()).failed,
  })
  // Backups (src/platform/backup): how old the newest written one is, and whether the latest run failed. An alert on
  // either (older than twice BACKUP_EVERY; a failure) is the one a self-hoster most needs.
  metrics.registerGauge({
    name: 'brokernet_backup_age_seconds',
    help: 'Seconds since the newest backup that was written finished; no sample until one has been.',
    collect: async () => {
      const last = await ctx.backups.lastGood()
      return last?.finishedAt ? Math.max(0, (Date.now() - last.finishedAt) / 1000) : null
    },
  })
  metrics.registerGauge({
    name: 'brokernet_backup_last_failed',
    help: '1 when the latest backup run that finished failed, else 0 (no sample before any run).',
    collect: async () => {
      const last = (await ctx.backups.recent(10)).find((r) => r.status !== 'RUNNING')
      return last ? (last.status === 'OK' ? 0 : 1) : null
    },
  })
  metrics.registerGauge({
    name: 'brokernet_mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest mail still waiting in the outbox; 0 when none waits.',
    collect: async () => (await outbox()).oldestAgeSeconds,
  })
  // SQLite's write-ahead log (docs/decisions/030-wal.md): the checkpointer keeps it near 16 MB; a file far past that
  // says something holds it (a long backup, a stuck reader) before the disk fills.
  if (ctx.db.dialect === 'sqlite')
    metrics.registerGauge({
      name: 'brokernet_sqlite_wal_bytes',
      help: "Size of SQLite's write-ahead log file (brokernet.db-wal); 0 when there is none.",
      collect: async () => walFileSize(ctx.config.databasePath),
    })
}


/** The gauges one scrape reads together ask at once: the first starts the query, the others wait for its answer. */
function outboxReader(db: Db): () => Promise<OutboxState> {
  let reading: Promise<OutboxState> | null = null
  return () => (reading ??= outboxState(db).finally(() => (reading = null)))
}
