import type { Clause, Param, Queryable } from '../../../../db/sql'
import type { Actor } from '../../../platform/http/auth'
import { scopeOf, type Scope, type ScopeAction } from '../../../platform/policy/scope'
import { forbidden, notFound } from '../../../platform/errors'
import type { PendingApprovals, User, UserList, UserListQuery } from '../model'
import { PLACE_TABLES, placeColumns, placeIds, placeJoins } from '../../geography/store'
import { confirmedFactorOf } from '../../second-factor/store'

/** A user with their place, as the lists and the one-user answer read it. */
type Row = {
  id: number
  email: string
  full_name: string
  phone: string | null
  role: User['role']
  is_active: unknown
  registration_status: User['registration_status']
  rejection_reason: string | null
  id_card_number: string | null
  id_card_document: string | null
  id_card_document_type: string | null
  city_id: number | null
  created_at: number | string
  city_name: string | null
  state_id: number | null
  state_name: string | null
  country_id: number | null
  country_name: string | null
  has_second_factor: unknown
}

const COLUMNS = `users.id, users.email, users.full_name, users.phone, users.role, users.is_active, users.registration_status,
  users.rejection_reason, users.id_card_number, users.id_card_document, users.id_card_document_type, users.city_id,
  users.created_at, ${placeColumns({ city: 'city_name', state: 'state_name', country: 'country_name' })}, ${placeIds({ state: 'state_id', country: 'country_id' })},
  exists (${confirmedFactorOf('users.id')}) as has_second_factor`

const WITH_PLACE = `from users
  ${placeJoins('users.city_id', PLACE_TABLES, true)}`

const documentUrl = (u: Pick<Row, 'id' | 'id_card_document'>) => (u.id_card_document ? `/api/users/${u.id}/id-card` : null)
const isoOf = (ms: number | string) => new Date(Number(ms)).toISOString()

function toUser(r: Row): User {
  return {
    id: r.id,
    email: r.email,
    full_name: r.full_name,
    phone: r.phone,
    role: r.role,
    is_active: Boolean(r.is_active),
    registration_status: r.registration_status,
    rejection_reason: r.rejection_reason,
    id_card_number: r.id_card_number,
    id_card_document_url: documentUrl(r),
    id_card_document_type: r.id_card_document ? r.id_card_document_type : null,
    city_id: r.city_id,
    city_name: r.city_name,
    state_id: r.state_id,
    state_name: r.state_name,
    country_id: r.country_id,
    country_name: r.country_name,
    created_at: isoOf(r.created_at),
    has_second_factor: Boolean(r.has_second_factor),
  }
}

/** Who is asking: the policy (src/platform/policy/scope.ts) decides what they see from these alone. */
type UserViewer = Pick<Actor, 'id' | 'role' | 'cityId'>

/**
 * The users scope as SQL, the one place it becomes a condition: a master admin everyone, a module admin the brokers
 * of their own city, a broker themself, nobody else. Every read and change of users goes through this.
 */
export function scopeWhere(s: Scope): Clause | undefined {
  switch (s.kind) {
    case 'all':
      return undefined
    case 'city':
      return s.onlyRole ? { sql: 'users.role = ? and users.city_id = ?', params: [s.onlyRole, s.cityId] } : { sql: 'users.city_id = ?', params: [s.cityId] }
    case 'own':
    case 'all-but-others-hidden':
      return { sql: 'users.id = ?', params: [s.userId] }
    case 'none':
      return { sql: 'users.id = ?', params: [-1] }
  }
}

/** The rows an actor may see (or, with `manage`, change). */
export const visibleTo = (actor: UserViewer, action: ScopeAction = 'read') => scopeWhere(scopeOf(actor, 'user', action))

/** `where` and the conditions given, each in parentheses; nothing when none is. */
export function where(...conditions: (Clause | undefined | null | false)[]): Clause {
  const given = conditions.filter((c): c is Clause => !!c)
  if (given.length === 0) return { sql: '', params: [] }
  return { sql: `where ${given.map((c) => `(${c.sql})`).join(' and ')}`, params: given.flatMap((c) => c.params) }
}

const is = (sql: string, value: Param | undefined): Clause | null => (value === undefined ? null : { sql, params: [value] })

