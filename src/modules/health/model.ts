import { t } from 'elysia'

const DatabaseCheck = t.Object({ ok: t.Boolean(), latency_ms: t.Number() })

export const HealthResponse = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
  version: t.String({ examples: ['0.1.0'] }),
  database: DatabaseCheck,
  uptime_s: t.Number(),
})
export type HealthResponse = typeof HealthResponse.static

export const ReadinessResponse = t.Object({
  status: t.Literal('ready'),
  database: DatabaseCheck,
})
export type ReadinessResponse = typeof ReadinessResponse.static
