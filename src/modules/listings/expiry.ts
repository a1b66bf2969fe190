import type { Db } from '../../../db/sql'
import { expireDue, nextExpiry } from './store/expiry'

/** setTimeout's longest wait (about 24.8 days); a later end is looked at again then. */
const LONGEST_WAIT = 2 ** 31 - 1
/**
 * After a sweep that expired nothing, the soonest the timer fires again: a listing past its end that another
 * transaction held (PostgreSQL passes it over) is looked at again then, not in a loop for as long as it is held.
 */
const RETRY_MS = 1000

/**
 * Listings leave the network when their `expires_at` passes (issue 17), at that moment rather than at a job's next
 * round: a timer waits for the next end there is, and then one statement sets every ACTIVE or ON_HOLD listing past its
 * end EXPIRED. From there it is an ordinary status change: the kept counts, search tags, id blocks, the live flag of
 * matches and the change feed (so every cached answer, in every process) follow through the triggers that follow any
 * status change, and reads pay nothing for expiry.
 *
 * Every process keeps one. A write that sets an end calls `due` in the process that took it, so the timer of that
 * process is early enough for it; `start` looks at the database once and then every `recheckMs`, for ends written by
 * anything else (another process, a seed, an upgrade). The statement is idempotent: two processes running it at the
 * same moment expire each listing once (on PostgreSQL listing by listing, each process passing over those another holds:
 * `expireNext`). One sweep at a time in a process: a timer that fires while one runs leaves the rest to it.
 */
export class Expiry {
  private timer: ReturnType<typeof setTimeout> | null = null
  private armedAt = Infinity
  private recheck: ReturnType<typeof setInterval> | null = null
  private closed = false
  /** A sweep is running (`fire`): the next one starts after it. */
  private sweeping = false
  /** Called after listings expired (the reminders' and tests' hook), with how many. */
  onExpired: ((n: number) => void) | null = null

  constructor(private readonly db: Db) {}

  /** A listing now ends at `at` (epoch ms; null: never): be awake for it. */
  due(at: number | null | undefined): void {
    if (at === null || at === undefined || this.closed || at >= this.armedAt) return
    this.arm(at)
  }

  /** Look for the next end now and every `recheckMs` (the primary's and each worker's safety net). */
  start(recheckMs = 60_000): void {
    void this.next()
    this.recheck ??= setInterval(() => void this.next(), recheckMs)
    this.recheck.unref?.()
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.recheck) clearInterval(this.recheck)
    this.timer = this.recheck = null
  }

  /** Expire what is due, then wait for the next end there is. */
  async run(now = Date.now()): Promise<number> {
    const changes = await expireDue(this.db, now)
    if (changes > 0) this.onExpired?.(changes)
    return changes
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.armedAt = at
    const wait = Math.min(Math.max(0, at - Date.now()), LONGEST_WAIT)
    this.timer = setTimeout(() => void this.fire(), wait)
    this.timer.unref?.()
  }

  private async fire(): Promise<void> {
    this.timer = null
    this.armedAt = Infinity
    // The running sweep expires what is due until nothing is, then looks for the next end (issue 36: every recheck
    // and every write's `due` during a long sweep started another one beside it, all after the same listings).
    if (this.closed || this.sweeping) return
    this.sweeping = true
    let changes = 0
    try {
      changes = await this.run()
    } catch (e) {
      // Left as it was: the next end, the recheck or the next write tries again.
      console.error(`expiring listings: ${(e as Error).message}`)
    } finally {
      this.sweeping = false
    }
    await this.next(changes > 0 ? 0 : RETRY_MS)
  }

  /**
   * The earliest end of a listing that can still expire, through listings_expiry_idx (only those rows), armed for no
   * sooner than `after` ms from now.
   */
  private async next(after = 0): Promise<void> {
    if (this.closed) return
    try {
      const at = await nextExpiry(this.db)
      if (at !== null) this.due(Math.max(at, Date.now() + after))
    } catch (e) {
      if (!this.closed) console.error(`expiring listings: ${(e as Error).message}`)
    }
  }
}
