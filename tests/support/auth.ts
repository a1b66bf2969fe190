import type { Database } from '../../db/client'
import { sessions, users } from '../../db/schema'
import { SESSION_COOKIE } from '../../src/http/auth'
import { newSession } from '../../src/modules/auth/session'
import type { Role } from '../../src/shared/constants'

let counter = 0

export type SignedIn = {
  user: typeof users.$inferSelect
  token: string
  /** Headers of a script using the bearer token. */
  bearer: Record<string, string>
  /** Headers of a same-origin browser request carrying the cookie. */
  browser: Record<string, string>
}

/** A new session of the user, written directly like every fixture (synchronous): its token. */
export function sessionFor(db: Database, userId: number): string {
  const { token, session } = newSession(userId)
  db.insert(sessions).values(session).run()
  return token
}

/** Creates a user of the role and a session for them directly (the Epic Stack's `login({ role })` fixture). */
export function signIn(db: Database, role: Role, overrides: Partial<typeof users.$inferInsert> = {}): SignedIn {
  counter++
  const user = db
    .insert(users)
    .values({
      email: `${role.toLowerCase()}${counter}-${Date.now()}@test.example`,
      // Not a real hash: these users sign in through the fixture, never with a password.
      passwordHash: 'fixture',
      fullName: `${role} ${counter}`,
      role,
      isActive: true,
      registrationStatus: 'APPROVED',
      ...overrides,
    })
    .returning()
    .get()
  const token = sessionFor(db, user.id)
  return {
    user,
    token,
    bearer: { authorization: `Bearer ${token}` },
    browser: { cookie: `${SESSION_COOKIE}=${token}`, origin: 'http://localhost' },
  }
}

export const withJson = (headers: Record<string, string>, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
