import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/http/context'
import { Metrics, startProcessMetrics } from '../../platform/metrics'
import { assertMayReadMetrics } from './access'
import { shareMetrics, type Siblings } from './siblings'

/**
 * GET /metrics: Prometheus' text format, for callers on this machine or with METRICS_TOKEN (./access.ts), the numbers
 * of every server process together (./siblings.ts). Not in the API document: it is no part of the JSON API
 * (docs/decisions/021-metrics.md); the README's "Monitoring" section lists what it holds.
 */
export const metricsRoutes = (ctx: AppContext) => {
  let siblings: Siblings | null = null
  return new Elysia({ name: 'metrics' })
    .onStart(() => {
      siblings = shareMetrics(ctx.metrics, ctx.config.workers)
      // prom-client is loaded once the start is over (docs/decisions/004-lazy-start.md), not at the first scrape.
      setTimeout(() => void startProcessMetrics(), 1000).unref()
    })
    .get(
      '/metrics',
      async ({ request, server }) => {
        assertMayReadMetrics(request, server, ctx.config.metricsToken)
        const text = await ctx.metrics.render(siblings ? await siblings.gather() : [])
        return new Response(text, { headers: { 'content-type': Metrics.contentType, 'cache-control': 'no-store' } })
      },
      { detail: { hide: true } },
    )
}
