import type { AppContext } from '../../platform/context'
import type { Actor } from '../../platform/http/auth'
import { conflict, fieldError, forbidden, notFound, unauthenticated, type DomainError } from '../../platform/errors'
import { enforce, hitAll } from '../../platform/rate-limit'
import { createSession, invalidateSessionsOf, invalidateUserSessions, type SessionMeta, type SessionUser } from '../../platform/sessions'
import { recordAudit } from '../audit/service'
import { ACCOUNT_INACTIVE } from '../../platform/http/auth'
import { secondFactorReset } from '../mail/templates'
import { idsOfRoleWithout, userById as storedUser, type User } from '../users/store'
import { cleanCode, keyUri, matchingStep, newRecoveryCodes, newSecret, TOTP_PATTERN } from './codes'
import { mayEnrol, secondFactorPolicy, secondFactorRequired, setModuleAdminsRequired } from './settings'
import { challengeUser, confirmedFactorOf, factorOf, hasFactor, recoveryCodesLeft, removeFactor, replaceRecoveryCodes, savePendingFactor, spendChallenge, spendRecoveryCode, spendStep } from './store'

// Issue 29: admins prove a second factor (docs/decisions/025-admin-second-factor.md).

export const WRONG_CODE = 'That code is not right. Check the time on your phone and try the newest code.'
export const USED_CODE = 'That code was already used. Wait for the next one in your app.'
export const WRONG_RECOVERY_CODE = 'That recovery code is not right, or it was already used.'
export const CHALLENGE_EXPIRED = 'This sign-in has expired. Please sign in with your password again.'
export const NOT_FOR_BROKERS = 'Two-factor sign-in is for administrators.'
export const ALREADY_ON = 'Two-factor sign-in is already on for your account.'
export const NO_SETUP = 'Start the setup first: no authenticator key is waiting for a code.'
export const NOT_ON = 'Two-factor sign-in is not on for your account.'
export const REQUIRED_CANNOT_DISABLE = 'Your role must use two-factor sign-in, so it cannot be turned off. A master admin can reset it if you lose your phone.'

const actorOf = (u: Pick<User, 'id' | 'fullName'>) => ({ id: u.id, fullName: u.fullName })
type Meta = SessionMeta & { ipAddress: string }
type Proof = 'totp' | 'recovery'

/**
 * Checks a code of the user's factor and spends it: a time-based code (its step, so it works once) or, where allowed,
 * a recovery code (used up). Wrong codes count per account and per address (429 beyond, before any check) and are
 * audited; `fail` makes the error of the caller's kind (401 at sign-in, a field error elsewhere).
 */
async function prove(
  ctx: AppContext,
  user: Pick<User, 'id' | 'fullName' | 'cityId'>,
  code: string,
  ipAddress: string,
  options: { recovery: boolean; fail: (message: string) => DomainError },
): Promise<Proof> {
  const { db, limits } = ctx
  const keys: Parameters<typeof enforce>[0] = [
    [limits.secondFactorByAddress, ipAddress],
    [limits.secondFactorByAccount, String(user.id)],
  ]
  await enforce(keys, 'wrong codes')
  const factor = await factorOf(db, user.id)
  let why = WRONG_CODE
  if (factor && TOTP_PATTERN.test(cleanCode(code))) {
    const step = matchingStep(factor.secret, code, Date.now(), null)
    if (step !== null && (factor.lastStep === null || step > factor.lastStep) && (await spendStep(db, user.id, step))) return 'totp'
    if (step !== null) why = USED_CODE
  } else if (factor && options.recovery) {
    if (await spendRecoveryCode(db, user.id, code)) return 'recovery'
    why = WRONG_RECOVERY_CODE
  }
  await hitAll(keys)
  await recordAudit(db, { actor: actorOf(user), action: 'user.second_factor_failed', entityType: 'user', entityId: user.id, cityId: user.cityId, reason: why })
  throw options.fail(why)
}

