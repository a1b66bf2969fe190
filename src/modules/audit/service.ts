import type { Database } from '../../../db/client'
import type { Queryable } from '../../../db/sql'
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

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))

/** Appends to the audit trail. Call it inside the same transaction as the change, so neither exists without the other. */
export async function recordAudit(db: Queryable, entry: AuditEntry, now = Date.now()): Promise<void> {
  await db.run(
    `insert into audit_events (actor_user_id, actor_name, action, entity_type, entity_id, city_id, before, after, reason, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
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
    ],
  )
}

/** The same through drizzle's synchronous API, for the modules not yet on the data layer (issue 16; goes with them). */
export function recordAuditSync(db: Pick<Database, 'insert'>, entry: AuditEntry): void {
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
