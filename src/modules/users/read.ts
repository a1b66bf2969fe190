import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { cities, countries, states, users } from '../../../db/schema'
import type { Actor } from '../../http/auth'
import { scopeOf, type Scope, type ScopeAction } from '../../policy/scope'
import { forbidden, notFound } from '../../http/errors'
import type { PendingApprovals, User, UserList, UserListQuery } from './model'

type Row = typeof users.$inferSelect

const columns = {
  user: users,
  cityName: cities.name,
  stateId: states.id,
  stateName: states.name,
  countryId: countries.id,
  countryName: countries.name,
}

const withPlace = (db: Database) =>
  db
    .select(columns)
    .from(users)
    .leftJoin(cities, eq(users.cityId, cities.id))
    .leftJoin(states, eq(cities.stateId, states.id))
    .leftJoin(countries, eq(states.countryId, countries.id))

const documentUrl = (u: Row) => (u.idCardDocument ? `/api/users/${u.id}/id-card` : null)

function toUser(r: { user: Row; cityName: string | null; stateId: number | null; stateName: string | null; countryId: number | null; countryName: string | null }): User {
  const u = r.user
  return {
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    phone: u.phone,
    role: u.role,
    is_active: u.isActive,
    registration_status: u.registrationStatus,
    rejection_reason: u.rejectionReason,
    id_card_number: u.idCardNumber,
    id_card_document_url: documentUrl(u),
    id_card_document_type: u.idCardDocument ? u.idCardDocumentType : null,
    city_id: u.cityId,
    city_name: r.cityName,
    state_id: r.stateId,
    state_name: r.stateName,
    country_id: r.countryId,
    country_name: r.countryName,
    created_at: u.createdAt.toISOString(),
  }
}

/** Who is asking: the policy (src/policy/scope.ts) decides what they see from these alone. */
type UserViewer = Pick<Actor, 'id' | 'role' | 'cityId'>

/**
 * The users scope as SQL, the one place it becomes a condition: a master admin everyone, a module admin the brokers
 * of their own city, a broker themself, nobody else. Every read and change of users goes through this.
 */
export function scopeWhere(s: Scope): SQL | undefined {
  switch (s.kind) {
    case 'all':
      return undefined
    case 'city':
      return s.onlyRole ? and(eq(users.role, s.onlyRole), eq(users.cityId, s.cityId)) : eq(users.cityId, s.cityId)
    case 'own':
    case 'all-but-others-suspended':
      return eq(users.id, s.userId)
    case 'none':
      return eq(users.id, -1)
  }
}

/** The rows an actor may see (or, with `manage`, change). */
export const visibleTo = (actor: UserViewer, action: ScopeAction = 'read') => scopeWhere(scopeOf(actor, 'user', action))

// LIKE with the user's text taken literally: % and _ are data, not wildcards.
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)
const contains = (column: SQL | typeof users.email, text: string) => sql`${column} like ${`%${escapeLike(text)}%`} escape '\\'`

export function listUsers(db: Database, actor: UserViewer, q: UserListQuery): UserList {
  const page = q.page ?? 1
  const perPage = q.per_page ?? 50
  const search = q.search?.trim().toLowerCase()
  const where = and(
    visibleTo(actor),
    q.role ? eq(users.role, q.role) : undefined,
    q.city_id ? eq(users.cityId, q.city_id) : undefined,
    q.state_id ? eq(cities.stateId, q.state_id) : undefined,
    q.country_id ? eq(states.countryId, q.country_id) : undefined,
    q.is_active === undefined ? undefined : eq(users.isActive, q.is_active),
    q.registration_status ? eq(users.registrationStatus, q.registration_status) : undefined,
    search
      ? or(contains(sql`lower(${users.fullName})`, search), contains(users.email, search), contains(sql`lower(${users.idCardNumber})`, search))
      : undefined,
  )
  const total = db
    .select({ n: count() })
    .from(users)
    .leftJoin(cities, eq(users.cityId, cities.id))
    .leftJoin(states, eq(cities.stateId, states.id))
    .where(where)
    .get()!.n
  const rows = withPlace(db)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(perPage)
    .offset((page - 1) * perPage)
    .all()
  return { users: rows.map(toUser), page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) }
}

/** One user as the actor may see them: admins within their scope (others are "not found"), a broker only themself. */
export function getUser(db: Database, actor: UserViewer, id: number): User {
  const scope = scopeOf(actor, 'user')
  if (scope.kind === 'own' && actor.id !== id) throw forbidden("You don't have permission to see other users")
  const row = withPlace(db)
    .where(and(eq(users.id, id), actor.id === id ? undefined : scopeWhere(scope)))
    .get()
  if (!row) throw notFound('User not found')
  return toUser(row)
}

/** Registrations waiting for the actor, oldest first (first come, first served). */
export function listPending(db: Database, actor: UserViewer): PendingApprovals {
  const rows = withPlace(db)
    .where(and(eq(users.registrationStatus, 'PENDING'), visibleTo(actor)))
    .orderBy(users.createdAt, users.id)
    .all()
  return {
    total: rows.length,
    pending_users: rows.map((r) => ({
      id: r.user.id,
      full_name: r.user.fullName,
      email: r.user.email,
      phone: r.user.phone,
      city_name: r.cityName,
      state_name: r.stateName,
      created_at: r.user.createdAt.toISOString(),
      id_card_number: r.user.idCardNumber,
      id_card_document_url: documentUrl(r.user),
    })),
  }
}

export function countPending(db: Database, actor: UserViewer): number {
  return db.select({ n: count() }).from(users).where(and(eq(users.registrationStatus, 'PENDING'), visibleTo(actor))).get()!.n
}
