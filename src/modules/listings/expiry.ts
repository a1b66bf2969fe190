import { indexedBy } from '../../../db/dialect'
import type { Db, Dialect } from '../../../db/sql'

/** setTimeout's longest wait (about 24.8 days); a later end is looked at again then. */
const LONGEST_WAIT = 2 ** 31 - 1

/**
 * The timer's two statements, through listings_expiry_idx by name on SQLite: without statistics its planner takes the
 * status index for `status in (…)` and walks every ACTIVE listing (320 ms at a million listings, on the server's thread,
 * every minute in every process), where the partial index reads one entry or the few past their end.
 */
export const expirySql = (dialect: Dialect) => ({
  next: `select expires_at as at from listings ${indexedBy(dialect, 'listings_expiry_idx')} where status in ('ACTIVE', 'ON_HOLD') and expires_at is not null order by expires_at limit 1`,
  expire: `update listings ${indexedBy(dialect, 'listings_expiry_idx')} set status = 'EXPIRED', updated_at = ? where status in ('ACTIVE', 'ON_HOLD') and expires_at <= ?`,
  /**
   * PostgreSQL: one listing at a time, the first past its end, read and then expired by its id, so that the expiry
   * never holds a lock while it waits for one (issue 29). One statement for all of them locked each listing in turn
   * and, through the kept counts' triggers, count rows between them: a listing posted meanwhile, holding count rows of
   * its own, could wait for the expiry while the expiry waited for it. A statement that searched for the first due
   * listing FOR UPDATE still kept the lock on a listing another process expired while it waited, as it waited for the
   * next one: with a match drain holding that one, three transactions waited in a circle.
   */
  firstDue: `select id from listings where status in ('ACTIVE', 'ON_HOLD') and expires_at <= ? order by expires_at limit 1`,
  expireOne: `update listings set status = 'EXPIRED', updated_at = ? where id = ? and status in ('ACTIVE', 'ON_HOLD') and expires_at <= ?`,
})

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
 * same moment expire each listing once (on PostgreSQL listing by listing: `expireOne`).
 */
export class Expiry {
  private timer: ReturnType<typeof setTimeout> | null = null
  private armedAt = Infinity
  private recheck: ReturnType<typeof setInterval> | null = null
  private closed = false
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
    const sql = expirySql(this.db.dialect)
    let changes = 0
    if (this.db.dialect === 'postgres') {
      for (;;) {
        const due = await this.db.get<{ id: number }>(sql.firstDue, [now])
        if (!due) break
        // Expired here unless another process did it first, or it was renewed meanwhile: the next read passes it by.
        changes += (await this.db.run(sql.expireOne, [now, due.id, now])).changes
      }
    } else changes = (await this.db.tx((tx) => tx.run(sql.expire, [now, now]))).changes
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
    if (this.closed) return
    try {
      await this.run()
    } catch (e) {
      // Left as it was: the next end, the recheck or the next write tries again.
      console.error(`expiring listings: ${(e as Error).message}`)
    }
    await this.next()
  }

  /** The earliest end of a listing that can still expire, through listings_expiry_idx (only those rows). */
  private async next(): Promise<void> {
    if (this.closed) return
    try {
      const row = await this.db.get<{ at: number | null }>(expirySql(this.db.dialect).next)
      if (row?.at != null) this.due(Number(row.at))
    } catch (e) {
      if (!this.closed) console.error(`expiring listings: ${(e as Error).message}`)
    }
  }
}