const codeField = (message: string) => fieldError('code', message)

async function userById(ctx: AppContext, id: number): Promise<User | null> {
  return storedUser(ctx.db, id)
}

/**
 * The sign-in's second step: the challenge the password step gave, and a code of the factor (or a recovery code).
 * Opens a full session. The challenge works once and for 5 minutes; the account's standing is checked again.
 */
export async function completeSignIn(ctx: AppContext, challenge: string, code: string, meta: Meta) {
  const { db, limits } = ctx
  await enforce([[limits.secondFactorByAddress, meta.ipAddress]], 'wrong codes')
  const userId = await challengeUser(db, challenge)
  const user = userId === null ? null : await userById(ctx, userId)
  if (!user) {
    await limits.secondFactorByAddress.hit(meta.ipAddress)
    throw unauthenticated(CHALLENGE_EXPIRED)
  }
  const proof = await prove(ctx, user, code, meta.ipAddress, { recovery: true, fail: unauthenticated })
  if (!(await spendChallenge(db, challenge))) throw unauthenticated(CHALLENGE_EXPIRED)
  if (!user.isActive || user.registrationStatus !== 'APPROVED') throw forbidden(ACCOUNT_INACTIVE)
  if (proof === 'recovery')
    await recordAudit(db, { actor: actorOf(user), action: 'user.second_factor_recovery_used', entityType: 'user', entityId: user.id, cityId: user.cityId })
  return { user, proof, ...(await createSession(db, user.id, meta)) }
}

/** What the security page shows: whether the factor is on, whether the role must have it, recovery codes left. */
export async function factorStatus(ctx: AppContext, user: Pick<SessionUser, 'id' | 'role'>) {
  const factor = await factorOf(ctx.db, user.id)
  const enabled = factor?.confirmedAt != null
  return {
    enabled,
    required: await secondFactorRequired(ctx.db, user.role),
    enabled_at: enabled ? new Date(factor!.confirmedAt!).toISOString() : null,
    recovery_codes_left: enabled ? await recoveryCodesLeft(ctx.db, user.id) : 0,
  }
}

/** Enrolment, first half: a new key (replacing one still waiting), as a QR code, its URI and the key as text. */
export async function startEnrolment(ctx: AppContext, user: SessionUser) {
  if (!mayEnrol(user.role)) throw forbidden(NOT_FOR_BROKERS)
  if (await hasFactor(ctx.db, user.id)) throw conflict(ALREADY_ON)
  const secret = newSecret()
  await savePendingFactor(ctx.db, user.id, secret)
  const uri = keyUri(secret, user.email)
  const { qrSvg } = await import('./qr')
  return { secret, uri, qr_svg: qrSvg(uri) }
}

/**
 * Enrolment, second half: a code from the app proves it holds the key. The factor is on, ten recovery codes are made
 * (shown this once), and every session of the user ends but a new one answered here: those opened before it (an
 * enrolment-only one, or one a thief holds) do not carry on as if the factor had been proved.
 */
export async function confirmEnrolment(ctx: AppContext, user: SessionUser, code: string, meta: Meta) {
  const factor = await factorOf(ctx.db, user.id)
  if (factor?.confirmedAt != null) throw conflict(ALREADY_ON)
  if (!factor) throw conflict(NO_SETUP)
  const { limits } = ctx
  const keys: Parameters<typeof enforce>[0] = [
    [limits.secondFactorByAddress, meta.ipAddress],
    [limits.secondFactorByAccount, String(user.id)],
  ]
  await enforce(keys, 'wrong codes')
  const step = matchingStep(factor.secret, code, Date.now(), null)
  if (step === null) {
    await hitAll(keys)
    await recordAudit(ctx.db, { actor: actorOf(user), action: 'user.second_factor_failed', entityType: 'user', entityId: user.id, cityId: user.cityId, reason: WRONG_CODE })
    throw codeField(WRONG_CODE)
  }
  const codes = newRecoveryCodes()
  const created = await ctx.db.tx(async (tx) => {
    if (!(await spendStep(tx, user.id, step, true))) throw conflict(ALREADY_ON)
    await replaceRecoveryCodes(tx, user.id, codes)
    await invalidateUserSessions(tx, user.id)
    await recordAudit(tx, { actor: actorOf(user), action: 'user.second_factor_enable', entityType: 'user', entityId: user.id, cityId: user.cityId })
    return createSession(tx, user.id, meta)
  })
  return { recovery_codes: codes, ...created }
}

