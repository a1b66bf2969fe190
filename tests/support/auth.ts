import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { createSession } from '../../src/platform/sessions'
import type { User } from '../../src/modules/users/store'
import type { Role } from '../../src/shared/constants'
import { dataLayer, insertUser, type FixtureDb, type UserValues } from './fixtures'

let counter = 0

export type SignedIn = {
  user: User
  token: string
  /** Headers of a script using the bearer token. */
  bearer: Record<string, string>
  /** Headers of a same-origin browser request carrying the cookie. */
  browser: Record<string, string>
}

/** A new session of the user, written the way the app writes one at sign-in (createSession): its token. */
export async function sessionFor(db: FixtureDb, userId: number): Promise<string> {
  return (await createSession(dataLayer(db), userId)).token
}

/** Creates a user of the role and a session for them directly (the Epic Stack's `login({ role })` fixture). */
export async function signIn(db: FixtureDb, role: Role, overrides: UserValues = {}): Promise<SignedIn> {
  const i = ++counter
  const user = await insertUser(db, {
    email: `${role.toLowerCase()}${i}-${Date.now()}@test.example`,
    // Not a real hash: these users sign in through the fixture, never with a password.
    passwordHash: 'fixture',
    fullName: `${role} ${i}`,
    role,
    isActive: true,
    registrationStatus: 'APPROVED',
    ...overrides,
  })
  const token = await sessionFor(db, user.id)
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
