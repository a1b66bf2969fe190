import type { Db } from '../../../db/sql'
import { VERSION } from '../../platform/version'
import type { HealthResponse, ReadinessResponse } from './model'
import { databaseAnswers } from '../../platform/database'

const startedAt = Date.now()

/**
 * Asks the database a real question (a read of the migrations table), not just whether the handle exists. While the
 * database is known to be away (db/pg-outage.ts) the answer is no at once: the health routes never wait for it.
 */
async function checkDatabase(db: Db): Promise<HealthResponse['database']> {
  const t0 = performance.now()
  let ok = !db.away
  if (ok) ok = await databaseAnswers(db)
  return { ok, latency_ms: Math.round((performance.now() - t0) * 1000) / 1000 }
}

/** Liveness: this process answers; how its database is doing is reported, not a reason to fail. */
export async function checkHealth(db: Db): Promise<HealthResponse> {
  const database = await checkDatabase(db)
  return {
    status: database.ok ? 'ok' : 'degraded',
    version: VERSION,
    database,
    uptime_s: Math.round((Date.now() - startedAt) / 1000),
  }
}

/** Readiness: the answer while this process can serve requests (its database answering), else null. */
export async function checkReadiness(db: Db): Promise<ReadinessResponse | null> {
  const database = await checkDatabase(db)
  return database.ok ? { status: 'ready', database } : null
}