/** Ten new recovery codes for a current code of the app; the earlier ones stop working. */
export async function regenerateRecoveryCodes(ctx: AppContext, user: SessionUser, code: string, ipAddress: string) {
  if (!(await hasFactor(ctx.db, user.id))) throw conflict(NOT_ON)
  await prove(ctx, user, code, ipAddress, { recovery: false, fail: codeField })
  const codes = newRecoveryCodes()
  await ctx.db.tx(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, codes)
    await recordAudit(tx, { actor: actorOf(user), action: 'user.second_factor_recovery_codes', entityType: 'user', entityId: user.id, cityId: user.cityId })
  })
  return { recovery_codes: codes }
}

/** Turns the caller's own factor off, with a code of it (or a recovery code), when their role does not require it. */
export async function disableFactor(ctx: AppContext, user: SessionUser, code: string, ipAddress: string) {
  if (!(await hasFactor(ctx.db, user.id))) throw conflict(NOT_ON)
  if (await secondFactorRequired(ctx.db, user.role)) throw forbidden(REQUIRED_CANNOT_DISABLE)
  await prove(ctx, user, code, ipAddress, { recovery: true, fail: codeField })
  await ctx.db.tx(async (tx) => {
    await removeFactor(tx, user.id)
    await recordAudit(tx, { actor: actorOf(user), action: 'user.second_factor_disable', entityType: 'user', entityId: user.id, cityId: user.cityId })
  })
}

/**
 * A master admin resets another user's lost factor: it is removed with its recovery codes, every session of that user
 * ends, and they are told by mail. Their next sign-in sets one up again where their role requires it.
 */
export async function resetFactor(ctx: AppContext, actor: Actor, id: number) {
  if (id === actor.id) throw forbidden('You cannot reset your own two-factor sign-in: turn it off or change it on your Security page.')
  await ctx.db.tx(async (tx) => {
    const user = await storedUser(tx, id)
    if (!user) throw notFound('User not found')
    if (!(await removeFactor(tx, id))) throw conflict('This user has no two-factor sign-in to reset')
    await invalidateUserSessions(tx, id)
    await recordAudit(tx, { actor: actorOf(actor), action: 'user.second_factor_reset', entityType: 'user', entityId: id, cityId: user.cityId })
    await ctx.mail.send(tx, secondFactorReset(ctx.config.publicUrl, user, actor.fullName))
  })
}

/**
 * Turns "module admins must use two-factor sign-in" on or off. Turned on, the sessions of module admins without a
 * factor end: their next sign-in asks them to set one up (a session cannot be narrowed in place: caches hold it).
 */
export async function setPolicy(ctx: AppContext, actor: Actor, required: boolean) {
  const before = await secondFactorPolicy(ctx.db)
  if (before.required_for_module_admins === required) return before
  await ctx.db.tx(async (tx) => {
    await setModuleAdminsRequired(tx, required)
    if (required)
      await invalidateSessionsOf(tx, idsOfRoleWithout('MODULE_ADMIN', confirmedFactorOf))
    await recordAudit(tx, {
      actor: actorOf(actor),
      action: 'setting.update',
      entityType: 'setting',
      entityId: 'second_factor_module_admins',
      before: { required_for_module_admins: before.required_for_module_admins },
      after: { required_for_module_admins: required },
    })
  })
  return secondFactorPolicy(ctx.db)
}
