import type { Clause, Param, Queryable } from '../../../db/sql'
import { notFound } from '../../platform/errors'
import { scopeOf, type ScopeActor } from '../../platform/policy/scope'
import type { AuditEvent, AuditNames, AuditPage, AuditQuery } from './model'
import { placeNames } from '../geography/store'
import { entryIdsOf } from '../listings/store'
import { userNames } from '../users/store'
import { countEvents, distinctValues, eventsAbout, eventsBatch, eventsPage, firstEventAt, oneEvent, type StoredEvent } from './store'

type Viewer = ScopeActor
/** An event as read: its JSON sides parsed, its time in epoch milliseconds. */
type Row = Omit<StoredEvent, 'before' | 'after'> & { before: unknown; after: unknown }
type Stored = StoredEvent
const parse = (json: string | null): unknown => (json === null ? null : JSON.parse(json))
const parsed = (r: Stored): Row => ({ ...r, before: parse(r.before), after: parse(r.after) })

/**
 * The audit scope as SQL, the one place it becomes a condition: a master admin reads the whole trail; a module admin
 * only their city's events; nobody else any.
 */
export function auditScope(v: Viewer): Clause | undefined {
  const s = scopeOf(v, 'audit')
  if (s.kind === 'all') return undefined
  if (s.kind === 'city') return { sql: 'city_id = ?', params: [s.cityId] }
  return { sql: '1 = 0', params: [] }
}

