import { HttpError } from './errors'

/**
 * Counts events per key in fixed windows, in memory: enough for one process, which is how Brokernet runs.
 * Used for failed sign-ins and reset requests, per address and per account.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it is under the limit. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.hits.get(key)
    if (!entry || entry.resetAt <= now || entry.count < this.limit) return 0
    return Math.max(1, Math.ceil((entry.resetAt - now) / 1000))
  }

  hit(key: string, now = Date.now()): void {
    const entry = this.hits.get(key)
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size > 50_000) this.prune(now)
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs })
    } else entry.count++
  }

  reset(key: string): void {
    this.hits.delete(key)
  }

  private prune(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key)
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
