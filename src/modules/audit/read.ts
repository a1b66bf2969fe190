import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { auditEvents } from '../../../db/schema'
import { notFound } from '../../http/errors'
import type { Role } from '../../shared/constants'
import type { AuditEvent, AuditPage, AuditQuery } from './model'

type Viewer = { role: Role; cityId: number | null }
type Row = typeof auditEvents.$inferSelect

/** A master admin reads the whole trail; a module admin only their city's events; nobody else any. */
export function auditScope(v: Viewer): SQL | undefined {
  if (v.role === 'MASTER_ADMIN') return undefined
  if (v.role === 'MODULE_ADMIN' && v.cityId !== null) return eq(auditEvents.cityId, v.cityId)
  return sql`0`
}

const DAY_MS = 86_400_000

/** One line saying what changed: the fields whose values differ, else what happened. */
export function summarize(r: Pick<Row, 'action' | 'before' | 'after' | 'reason'>): string {
  const before = (r.before ?? {}) as Record<string, unknown>
  const after = (r.after ?? {}) as Record<string, unknown>
  const changed = r.before && r.after ? Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])) : []
  const what =
    changed.length > 0
      ? changed
          .slice(0, 4)
          .map((k) => `${k}: ${fmt(before[k])} → ${fmt(after[k])}`)
          .join('; ') + (changed.length > 4 ? `; +${changed.length - 4} more` : '')
      : r.after && !r.before
        ? 'created'
        : r.before && !r.after
          ? 'removed'
          : r.action
  return r.reason ? `${what} (${r.reason})` : what
}
const fmt = (v: unknown) => {
  const s = v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v)
  return s.length > 40 ? `${s.slice(0, 37)}…` : s
}

const toEvent = (r: Row): AuditEvent => ({
  id: r.id,
  created_at: r.createdAt.toISOString(),
  actor_user_id: r.actorUserId,
  actor_name: r.actorName,
  action: r.action,
  entity_type: r.entityType,
  entity_id: r.entityId,
  city_id: r.cityId,
  reason: r.reason,
  summary: summarize(r),
  before: r.before ?? null,
  after: r.after ?? null,
})

function conditions(v: Viewer, q: Omit<AuditQuery, 'page' | 'per_page'>) {
  const actor = q.actor?.trim().toLowerCase()
  return and(
    auditScope(v),
    actor ? sql`lower(${auditEvents.actorName}) like ${`%${actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'` : undefined,
    q.action ? eq(auditEvents.action, q.action) : undefined,
    q.entity_type ? eq(auditEvents.entityType, q.entity_type) : undefined,
    // Dates are calendar days in UTC, matching the ISO times shown.
    q.date_from ? gte(auditEvents.createdAt, new Date(`${q.date_from}T00:00:00Z`)) : undefined,
    q.date_to ? lt(auditEvents.createdAt, new Date(Date.parse(`${q.date_to}T00:00:00Z`) + DAY_MS)) : undefined,
  )
}

export function listAudit(db: Database, v: Viewer, q: AuditQuery): AuditPage {
  const page = q.page ?? 1
  const perPage = q.per_page ?? 50
  const where = conditions(v, q)
  const total = db.select({ n: count() }).from(auditEvents).where(where).get()!.n
  const rows = db.select().from(auditEvents).where(where).orderBy(desc(auditEvents.id)).limit(perPage).offset((page - 1) * perPage).all()
  const distinct = (col: typeof auditEvents.action | typeof auditEvents.entityType) =>
    db.selectDistinct({ v: col }).from(auditEvents).where(auditScope(v)).orderBy(col).all().map((r) => r.v)
  return {
    events: rows.map(toEvent),
    page,
    per_page: perPage,
    total,
    total_pages: Math.ceil(total / perPage),
    actions: distinct(auditEvents.action),
    entity_types: distinct(auditEvents.entityType),
  }
}

export function getAuditEvent(db: Database, v: Viewer, id: number): AuditEvent {
  const row = db.select().from(auditEvents).where(and(eq(auditEvents.id, id), auditScope(v))).get()
  if (!row) throw notFound('Audit event not found')
  return toEvent(row)
}

/** The filtered trail as CSV (RFC 4180), newest first, read in batches. */
export function* auditCsv(db: Database, v: Viewer, q: AuditQuery): Generator<string> {
  const cell = (s: unknown) => {
    const text = s === null || s === undefined ? '' : typeof s === 'string' ? s : JSON.stringify(s)
    // A leading =, +, - or @ would be a formula in a spreadsheet: quote it as text.
    const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
    return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  yield 'time,actor,action,entity,entity_id,summary,reason,before,after\r\n'
  const where = conditions(v, q)
  let beforeId = Number.MAX_SAFE_INTEGER
  for (;;) {
    const rows = db.select().from(auditEvents).where(and(where, lt(auditEvents.id, beforeId))).orderBy(desc(auditEvents.id)).limit(1000).all()
    for (const r of rows)
      yield [r.createdAt.toISOString(), r.actorName, r.action, r.entityType, r.entityId, summarize(r), r.reason, r.before, r.after].map(cell).join(',') + '\r\n'
    if (rows.length < 1000) return
    beforeId = rows.at(-1)!.id
  }
}
