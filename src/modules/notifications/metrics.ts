import type { AppContext } from '../../platform/context'
import { pushOutboxState, type PushStats } from '../../platform/push'

const withGauges = new WeakSet<AppContext['metrics']>()

/**
 * What /metrics tells of push alerts (README, Monitoring): this process's counts of messages queued and of each
 * attempt's outcome, and send times (summed across WORKERS); the outbox's backlog, read from the database once per
 * scrape (like the mail outbox's).
 */
export function registerPushMetrics(ctx: Pick<AppContext, 'db' | 'metrics'>, stats: PushStats): void {
  ctx.metrics.addSource(() => stats.json())
  // The outbox is one per database: its gauges once per app, however many senders it builds (tests build two).
  if (withGauges.has(ctx.metrics)) return
  withGauges.add(ctx.metrics)
  let reading: ReturnType<typeof pushOutboxState> | null = null
  const outbox = () => (reading ??= pushOutboxState(ctx.db).finally(() => (reading = null)))
  ctx.metrics.registerGauge({ name: 'brokernet_push_outbox_pending', help: 'Push messages waiting in the outbox to be sent (the backlog).', collect: async () => (await outbox()).pending })
  ctx.metrics.registerGauge({
    name: 'brokernet_push_outbox_retrying',
    help: 'Waiting push messages whose last attempt failed (429, 5xx or no answer: tried again later).',
    collect: async () => (await outbox()).retrying,
  })
  ctx.metrics.registerGauge({ name: 'brokernet_push_outbox_failed', help: 'Push messages given up, kept a week to be looked at.', collect: async () => (await outbox()).failed })
}
