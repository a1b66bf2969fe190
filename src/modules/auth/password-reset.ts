import { and, eq, isNull } from 'drizzle-orm'
import { passwordResetTokens, users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { badRequest, fieldError } from '../../http/errors'
import { enforce } from '../../http/rate-limit'
import { ACCOUNT_MESSAGES } from '../../shared/account-rules'
import { RESET_TOKEN_MINUTES } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { passwordReset } from '../mail/templates'
import { normalizeEmail } from './service'
import { generateSessionToken, invalidateUserSessions, sessionIdOf } from './session'

export const RESET_REQUESTED = 'If an account exists for this email, a link to reset the password has been sent. It is valid for one hour.'
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired. Please request a new one.'
export const RESET_DONE = 'Your password has been reset. You can now sign in with your new password.'

/**
 * Mails a single-use link valid for one hour. The answer is the same whether or not the email has an account,
 * and the work done differs only by one insert, so neither the answer nor its timing tells who is registered.
 */
export function requestPasswordReset(ctx: AppContext, email: string, ipAddress: string): string {
  const { db, limits, config } = ctx
  const account = normalizeEmail(email)
  const keys: Parameters<typeof enforce>[0] = [
    [limits.resetByAddress, ipAddress],
    [limits.resetByAccount, account],
  ]
  enforce(keys, 'password reset requests')
  for (const [limiter, key] of keys) limiter.hit(key)

  const user = db.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users).where(eq(users.email, account)).get()
  if (!user) return RESET_REQUESTED
  const token = generateSessionToken()
  db.transaction((tx) => {
    // Only the newest link works: asking again retires the earlier ones.
    tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt))).run()
    tx.insert(passwordResetTokens)
      .values({ id: sessionIdOf(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000) })
      .run()
    ctx.mail.send(passwordReset(config.publicUrl, user, `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`))
  })
  return RESET_REQUESTED
}

/** Sets the new password, spends the token, and ends every session of the user (a thief's included). */
export async function resetPassword(ctx: AppContext, input: { token: string; password: string; confirm_password: string }, ipAddress: string) {
  const { db, limits } = ctx
  if (input.password !== input.confirm_password) throw fieldError('confirm_password', ACCOUNT_MESSAGES.confirmMismatch)
  enforce([[limits.resetByAddress, ipAddress]], 'password reset attempts')
  const tokenHash = sessionIdOf(input.token)
  const row = db.select().from(passwordResetTokens).where(eq(passwordResetTokens.id, tokenHash)).get()
  if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now()) {
    limits.resetByAddress.hit(ipAddress)
    throw badRequest(RESET_LINK_INVALID)
  }
  const passwordHash = await Bun.password.hash(input.password)
  db.transaction((tx) => {
    // Spent atomically: of two concurrent uses of one link, only one changes the password.
    const spent = tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.id, tokenHash), isNull(passwordResetTokens.usedAt)))
      .returning({ userId: passwordResetTokens.userId })
      .get()
    if (!spent) throw badRequest(RESET_LINK_INVALID)
    const user = tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, spent.userId)).returning().get()!
    invalidateUserSessions(tx, spent.userId)
    recordAudit(tx, { actor: { id: user.id, fullName: user.fullName }, action: 'user.password_reset', entityType: 'user', entityId: user.id, cityId: user.cityId })
  })
  return RESET_DONE
}