/** `where a and b …` of the conditions given, or nothing. */
function where(...clauses: (Clause | undefined)[]): Clause {
  const present = clauses.filter((c): c is Clause => c !== undefined)
  if (present.length === 0) return { sql: '', params: [] }
  return { sql: `where ${present.map((c) => c.sql).join(' and ')}`, params: present.flatMap((c) => c.params) }
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
const REFERENCE_FIELDS: Record<string, Kind> = { city_id: 'cities', state_id: 'states', country_id: 'countries', owner_user_id: 'users', suspended_by: 'users' }
const ENTITY_KINDS: Record<string, Kind> = { user: 'users', city: 'cities', state: 'states', country: 'countries', listing: 'listings' }
/** Where an entity's own snapshot keeps its name, for rows removed since. */
const OWN_NAME_FIELDS: Record<Kind, string[]> = { users: ['full_name', 'fullName'], cities: ['name'], states: ['name'], countries: ['name'], listings: ['entryId', 'entry_id'] }

const snakeCase = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0

/** The ids an event mentions: its entity's, and every reference field of its before and after. */
function mentions(r: Row): [Kind, number][] {
  const out: [Kind, number][] = []
  const entity = ENTITY_KINDS[r.entity_type]
  if (entity && r.entity_id && /^[0-9]{1,15}$/.test(r.entity_id)) out.push([entity, Number(r.entity_id)])
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

/** Where each kind's rows keep their name: each owner's store reads them. */
const NAME_READS: Record<Kind, (db: Queryable, ids: number[]) => Promise<{ id: number; name: string }[]>> = {
  users: userNames,
  cities: (db, ids) => placeNames(db, 'cities', ids),
  states: (db, ids) => placeNames(db, 'states', ids),
  countries: (db, ids) => placeNames(db, 'countries', ids),
  listings: entryIdsOf,
}

/** The names of rows that still exist. */
async function namesOfRows(db: Queryable, kind: Kind, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await NAME_READS[kind](db, ids)
  return new Map(rows.map((r) => [r.id, r.name]))
}

/**
 * Names of rows removed since (a deleted state, a deleted listing): their last name in the trail, from the newest
 * event about them that holds one (their delete event keeps the row as it was).
 */
async function namesFromTrail(db: Queryable, kind: Kind, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>()
  if (ids.length === 0) return out
  const rows = await eventsAbout(db, ENTITY_TYPE_OF[kind], ids)
  for (const r of rows) {
    const id = Number(r.entity_id)
    if (out.has(id)) continue
    const name = snapshotName({ before: parse(r.before), after: parse(r.after) }, kind)
    if (name) out.set(id, name)
  }
  return out
}

/** The names of every id the rows mention: one query per kind, and one more per kind for rows removed since. */
async function nameEvents(db: Queryable, rows: Row[]): Promise<AuditNames[]> {
  const wanted = Object.fromEntries(KINDS.map((k) => [k, new Set<number>()])) as Record<Kind, Set<number>>
  const perRow = rows.map(mentions)
  for (const list of perRow) for (const [kind, id] of list) wanted[kind].add(id)
  const found = {} as Record<Kind, Map<number, string>>
  for (const kind of KINDS) {
    found[kind] = await namesOfRows(db, kind, [...wanted[kind]])
    const missing = [...wanted[kind]].filter((id) => !found[kind].has(id))
    for (const [id, name] of await namesFromTrail(db, kind, missing)) found[kind].set(id, name)
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
  created_at: new Date(r.created_at).toISOString(),
  actor_user_id: r.actor_user_id,
  actor_name: r.actor_name,
  action: r.action,
  entity_type: r.entity_type,
  entity_id: r.entity_id,
  city_id: r.city_id,
  reason: r.reason,
  summary: summarize(r),
  before: r.before ?? null,
  after: r.after ?? null,
  names,
})

function conditions(v: Viewer, q: Omit<AuditQuery, 'page' | 'per_page'>): Clause[] {
  const actor = q.actor?.trim().toLowerCase()
  const is = (sql: string, value: Param | undefined): Clause | undefined => (value === undefined || value === '' ? undefined : { sql, params: [value] })
  return [
    auditScope(v),
    is("lower(actor_name) like ? escape '\\'", actor ? `%${actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined),
    is('action = ?', q.action),
    is('entity_type = ?', q.entity_type),
    // Dates are calendar days in UTC, matching the ISO times shown.
    is('created_at >= ?', q.date_from ? Date.parse(`${q.date_from}T00:00:00Z`) : undefined),
    is('created_at < ?', q.date_to ? Date.parse(`${q.date_to}T00:00:00Z`) + DAY_MS : undefined),
  ].filter((c): c is Clause => c !== undefined)
}

export async function listAudit(db: Queryable, v: Viewer, q: AuditQuery): Promise<AuditPage> {
  const page = q.page ?? 1
  const perPage = q.per_page ?? 50
  const w = where(...conditions(v, q))
  const total = await countEvents(db, w)
  const stored = await eventsPage(db, w, perPage, (page - 1) * perPage)
  const rows = stored.map(parsed)
  const scope = where(auditScope(v))
  const distinct = (col: 'action' | 'entity_type') => distinctValues(db, col, scope)
  const names = await nameEvents(db, rows)
  return {
    events: rows.map((r, i) => toEvent(r, names[i]!)),
    page,
    per_page: perPage,
    total,
    total_pages: Math.ceil(total / perPage),
    actions: await distinct('action'),
    entity_types: await distinct('entity_type'),
  }
}

export async function getAuditEvent(db: Queryable, v: Viewer, id: number): Promise<AuditEvent> {
  const w = where({ sql: 'id = ?', params: [id] }, auditScope(v))
  const stored = await oneEvent(db, w)
  if (!stored) throw notFound('Audit event not found')
  const row = parsed(stored)
  return toEvent(row, (await nameEvents(db, [row]))[0]!)
}

/** The filtered trail as CSV (RFC 4180), newest first, read in batches. */
export async function* auditCsv(db: Queryable, v: Viewer, q: AuditQuery): AsyncGenerator<string> {
  const cell = (s: unknown) => {
    const text = s === null || s === undefined ? '' : typeof s === 'string' ? s : JSON.stringify(s)
    // A leading =, +, - or @ would be a formula in a spreadsheet: quote it as text.
    const safe = /^[=+\-@]/.test(text) ? `'${text}` : text
    return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  yield 'time,actor,action,entity,entity_id,summary,reason,before,after\r\n'
  const filters = conditions(v, q)
  let beforeId = Number.MAX_SAFE_INTEGER
  for (;;) {
    const w = where(...filters, { sql: 'id < ?', params: [beforeId] })
    const rows = (await eventsBatch(db, w)).map(parsed)
    for (const r of rows)
      yield [new Date(r.created_at).toISOString(), r.actor_name, r.action, r.entity_type, r.entity_id, summarize(r), r.reason, r.before, r.after].map(cell).join(',') + '\r\n'
    if (rows.length < 1000) return
    beforeId = rows.at(-1)!.id
  }
}

/**
 * When an entity's first audit event of these actions was recorded (epoch ms), or null: a broker's record reads when
 * their identity was approved (issue 35), which no other table keeps.
 */
export const firstAuditAt = (db: Queryable, entityType: string, entityId: number, actions: string[]): Promise<number | null> => firstEventAt(db, entityType, entityId, actions)
