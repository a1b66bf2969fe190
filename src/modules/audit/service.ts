import type { Queryable } from '../../../db/sql'
import { insertAuditEvent } from './store'

export type AuditActor = { id: number; fullName: string } | null

export type AuditEntry = {
  actor: AuditActor
  action: string
  entityType: string
  entityId?: string | number | null
  cityId?: number | null
  before?: unknown
  after?: unknown
  reason?: string | null
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))

/** Appends to the audit trail. Call it inside the same transaction as the change, so neither exists without the other. */
export async function recordAudit(db: Queryable, entry: AuditEntry, now = Date.now()): Promise<void> {
  await insertAuditEvent(db, [
      entry.actor?.id ?? null,
      entry.actor?.fullName ?? null,
      entry.action,
      entry.entityType,
      entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      entry.cityId ?? null,
      json(entry.before),
      json(entry.after),
      entry.reason ?? null,
    now,
  ])
}
