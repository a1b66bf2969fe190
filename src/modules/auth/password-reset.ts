import type { AppContext } from '../../platform/context'
import { refused, fieldError } from '../../platform/errors'
import { enforce, hitAll } from '../../platform/rate-limit'
import { ACCOUNT_MESSAGES } from '../../shared/account-rules'
import { RESET_TOKEN_MINUTES } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { passwordReset } from '../mail/templates'
import { normalizeEmail } from './service'
import { generateSessionToken, invalidateUserSessions, sessionIdOf } from '../../platform/sessions'
import { setPasswordHash, userContactByEmail } from '../users/store'
import { replaceResetToken, resetToken, spendResetToken } from './store'
import { hashPassword } from '../../platform/passwords'

export const RESET_REQUESTED = 'If an account exists for this email, a link to reset the password has been sent. It is valid for one hour.'
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired. Please request a new one.'
export const RESET_DONE = 'Your password has been reset. You can now sign in with your new password.'

/**
 * Mails a single-use link valid for one hour. The answer is the same whether or not the email has an account,
 * and the work done differs only by one insert, so neither the answer nor its timing tells who is registered.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, ipAddress: string): Promise<string> {
  const { db, limits, config } = ctx
  const account = normalizeEmail(email)
  const keys: Parameters<typeof enforce>[0] = [
    [limits.resetByAddress, ipAddress],
    [limits.resetByAccount, account],
  ]
  await enforce(keys, 'password reset requests')
  await hitAll(keys)

  const user = await userContactByEmail(db, account)
  if (!user) return RESET_REQUESTED
  const token = generateSessionToken()
  const now = Date.now()
  await db.tx(async (tx) => {
    // Only the newest link works: asking again retires the earlier ones.
    await replaceResetToken(tx, sessionIdOf(token), user.id, now + RESET_TOKEN_MINUTES * 60_000, now)
    await ctx.mail.send(tx, passwordReset(config.publicUrl, user, `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`))
  })
  return RESET_REQUESTED
}

/** Sets the new password, spends the token, and ends every session of the user (a thief's included). */
export async function resetPassword(ctx: AppContext, input: { token: string; password: string; confirm_password: string }, ipAddress: string) {
  const { db, limits } = ctx
  if (input.password !== input.confirm_password) throw fieldError('confirm_password', ACCOUNT_MESSAGES.confirmMismatch)
  await enforce([[limits.resetByAddress, ipAddress]], 'password reset attempts')
  const tokenHash = sessionIdOf(input.token)
  const row = await resetToken(db, tokenHash)
  if (!row || row.usedAt !== null || Number(row.expiresAt) <= Date.now()) {
    await limits.resetByAddress.hit(ipAddress)
    throw refused(RESET_LINK_INVALID)
  }
  const passwordHash = await hashPassword(input.password)
  await db.tx(async (tx) => {
    const now = Date.now()
    // Spent atomically: of two concurrent uses of one link, only one changes the password.
    const userId = await spendResetToken(tx, tokenHash, now)
    if (userId === undefined) throw refused(RESET_LINK_INVALID)
    const user = (await setPasswordHash(tx, userId, passwordHash, now))!
    await invalidateUserSessions(tx, userId)
    await recordAudit(tx, { actor: { id: user.id, fullName: user.fullName }, action: 'user.password_reset', entityType: 'user', entityId: user.id, cityId: user.cityId })
  })
  return RESET_DONE
}
