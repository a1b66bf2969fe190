import type { Queryable } from '../../../db/sql'
import { VERSION } from '../../version'
import type { HealthResponse } from './model'

const startedAt = Date.now()

/** Asks the database a real question (a read of the migrations table), not just whether the handle exists. */
export async function checkHealth(db: Queryable): Promise<HealthResponse> {
  const t0 = performance.now()
  let ok = true
  try {
    // drizzle keeps PostgreSQL's record of migrations in its own schema.
    await db.get(`select count(*) as n from ${db.dialect === 'postgres' ? 'drizzle.' : ''}__drizzle_migrations`)
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
