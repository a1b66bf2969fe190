import type { Queryable } from '../../../db/sql'
import { SECOND_FACTOR } from '../../shared/constants'
import { generateSessionToken, sessionIdOf } from '../../platform/sessions'
import { recoveryHash } from './codes'

// The rows of a second factor (db/schema.ts: second_factors, recovery_codes, second_factor_challenges).

export type Factor = { secret: string; confirmedAt: number | null; lastStep: number | null }

export async function factorOf(db: Queryable, userId: number): Promise<Factor | null> {
  const row = await db.get<{ secret: string; confirmedAt: number | string | null; lastStep: number | string | null }>(
    'select secret, confirmed_at as "confirmedAt", last_step as "lastStep" from second_factors where user_id = ?',
    [userId],
  )
  if (!row) return null
  return { secret: row.secret, confirmedAt: row.confirmedAt === null ? null : Number(row.confirmedAt), lastStep: row.lastStep === null ? null : Number(row.lastStep) }
}

/** Whether the user has a second factor in use (an enrolment not yet confirmed is none). */
export const hasFactor = async (db: Queryable, userId: number) => (await factorOf(db, userId))?.confirmedAt != null

/** A new key waiting for its first code; it replaces an earlier unconfirmed one. */
export async function savePendingFactor(db: Queryable, userId: number, secret: string, now = Date.now()): Promise<void> {
  await db.run(
    `insert into second_factors (user_id, secret, confirmed_at, last_step, created_at) values (?, ?, null, null, ?)
     on conflict (user_id) do update set secret = excluded.secret, confirmed_at = null, last_step = null, created_at = excluded.created_at`,
    [userId, secret, now],
  )
}

/**
 * Spends the step of an accepted code: true when this call moved `last_step` forward, false when another request
 * spent this step (or a later one) first. One statement, so two requests with one code cannot both pass.
 */
export async function spendStep(db: Queryable, userId: number, step: number, confirm = false): Promise<boolean> {
  const { rows } = await db.run<{ userId: number }>(
    `update second_factors set last_step = ?${confirm ? ', confirmed_at = ?' : ''}
     where user_id = ? and (last_step is null or last_step < ?) returning user_id as "userId"`,
    confirm ? [step, Date.now(), userId, step] : [step, userId, step],
  )
  return rows.length === 1
}

/** Spends a recovery code: true once, for an unused code of this user. */
export async function spendRecoveryCode(db: Queryable, userId: number, code: string): Promise<boolean> {
  const { rows } = await db.run<{ id: number }>('update recovery_codes set used_at = ? where user_id = ? and code_hash = ? and used_at is null returning id', [
    Date.now(),
    userId,
    recoveryHash(code),
  ])
  return rows.length === 1
}

/** Replaces the user's recovery codes with these (stored hashed). */
export async function replaceRecoveryCodes(tx: Queryable, userId: number, codes: string[]): Promise<void> {
  await tx.run('delete from recovery_codes where user_id = ?', [userId])
  for (const code of codes) await tx.run('insert into recovery_codes (user_id, code_hash, used_at) values (?, ?, null)', [userId, recoveryHash(code)])
}

export async function recoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  return Number((await db.get<{ n: number }>('select count(*) as n from recovery_codes where user_id = ? and used_at is null', [userId]))!.n)
}

/** Removes the factor, its recovery codes and any sign-in waiting for a code. */
export async function removeFactor(tx: Queryable, userId: number): Promise<boolean> {
  const { rows } = await tx.run<{ userId: number }>('delete from second_factors where user_id = ? returning user_id as "userId"', [userId])
  await tx.run('delete from recovery_codes where user_id = ?', [userId])
  await tx.run('delete from second_factor_challenges where user_id = ?', [userId])
  return rows.length === 1
}

/**
 * The token of a sign-in's second step: only its SHA-256 is stored, like a session's. Expired ones go meanwhile (the
 * table holds only the last 5 minutes' sign-ins of admins: a scan of it is nothing).
 */
export async function createChallenge(db: Queryable, userId: number, now = Date.now()): Promise<string> {
  const token = generateSessionToken()
  await db.run('delete from second_factor_challenges where expires_at <= ?', [now])
  await db.run('insert into second_factor_challenges (id, user_id, expires_at, created_at) values (?, ?, ?, ?)', [sessionIdOf(token), userId, now + SECOND_FACTOR.challengeMs, now])
  return token
}

/** The user a challenge is for, while it is unexpired and unused. */
export async function challengeUser(db: Queryable, token: string, now = Date.now()): Promise<number | null> {
  const row = await db.get<{ userId: number; expiresAt: number | string }>('select user_id as "userId", expires_at as "expiresAt" from second_factor_challenges where id = ?', [
    sessionIdOf(token),
  ])
  return row && Number(row.expiresAt) > now ? Number(row.userId) : null
}

/** Uses a challenge up: true for the one request that removed it. */
export async function spendChallenge(db: Queryable, token: string): Promise<boolean> {
  const { rows } = await db.run<{ id: string }>('delete from second_factor_challenges where id = ? returning id', [sessionIdOf(token)])
  return rows.length === 1
}

/** A condition on a user id column: the user has a confirmed second factor (`exists (…)`). */
export const confirmedFactorOf = (userId: string) =>
  `select 1 from second_factors where second_factors.user_id = ${userId} and second_factors.confirmed_at is not null`
