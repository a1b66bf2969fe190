import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { auditEvents, cities, countries, listings, states, users } from '../../../db/schema'
import { notFound } from '../../http/errors'
import { scopeOf, type ScopeActor } from '../../policy/scope'
import type { AuditEvent, AuditNames, AuditPage, AuditQuery } from './model'

type Viewer = ScopeActor
type Row = typeof auditEvents.$inferSelect

/**
 * The audit scope as SQL, the one place it becomes a condition: a master admin reads the whole trail; a module admin
 * only their city's events; nobody else any.
 */
export function auditScope(v: Viewer): SQL | undefined {
  const s = scopeOf(v, 'audit')
  if (s.kind === 'all') return undefined
  if (s.kind === 'city') return eq(auditEvents.cityId, s.cityId)
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

// ---------------------------------------------------------------------------------------------------------------
// Names behind ids: events keep ids (city_id: 3), readers want names (Mumbai).

type Kind = keyof AuditNames
const KINDS: Kind[] = ['users', 'cities', 'states', 'countries', 'listings']
/** Fields that hold an id, by their snake_case name (users are recorded in snake_case, rows in camelCase). */
const REFERENCE_FIELDS: Record<string, Kind> = { city_id: 'cities', state_id: 'states', country_id: 'countries', owner_user_id: 'users' }
const ENTITY_KINDS: Record<string, Kind> = { user: 'users', city: 'cities', state: 'states', country: 'countries', listing: 'listings' }
/** Where an entity's own snapshot keeps its name, for rows removed since. */
const OWN_NAME_FIELDS: Record<Kind, string[]> = { users: ['full_name', 'fullName'], cities: ['name'], states: ['name'], countries: ['name'], listings: ['entryId', 'entry_id'] }

const snakeCase = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0

/** The ids an event mentions: its entity's, and every reference field of its before and after. */
function mentions(r: Row): [Kind, number][] {
  const out: [Kind, number][] = []
  const entity = ENTITY_KINDS[r.entityType]
  if (entity && r.entityId && /^[0-9]{1,15}$/.test(r.entityId)) out.push([entity, Number(r.entityId)])
  for (const side of [r.before, r.after])
    if (isRecord(side))
      for (const [field, value] of Object.entries(side)) {
        const kind = REFERENCE_FIELDS[snakeCase(field)]
        if (kind && isId(value)) out.push([kind, value])
      }
  return out
}

/** The name an entity's snapshot in an event gives it (a city's `name`, a listing's `entryId`). */
function snapshotName(r: Pick<Row, 'before' | 'after'>, kind: Kind): string | undefined {
  for (const side of [r.after, r.before])
    if (isRecord(side)) for (const f of OWN_NAME_FIELDS[kind]) if (typeof side[f] === 'string' && side[f]) return side[f] as string
  return undefined
}

const ENTITY_TYPE_OF: Record<Kind, string> = { users: 'user', cities: 'city', states: 'state', countries: 'country', listings: 'listing' }

/**
 * Names of rows removed since (a deleted state, a deleted listing): their last name in the trail, from the newest
 * event about them that holds one (their delete event keeps the row as it was).
 */
function namesFromTrail(db: Database, kind: Kind, ids: number[]): Map<number, string> {
  const out = new Map<number, string>()
  if (ids.length === 0) return out
  const rows = db
    .select({ entityId: auditEvents.entityId, before: auditEvents.before, after: auditEvents.after })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, ENTITY_TYPE_OF[kind]), inArray(auditEvents.entityId, ids.map(String))))
    .orderBy(desc(auditEvents.id))
    .all()
  for (const r of rows) {
    const id = Number(r.entityId)
    if (out.has(id)) continue
    const name = snapshotName(r, kind)
    if (name) out.set(id, name)
  }
  return out
}

/** The names of every id the rows mention: one query per kind, and one more per kind for rows removed since. */
function nameEvents(db: Database, rows: Row[]): AuditNames[] {
  const wanted = Object.fromEntries(KINDS.map((k) => [k, new Set<number>()])) as Record<Kind, Set<number>>
  const perRow = rows.map(mentions)
  for (const list of perRow) for (const [kind, id] of list) wanted[kind].add(id)
  const lookup = (ids: Set<number>, read: (ids: number[]) => { id: number; name: string }[]) =>
    new Map(ids.size ? read([...ids]).map((r) => [r.id, r.name]) : [])
  const found: Record<Kind, Map<number, string>> = {
    users: lookup(wanted.users, (ids) => db.select({ id: users.id, name: users.fullName }).from(users).where(inArray(users.id, ids)).all()),
    cities: lookup(wanted.cities, (ids) => db.select({ id: cities.id, name: cities.name }).from(cities).where(inArray(cities.id, ids)).all()),
    states: lookup(wanted.states, (ids) => db.select({ id: states.id, name: states.name }).from(states).where(inArray(states.id, ids)).all()),
    countries: lookup(wanted.countries, (ids) => db.select({ id: countries.id, name: countries.name }).from(countries).where(inArray(countries.id, ids)).all()),
    listings: lookup(wanted.listings, (ids) => db.select({ id: listings.id, name: listings.entryId }).from(listings).where(inArray(listings.id, ids)).all()),
  }
  for (const kind of KINDS) {
    const missing = [...wanted[kind]].filter((id) => !found[kind].has(id))
    for (const [id, name] of namesFromTrail(db, kind, missing)) found[kind].set(id, name)
  }
  return rows.map((_, i) => {
    const names: AuditNames = { users: {}, cities: {}, states: {}, countries: {}, listings: {} }
    for (const [kind, id] of perRow[i]!) {
      const name = found[kind].get(id)
      if (name) names[kind][String(id)] = name
    }
    return names
  })
}

const toEvent = (r: Row, names: AuditNames): AuditEvent => ({
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
  names,
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
  const names = nameEvents(db, rows)
  return {
    events: rows.map((r, i) => toEvent(r, names[i]!)),
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
  return toEvent(row, nameEvents(db, [row])[0]!)
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
