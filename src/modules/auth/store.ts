import type { Queryable } from '../../../db/sql'

// The only SQL of password reset links (`password_reset_tokens`, issue 31): a link's SHA-256 is stored, never the link.

/** Stores a user's new link, retiring their earlier unused ones (only the newest link works). */
export async function replaceResetToken(tx: Queryable, id: string, userId: number, expiresAt: number, now: number): Promise<void> {
  await tx.run('delete from password_reset_tokens where user_id = ? and used_at is null', [userId])
  await tx.run('insert into password_reset_tokens (id, user_id, expires_at, created_at) values (?, ?, ?, ?)', [id, userId, expiresAt, now])
}

/** A link's expiry and use, by its hash; undefined when unknown. */
export const resetToken = (db: Queryable, id: string) =>
  db.get<{ expiresAt: number; usedAt: number | null }>('select expires_at as "expiresAt", used_at as "usedAt" from password_reset_tokens where id = ?', [id])

/** Spends a link atomically (of two concurrent uses only one gets its user back); undefined when already spent. */
export async function spendResetToken(tx: Queryable, id: string, now: number): Promise<number | undefined> {
  const spent = await tx.run<{ userId: number }>('update password_reset_tokens set used_at = ? where id = ? and used_at is null returning user_id as "userId"', [now, id])
  return spent.rows[0]?.userId
}
