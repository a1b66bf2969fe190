import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import type { sessions, users } from '../../db/schema'
import type { Queryable } from '../../db/sql'
import { SESSION_DAYS } from '../shared/constants'
import { removeAllDevices } from './push/subscriptions'

// A session is a user's: the platform reads the user with the session, in one query per signed-in request. The user
// row is defined here, and the users feature's store passes it on to its own code.

/** A user row as the services, sessions and the audit trail see it: camelCase, times as Dates, the flag a boolean. */
export type User = typeof users.$inferSelect

/** Every column of `users`, named as `User` names them (in its order). */
export const USER_COLUMNS = `users.id, users.email, users.password_hash as "passwordHash", users.full_name as "fullName", users.phone,
  users.role, users.is_active as "isActive", users.registration_status as "registrationStatus",
  users.rejection_reason as "rejectionReason", users.id_card_number as "idCardNumber",
  users.id_card_document as "idCardDocument", users.id_card_document_type as "idCardDocumentType", users.city_id as "cityId",
  users.created_at as "createdAt", users.updated_at as "updatedAt"`

export type RawUser = Omit<User, 'isActive' | 'createdAt' | 'updatedAt'> & { isActive: unknown; createdAt: number | string; updatedAt: number | string }

/** A row read with USER_COLUMNS as a `User`. */
export const userRow = (r: RawUser): User => ({
  ...r,
  isActive: Boolean(r.isActive),
  createdAt: new Date(Number(r.createdAt)),
  updatedAt: new Date(Number(r.updatedAt)),
})

// Sessions the way lucia-auth.com teaches: a random token goes to the client, only its SHA-256 is stored.
const DAY_MS = 86_400_000
const SESSION_MS = SESSION_DAYS * DAY_MS
/** Past half its life, a used session is extended: active users stay signed in, idle ones expire. */
export const RENEW_WITHIN_MS = SESSION_MS / 2

export type Session = typeof sessions.$inferSelect
export type SessionUser = User

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

export const sessionIdOf = (token: string) => Bun.SHA256.hash(token, 'hex')

/** A new session's token and row, not yet stored (createSession stores it; test fixtures write it themselves). */
/** Where a session was opened from, and whether it may only enrol a second factor (issue 29; false unless said). */
export type SessionMeta = { userAgent?: string | null; ipAddress?: string | null; enrolmentOnly?: boolean }

export function newSession(userId: number, meta: SessionMeta = {}, now = Date.now()) {
  const token = generateSessionToken()
  const session: Session = {
    id: sessionIdOf(token),
    userId,
    expiresAt: new Date(now + SESSION_MS),
    createdAt: new Date(now),
    userAgent: meta.userAgent ?? null,
    ipAddress: meta.ipAddress ?? null,
    enrolmentOnly: meta.enrolmentOnly ?? false,
  }
  return { token, session }
}

export async function createSession(db: Queryable, userId: number, meta: SessionMeta = {}) {
  const created = newSession(userId, meta)
  const s = created.session
  await db.run('insert into sessions (id, user_id, expires_at, created_at, user_agent, ip_address, enrolment_only) values (?, ?, ?, ?, ?, ?, ?)', [
    s.id,
    s.userId,
    s.expiresAt.getTime(),
    s.createdAt.getTime(),
    s.userAgent,
    s.ipAddress,
    s.enrolmentOnly,
  ])
  return created
}

// Every signed-in request runs this one query (its text is fixed, so the compiled statement is reused).
const LOOKUP = `select sessions.expires_at as "sessionExpiresAt", sessions.created_at as "sessionCreatedAt",
  sessions.user_agent as "sessionUserAgent", sessions.ip_address as "sessionIpAddress",
  sessions.enrolment_only as "sessionEnrolmentOnly", ${USER_COLUMNS}
  from sessions join users on users.id = sessions.user_id where sessions.id = ?`

type LookupRow = RawUser & {
  sessionExpiresAt: number | string
  sessionCreatedAt: number | string
  sessionUserAgent: string | null
  sessionIpAddress: string | null
  sessionEnrolmentOnly: unknown
}

/** The session and its user for a token, extending the session when due; null when unknown or expired. */
export async function validateSessionToken(db: Queryable, token: string): Promise<{ session: Session; user: SessionUser; renewed: boolean } | null> {
  const id = sessionIdOf(token)
  // Lookup by the hash's primary key: no comparison of secrets in user space, so nothing to time.
  const row = await db.get<LookupRow>(LOOKUP, [id])
  if (!row) return null
  const { sessionExpiresAt, sessionCreatedAt, sessionUserAgent, sessionIpAddress, sessionEnrolmentOnly, ...user } = row
  const session: Session = {
    id,
    userId: user.id,
    expiresAt: new Date(Number(sessionExpiresAt)),
    createdAt: new Date(Number(sessionCreatedAt)),
    userAgent: sessionUserAgent,
    ipAddress: sessionIpAddress,
    enrolmentOnly: Boolean(sessionEnrolmentOnly),
  }
  const now = Date.now()
  if (now >= session.expiresAt.getTime()) {
    await db.run('delete from sessions where id = ?', [id])
    return null
  }
  let renewed = false
  if (session.expiresAt.getTime() - now < RENEW_WITHIN_MS) {
    session.expiresAt = new Date(now + SESSION_MS)
    await db.run('update sessions set expires_at = ? where id = ?', [session.expiresAt.getTime(), id])
    renewed = true
  }
  return { session, user: userRow(user), renewed }
}

export async function invalidateSession(db: Queryable, sessionId: string): Promise<void> {
  await db.run('delete from sessions where id = ?', [sessionId])
}

/**
 * Ends every session of a user: on deactivation, rejection, password change and a second factor's reset. Their push
 * devices go too (issue 33): a signed-out-everywhere account gets no alerts on a phone someone else may hold now.
 */
export async function invalidateUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.run('delete from sessions where user_id = ?', [userId])
  await removeAllDevices(db, userId)
}

/** Ends the sessions of the users a subquery selects (`select id from users where …`, from the users feature's store). */
export async function invalidateSessionsOf(db: Queryable, userIds: string): Promise<void> {
  await db.run(`delete from sessions where user_id in (${userIds})`)
}
