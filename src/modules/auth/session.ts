import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding'
import { eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { sessions, users } from '../../../db/schema'
import { SESSION_DAYS } from '../../shared/constants'

// Sessions the way lucia-auth.com teaches: a random token goes to the client, only its SHA-256 is stored.
const DAY_MS = 86_400_000
const SESSION_MS = SESSION_DAYS * DAY_MS
/** Past half its life, a used session is extended: active users stay signed in, idle ones expire. */
const RENEW_WITHIN_MS = SESSION_MS / 2

export type Session = typeof sessions.$inferSelect
export type SessionUser = typeof users.$inferSelect

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes)
}

export const sessionIdOf = (token: string) => Bun.SHA256.hash(token, 'hex')

export function createSession(db: Database, userId: number, meta: { userAgent?: string | null; ipAddress?: string | null } = {}) {
  const token = generateSessionToken()
  const session = db
    .insert(sessions)
    .values({ id: sessionIdOf(token), userId, expiresAt: new Date(Date.now() + SESSION_MS), userAgent: meta.userAgent ?? null, ipAddress: meta.ipAddress ?? null })
    .returning()
    .get()
  return { token, session }
}

// Every signed-in request runs this lookup: compiled once per database, not per request.
const lookups = new WeakMap<Database, ReturnType<typeof prepareLookup>>()
const prepareLookup = (db: Database) =>
  db.select().from(sessions).innerJoin(users, eq(sessions.userId, users.id)).where(eq(sessions.id, sql.placeholder('id'))).prepare()

/** The session and its user for a token, extending the session when due; null when unknown or expired. */
export function validateSessionToken(db: Database, token: string): { session: Session; user: SessionUser; renewed: boolean } | null {
  let lookup = lookups.get(db)
  if (!lookup) lookups.set(db, (lookup = prepareLookup(db)))
  // Lookup by the hash's primary key: no comparison of secrets in user space, so nothing to time.
  const row = lookup.get({ id: sessionIdOf(token) })
  if (!row) return null
  const { sessions: session, users: user } = row
  const now = Date.now()
  if (now >= session.expiresAt.getTime()) {
    db.delete(sessions).where(eq(sessions.id, session.id)).run()
    return null
  }
  let renewed = false
  if (session.expiresAt.getTime() - now < RENEW_WITHIN_MS) {
    session.expiresAt = new Date(now + SESSION_MS)
    db.update(sessions).set({ expiresAt: session.expiresAt }).where(eq(sessions.id, session.id)).run()
    renewed = true
  }
  return { session, user, renewed }
}

export function invalidateSession(db: Database, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run()
}

/** Ends every session of a user: on deactivation, rejection and password change. */
export function invalidateUserSessions(db: Pick<Database, 'delete'>, userId: number): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run()
}
