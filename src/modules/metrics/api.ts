import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { Metrics, startProcessMetrics } from '../../platform/metrics'
import { assertMayReadMetrics } from './access'
import { shareMetrics } from './siblings'

/**
 * GET /metrics: Prometheus' text format, for callers on this machine or with METRICS_TOKEN (./access.ts), the numbers
 * of every server process together (./siblings.ts). Not in the API document: it is no part of the JSON API
 * (docs/decisions/021-metrics.md); the README's "Monitoring" section lists what it holds.
 */
export const metricsRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'metrics' })
    .onStart(() => {
      try {
        shareMetrics(ctx.metrics, ctx.config.workers)
      } catch (e) {
        // A folder or socket that cannot be made (a full temporary folder, a path too long for a socket) costs the
        // merged totals, never the server: each scrape then holds the answering process's numbers alone.
        console.error('[metrics] cannot share numbers with the other processes:', (e as Error).message)
      }
      // prom-client is loaded once the start is over (docs/decisions/004-lazy-start.md), not at the first scrape.
      setTimeout(() => void startProcessMetrics(), 1000).unref()
    })
    .get(
      '/metrics',
      async ({ request, server }) => {
        assertMayReadMetrics(request, server, ctx.config.metricsToken)
        return new Response(await ctx.metrics.render(), { headers: { 'content-type': Metrics.contentType, 'cache-control': 'no-store' } })
      },
      { detail: { hide: true } },
    )