// LIKE with the user's text taken literally: % and _ are data, not wildcards.
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export async function listUsers(db: Queryable, actor: UserViewer, q: UserListQuery): Promise<UserList> {
  const page = q.page ?? 1
  const perPage = q.per_page ?? 50
  const search = q.search?.trim().toLowerCase()
  const pattern = search ? `%${escapeLike(search)}%` : null
  const filter = where(
    visibleTo(actor),
    is('users.role = ?', q.role || undefined),
    is('users.city_id = ?', q.city_id || undefined),
    is(`${placeIds({ state: '' })} = ?`, q.state_id || undefined),
    is(`${placeIds({ country: '' })} = ?`, q.country_id || undefined),
    q.is_active !== undefined && { sql: q.is_active ? 'users.is_active = true' : 'users.is_active = false', params: [] },
    is('users.registration_status = ?', q.registration_status || undefined),
    !!pattern && {
      sql: `lower(users.full_name) like ? escape '\\' or users.email like ? escape '\\' or lower(users.id_card_number) like ? escape '\\'`,
      params: [pattern, pattern, pattern],
    },
  )
  const [counted, rows] = await Promise.all([
    db.get<{ n: number }>(
      `select count(*) as n ${WITH_PLACE} ${filter.sql}`,
      filter.params,
    ),
    db.all<Row>(`select ${COLUMNS} ${WITH_PLACE} ${filter.sql} order by users.created_at desc, users.id desc limit ? offset ?`, [
      ...filter.params,
      perPage,
      (page - 1) * perPage,
    ]),
  ])
  const total = Number(counted!.n)
  return { users: rows.map(toUser), page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) }
}

/** One user as the actor may see them: admins within their scope (others are "not found"), a broker only themself. */
export async function getUser(db: Queryable, actor: UserViewer, id: number): Promise<User> {
  const scope = scopeOf(actor, 'user')
  if (scope.kind === 'own' && actor.id !== id) throw forbidden("You don't have permission to see other users")
  const filter = where({ sql: 'users.id = ?', params: [id] }, actor.id !== id && scopeWhere(scope))
  const row = await db.get<Row>(`select ${COLUMNS} ${WITH_PLACE} ${filter.sql}`, filter.params)
  if (!row) throw notFound('User not found')
  return toUser(row)
}

const PENDING: Clause = { sql: "users.registration_status = 'PENDING'", params: [] }

/** Registrations waiting for the actor, oldest first (first come, first served). */
export async function listPending(db: Queryable, actor: UserViewer): Promise<PendingApprovals> {
  const filter = where(PENDING, visibleTo(actor))
  const rows = await db.all<Row>(`select ${COLUMNS} ${WITH_PLACE} ${filter.sql} order by users.created_at, users.id`, filter.params)
  return {
    total: rows.length,
    pending_users: rows.map((r) => ({
      id: r.id,
      full_name: r.full_name,
      email: r.email,
      phone: r.phone,
      city_name: r.city_name,
      state_name: r.state_name,
      created_at: isoOf(r.created_at),
      id_card_number: r.id_card_number,
      id_card_document_url: documentUrl(r),
    })),
  }
}

export async function countPending(db: Queryable, actor: UserViewer): Promise<number> {
  const filter = where(PENDING, visibleTo(actor))
  return Number((await db.get<{ n: number }>(`select count(*) as n from users ${filter.sql}`, filter.params))!.n)
}

/**
 * The users of these ids who may act now (active and approved), as the policy sees them: what a push alert may tell
 * each is judged on this, when it leaves (issue 33), not on what they were when it was raised.
 */
export async function activeViewers(db: Queryable, ids: readonly number[]): Promise<Map<number, UserViewer>> {
  const wanted = [...new Set(ids)]
  if (wanted.length === 0) return new Map()
  const rows = await db.all<{ id: number; role: User['role']; city_id: number | null }>(
    `select id, role, city_id from users where id in (${wanted.map(() => '?').join(', ')}) and is_active = true and registration_status = 'APPROVED'`,
    wanted,
  )
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), role: r.role, cityId: r.city_id === null ? null : Number(r.city_id) }]))
}

/** Which of these registrations are still pending and the viewer's to decide (in the scope they manage). */
export async function pendingInScope(db: Queryable, viewer: UserViewer, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const filter = where(PENDING, { sql: `users.id in (${ids.map(() => '?').join(', ')})`, params: [...ids] }, visibleTo(viewer, 'manage'))
  return (await db.all<{ id: number }>(`select users.id ${WITH_PLACE} ${filter.sql}`, filter.params)).map((r) => Number(r.id))
}

/** The active admins a registration in this city waits for: every master admin, and the city's module admins. */
export async function approversOf(db: Queryable, cityId: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    "select id from users where is_active = true and (role = 'MASTER_ADMIN' or (role = 'MODULE_ADMIN' and city_id = ?))",
    [cityId],
  )
  return rows.map((r) => Number(r.id))
}
