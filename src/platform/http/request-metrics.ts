import { Elysia } from 'elysia'
import type { Metrics } from '../metrics'
import { statusOf } from './request-log'

/** The route label of a request no route matched: its path could hold anything (ids, tokens, a scanner's guesses). */
export const UNMATCHED_ROUTE = 'unmatched'

/**
 * Counts every request and its duration by method, route template and status (src/platform/metrics.ts), at the same
 * moment the request log writes its line: once the answer has gone (an event stream: once it started).
 */
export const requestMetrics = (metrics: Metrics) =>
  new Elysia({ name: 'request-metrics' })
    .onRequest((c) => {
      // On the request's context, as the request log's stamp (./request-log.ts).
      ;(c as { metricsStamp?: number }).metricsStamp = performance.now()
    })
    .onAfterResponse({ as: 'global' }, (c) => {
      const at = (c as { metricsStamp?: number }).metricsStamp
      if (at === undefined) return
      const status = statusOf(c.set.status, (c as { responseValue?: unknown }).responseValue)
      metrics.observeRequest(c.request.method, c.route || UNMATCHED_ROUTE, status, (performance.now() - at) / 1000)
    })
