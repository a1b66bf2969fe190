import { eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema'
import { forbidden, unauthorized } from '../../http/errors'
import { createSession } from './session'

// Verifying against this when the email is unknown makes both failures take the same time.
// Made on first use: hashing at import would add ~250 ms to every start.
let dummyHash: Promise<string> | undefined
const dummy = () => (dummyHash ??= Bun.password.hash(crypto.randomUUID()))

export const WRONG_CREDENTIALS = 'Incorrect email or password'

/** Checks the credentials and the account's standing, then opens a session. One message for either wrong field. */
export async function login(db: Database, email: string, password: string, meta: { userAgent?: string | null; ipAddress?: string | null }) {
  const user = db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get()
  const ok = await Bun.password.verify(password, user?.passwordHash.startsWith('$argon2') ? user.passwordHash : await dummy())
  if (!user || !ok) throw unauthorized(WRONG_CREDENTIALS)
  if (user.registrationStatus === 'PENDING') throw forbidden('Your registration is pending approval by an administrator.')
  if (user.registrationStatus === 'REJECTED') throw forbidden('Your registration was rejected. Please contact support.')
  if (!user.isActive) throw forbidden('Account inactive: your account is currently inactive. Please contact an administrator.')
  return { user, ...createSession(db, user.id, meta) }
}
