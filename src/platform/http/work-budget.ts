import { tooMany } from '../errors'
import { HttpError } from './errors'

/**
 * An allowance of work per key, in this process (a leaky bucket): each request spends what it costs (a paste's
 * characters), and the spent amount drains at `capacity` per `windowMs`. It guards this process's CPU from one
 * caller, so it is counted here and not in the database: with several processes each has its own allowance, which
 * is right for a guard of each one's CPU, and it costs no query.
 */
export class WorkBudget {
  private readonly spent = new Map<string, { level: number; at: number }>()
  private sweptAt = 0

  constructor(
    readonly capacity: number,
    readonly windowMs: number,
  ) {}

  /** Spends `cost` for `key`, or throws 429 (with Retry-After) when it does not fit in what is left now. */
  charge(key: string, cost: number, what: string, now = Date.now()): void {
    const rate = this.capacity / this.windowMs
    const entry = this.spent.get(key)
    const level = entry ? Math.max(0, entry.level - (now - entry.at) * rate) : 0
    if (level + cost > this.capacity) {
      const wait = Math.max(1, Math.ceil((level + cost - this.capacity) / rate / 1000))
      // This process's own guard, answered as the HTTP layer's: the rate limits' words, with Retry-After.
      throw new HttpError(429, tooMany(wait, what).message, { 'retry-after': String(wait) })
    }
    this.spent.set(key, { level: level + cost, at: now })
    // Keys whose spending has drained away go at most once a window, so the map holds only recent callers and a
    // request pays for a sweep rarely, not each time once many callers are counted.
    if (this.spent.size > 1000 && now - this.sweptAt >= this.windowMs) {
      this.sweptAt = now
      for (const [k, e] of this.spent) if (e.level - (now - e.at) * rate <= 0) this.spent.delete(k)
    }
  }
}
