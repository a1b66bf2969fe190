import { t } from 'elysia'

export const HealthResponse = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
  version: t.String({ examples: ['0.1.0'] }),
  database: t.Object({ ok: t.Boolean(), latency_ms: t.Number() }),
  uptime_s: t.Number(),
})
export type HealthResponse = typeof HealthResponse.static
