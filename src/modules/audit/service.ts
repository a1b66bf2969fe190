import type { Database } from '../../../db/client'
import { auditEvents } from '../../../db/schema'

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

/** Appends to the audit trail. Call it inside the same transaction as the change, so neither exists without the other. */
export function recordAudit(db: Pick<Database, 'insert'>, entry: AuditEntry): void {
  db.insert(auditEvents)
    .values({
      actorUserId: entry.actor?.id ?? null,
      actorName: entry.actor?.fullName ?? null,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      cityId: entry.cityId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      reason: entry.reason ?? null,
    })
    .run()
}
