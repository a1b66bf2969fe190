import { indexedBy } from '../../../../db/dialect'
import type { Db, Dialect } from '../../../../db/sql'
import { Turns } from '../../../platform/turns'

// The expiry's SQL (../expiry.ts keeps the timer): the next end there is, and the listings past theirs set EXPIRED.

/** Listings expired per statement (and transaction) on SQLite (see `expire`). */
export const EXPIRE_BATCH = 256

/**
 * The timer's two statements, through listings_expiry_idx by name on SQLite: without statistics its planner takes the
 * status index for `status in (…)` and walks every ACTIVE listing (320 ms at a million listings, on the server's thread,
 * every minute in every process), where the partial index reads one entry or the few past their end.
 */
export const expirySql = (dialect: Dialect) => ({
  next: `select expires_at as at from listings ${indexedBy(dialect, 'listings_expiry_idx')} where status in ('ACTIVE', 'ON_HOLD') and expires_at is not null order by expires_at limit 1`,
  /**
   * SQLite: at most EXPIRE_BATCH listings per statement and transaction, the earliest ends first. Each expiry fires the
   * kept counts', search tags' and change feed's triggers; 5,427 listings past their end at once (a copy of the bench
   * database started a day after its seed) made one transaction of 390 MB of log, and the process's resident set grew
   * by 120 MB while it ran (issue 36: ≤ 300 MB per process). In batches the writer is also free between them, and
   * requests are answered between them (src/platform/turns.ts: one statement held the server's thread as long).
   */
  expire: `update listings set status = 'EXPIRED', updated_at = ? where id in (select id from listings ${indexedBy(dialect, 'listings_expiry_idx')} where status in ('ACTIVE', 'ON_HOLD') and expires_at <= ? order by expires_at limit ?)`,
  /**
   * PostgreSQL: one listing at a time, the first past its end that no other transaction holds, expired by one statement
   * (issue 29: the expiry never holds a lock while it waits for one). One statement for all of them locked each listing
   * in turn and, through the kept counts' triggers, count rows between them: a listing posted meanwhile, holding count
   * rows of its own, could wait for the expiry while the expiry waited for it. A statement that searched for the first
   * due listing FOR UPDATE still kept the lock on a listing another process expired while it waited, as it waited for
   * the next one: with a match drain holding that one, three transactions waited in a circle. SKIP LOCKED waits for
   * nobody: every process runs this timer, and with a read of the first due listing and then an update by its id, all
   * of them picked the same listing, one expired it and the others waited for its commit to find it done, listing after
   * listing (issue 36: 12,405 listings past their end at a bench run's start were tried 71,225 times in 9 minutes, up to
   * 24 connections of the pools waiting on those locks while reads waited for a connection). A listing another
   * transaction holds (an edit, another process's expiry) is passed over; the timer looks again (../expiry.ts).
   */
  expireNext: `update listings set status = 'EXPIRED', updated_at = ? where id = (select id from listings where status in ('ACTIVE', 'ON_HOLD') and expires_at <= ? order by expires_at limit 1 for update skip locked)`,
})

/** Sets every ACTIVE or ON_HOLD listing past its end at `now` EXPIRED; answers how many. */
export async function expireDue(db: Db, now: number, batch = EXPIRE_BATCH): Promise<number> {
  const sql = expirySql(db.dialect)
  let changes = 0
  if (db.dialect === 'postgres') {
    // Until none is left that nobody else holds.
    for (let n = 1; n > 0; changes += n) n = (await db.run(sql.expireNext, [now, now])).changes
  } else {
    // Batch by batch, each a transaction of its own, in turns (src/platform/turns.ts).
    const turns = new Turns()
    for (;;) {
      const n = (await db.tx((tx) => tx.run(sql.expire, [now, now, batch]))).changes
      changes += n
      if (n < batch) break
      await turns.pass()
    }
  }
  return changes
}

/** The earliest end of a listing that can still expire, through listings_expiry_idx (only those rows); null: none. */
export async function nextExpiry(db: Db): Promise<number | null> {
  const row = await db.get<{ at: number | null }>(expirySql(db.dialect).next)
  return row?.at != null ? Number(row.at) : null
}
