import type { AppContext } from '../../platform/context'
import { forbidden, unauthenticated } from '../../platform/errors'
import { enforce, hitAll } from '../../platform/rate-limit'
import { userByEmail, type User } from '../users/store'
import { createSession } from '../../platform/sessions'
import { ACCOUNT_INACTIVE } from '../../platform/http/auth'
import { secondFactorRequired } from '../second-factor/settings'
import { createChallenge, hasFactor } from '../second-factor/store'
import { hashPassword, verifyPassword } from '../../platform/passwords'

// Verifying against this when the email is unknown makes both failures take the same time.
// Made on first use: hashing at import would add ~250 ms to every start.
let dummyHash: Promise<string> | undefined
const dummy = () => (dummyHash ??= hashPassword(crypto.randomUUID()))

export const WRONG_CREDENTIALS = 'Incorrect email or password'
export const PENDING_APPROVAL = 'Your registration is pending approval by an administrator. You will receive an email once it is approved.'
export const REGISTRATION_REJECTED = 'Your registration was rejected. Please contact an administrator if you think this is a mistake.'

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

type Meta = { userAgent?: string | null; ipAddress: string }

/**
 * Checks the credentials, then the account's standing, then opens a session. One message for either wrong field;
 * failed attempts count per address and per account, and beyond the limit the password is not even checked.
 * Issue 29: a user with a second factor gets no session yet but a challenge for POST /api/auth/login/second-factor;
 * an admin who must have one and has none gets a session that may only enrol it.
 */
export async function login(
  { db, limits }: AppContext,
  email: string,
  password: string,
  meta: Meta,
): Promise<{ user: User; challenge: string } | ({ user: User; challenge?: undefined } & Awaited<ReturnType<typeof createSession>>)> {
  const account = normalizeEmail(email)
  const keys: Parameters<typeof enforce>[0] = [
    [limits.loginByAddress, meta.ipAddress],
    [limits.loginByAccount, account],
  ]
  await enforce(keys, 'failed sign-in attempts')
  const user = await userByEmail(db, account)
  const ok = await verifyPassword(password, user?.passwordHash.startsWith('$argon2') ? user.passwordHash : await dummy())
  if (!user || !ok) {
    await hitAll(keys)
    throw unauthenticated(WRONG_CREDENTIALS)
  }
  await limits.loginByAccount.reset(account)
  if (user.registrationStatus === 'PENDING') throw forbidden(PENDING_APPROVAL)
  if (user.registrationStatus === 'REJECTED') throw forbidden(REGISTRATION_REJECTED)
  if (!user.isActive) throw forbidden(ACCOUNT_INACTIVE)
  if (await hasFactor(db, user.id)) return { user, challenge: await createChallenge(db, user.id) }
  const enrolmentOnly = await secondFactorRequired(db, user.role)
  return { user, ...(await createSession(db, user.id, { ...meta, enrolmentOnly })) }
}
