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

/**
 * How long a database that answered a liveness check is taken to answer the next ones without being asked again (issue
 * 36): a balancer polling every few seconds always gets a fresh probe, a storm of checks makes one probe each 250 ms per
 * process. A failed probe is never reused, and a database known to be away is reported away at once.
 */
export const PROBE_REUSE_MS = 250
const lastAnswered = new WeakMap<Db, { at: number; database: HealthResponse['database'] }>()

const liveness = (database: HealthResponse['database']): HealthResponse => ({
  status: database.ok ? 'ok' : 'degraded',
  version: VERSION,
  database,
  uptime_s: Math.round((Date.now() - startedAt) / 1000),
})

/** Liveness: this process answers; how its database is doing is reported, not a reason to fail. */
export function checkHealth(db: Db): HealthResponse | Promise<HealthResponse> {
  const kept = db.away ? undefined : lastAnswered.get(db)
  if (kept && performance.now() - kept.at < PROBE_REUSE_MS) return liveness(kept.database)
  return checkDatabase(db).then((database) => {
    if (database.ok) lastAnswered.set(db, { at: performance.now(), database })
    else lastAnswered.delete(db)
    return liveness(database)
  })
}

/** Readiness: the answer while this process can serve requests (its database answering), else null. */
export async function checkReadiness(db: Db): Promise<ReadinessResponse | null> {
  const database = await checkDatabase(db)
  return database.ok ? { status: 'ready', database } : null
}
