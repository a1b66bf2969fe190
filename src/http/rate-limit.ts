import type { Database } from '../../db/client'
import { HttpError } from './errors'

/**
 * Counts events per key in fixed windows, kept in the `rate_limits` table: every process serving the database
 * counts against the same limit (a limit counted per process would be N times too generous), and a restart does
 * not forget. Used for failed sign-ins, reset requests and registrations, per address and per account; none of
 * them is a hot path (each sits beside an argon2 hash or a mail).
 */
export class RateLimiter {
  private readonly read
  private readonly bump
  private readonly clear
  private readonly prune
  private hitsSincePrune = 0

  constructor(
    db: Database,
    readonly bucket: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    const sqlite = db.$client
    this.read = sqlite.query<{ count: number; reset_at: number }, [string, string]>('SELECT count, reset_at FROM rate_limits WHERE bucket = ? AND key = ?')
    // One statement, so two processes hitting the same key at once both count.
    this.bump = sqlite.query<unknown, [string, string, number, number]>(
      `INSERT INTO rate_limits (bucket, key, count, reset_at) VALUES (?1, ?2, 1, ?3 + ?4)
       ON CONFLICT (bucket, key) DO UPDATE SET
         count = CASE WHEN reset_at <= ?3 THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= ?3 THEN ?3 + ?4 ELSE reset_at END`,
    )
    this.clear = sqlite.query<unknown, [string, string]>('DELETE FROM rate_limits WHERE bucket = ? AND key = ?')
    this.prune = sqlite.query<unknown, [number]>('DELETE FROM rate_limits WHERE reset_at <= ?')
  }

  /** Seconds until the key may try again, or 0 when it is under the limit. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.read.get(this.bucket, key)
    if (!entry || entry.reset_at <= now || entry.count < this.limit) return 0
    return Math.max(1, Math.ceil((entry.reset_at - now) / 1000))
  }

  hit(key: string, now = Date.now()): void {
    this.bump.run(this.bucket, key, now, this.windowMs)
    // Expired windows of every limiter go now and then, so the table stays as small as the keys still counting.
    if (++this.hitsSincePrune >= 1000) {
      this.hitsSincePrune = 0
      this.prune.run(now)
    }
  }

  reset(key: string): void {
    this.clear.run(this.bucket, key)
  }
}

export const tooManyRequests = (retryAfterSeconds: number, what: string) => {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return new HttpError(429, `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, {
    'retry-after': String(retryAfterSeconds),
  })
}

/** Throws 429 when any of the keys is over its limit. */
export function enforce(checks: [RateLimiter, string][], what: string): void {
  const wait = Math.max(0, ...checks.map(([limiter, key]) => limiter.retryAfter(key)))
  if (wait > 0) throw tooManyRequests(wait, what)
}
