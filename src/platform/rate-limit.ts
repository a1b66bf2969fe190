import type { Queryable } from '../../db/sql'
import { tooMany } from './errors'

/**
 * Counts events per key in fixed windows, kept in the `rate_limits` table: every process serving the database
 * counts against the same limit (a limit counted per process would be N times too generous), and a restart does
 * not forget. Used for failed sign-ins, reset requests and registrations, per address and per account; none of
 * them is a hot path (each sits beside an argon2 hash or a mail). Every count is a write of its own, outside any
 * transaction of the request: it stays counted whatever the request does next.
 */
export class RateLimiter {
  private hitsSincePrune = 0

  constructor(
    private readonly db: Queryable,
    readonly bucket: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it is under the limit. */
  async retryAfter(key: string, now = Date.now()): Promise<number> {
    const entry = await this.db.get<{ count: number; reset_at: number }>('select count, reset_at from rate_limits where bucket = ? and key = ?', [
      this.bucket,
      key,
    ])
    if (!entry) return 0
    const resetAt = Number(entry.reset_at)
    if (resetAt <= now || Number(entry.count) < this.limit) return 0
    return Math.max(1, Math.ceil((resetAt - now) / 1000))
  }

  async hit(key: string, now = Date.now()): Promise<void> {
    // One statement, so two processes hitting the same key at once both count.
    await this.db.run(
      `insert into rate_limits (bucket, key, count, reset_at) values (?, ?, 1, ?)
       on conflict (bucket, key) do update set
         count = case when rate_limits.reset_at <= ? then 1 else rate_limits.count + 1 end,
         reset_at = case when rate_limits.reset_at <= ? then ? else rate_limits.reset_at end`,
      [this.bucket, key, now + this.windowMs, now, now, now + this.windowMs],
    )
    // Expired windows of every limiter go now and then, so the table stays as small as the keys still counting.
    if (++this.hitsSincePrune >= 1000) {
      this.hitsSincePrune = 0
      await this.db.run('delete from rate_limits where reset_at <= ?', [now])
    }
  }

  async reset(key: string): Promise<void> {
    await this.db.run('delete from rate_limits where bucket = ? and key = ?', [this.bucket, key])
  }
}

/** Throws TooMany (429, with Retry-After) when any of the keys is over its limit. */
export async function enforce(checks: [RateLimiter, string][], what: string): Promise<void> {
  const waits = await Promise.all(checks.map(([limiter, key]) => limiter.retryAfter(key)))
  const wait = Math.max(0, ...waits)
  if (wait > 0) throw tooMany(wait, what)
}

/** Counts one event against each of the keys. */
export async function hitAll(checks: [RateLimiter, string][]): Promise<void> {
  for (const [limiter, key] of checks) await limiter.hit(key)
}
