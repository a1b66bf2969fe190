import type { Database } from '../../../db/client'
import { VERSION } from '../../version'
import type { HealthResponse } from './model'

const startedAt = Date.now()

/** Asks the database a real question (a read of the migrations table), not just whether the handle exists. */
export function checkHealth(db: Database): HealthResponse {
  const t0 = performance.now()
  let ok = true
  try {
    db.$client.query('SELECT count(*) FROM __drizzle_migrations').get()
  } catch {
    ok = false
  }
  return {
    status: ok ? 'ok' : 'degraded',
    version: VERSION,
    database: { ok, latency_ms: Math.round((performance.now() - t0) * 1000) / 1000 },
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
  }
}
