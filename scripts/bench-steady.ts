// The bench database as a running network holds it (bench:http, issue 36). The seed wrote a million listings at once
// and no server ever ran on them, so at a first start every expiry reminder and match digest of the past is due at
// once: 55,597 listings' reminders (15,004 owners) and ~20,000 users' digests on the 1M file, a few minutes of the
// primary's work arriving in the middle of the measured runs (5 and 15 minutes in, by their timers). A network that has
// been running sent each of them as it came due. So before a run, on its copy of the database: every listing now
// within its reminder notice counts as reminded, every user as digested now, and every listing past its end is EXPIRED
// (on PostgreSQL the cached cluster caught up by scripts/bench-pg.ts, the rest here: docs/decisions/068-expiry-sweep.md).
// The backlog after a long stop is another matter, tested in tests/api/background-turns.test.ts (that work runs in
// turns: src/platform/turns.ts).
import { Database } from 'bun:sqlite'
import { connectPostgres } from '../db/postgres'
import { EXPIRY_REMINDER_MS } from '../src/shared/constants'
import { EXPIRE_ALL_DUE } from './bench-pg'

const statements = (now: number) => ({
  reminders: {
    sql: `insert into listing_reminders (listing_id, expires_at, sent_at) select id, expires_at, $1 from listings
            where status in ('ACTIVE', 'ON_HOLD') and expires_at > $1 and expires_at <= $2 on conflict (listing_id) do nothing`,
    params: [now, now + EXPIRY_REMINDER_MS],
  },
  digests: {
    // `where true`: SQLite's parser needs it before an upsert's ON CONFLICT that follows a SELECT.
    sql: 'insert into match_digests (user_id, sent_at) select id, $1 from users where true on conflict (user_id) do update set sent_at = excluded.sent_at',
    params: [now],
  },
})

/** Marks what a running network would have sent by now as sent; answers how many reminders and digests. */
export async function steadyState(target: { sqlite: string } | { postgres: string }, now = Date.now()): Promise<{ reminders: number; digests: number; expired: number }> {
  const s = statements(now)
  if ('sqlite' in target) {
    const db = new Database(target.sqlite)
    try {
      db.run('PRAGMA busy_timeout = 5000')
      const run = (q: { sql: string; params: number[] }) => db.query(q.sql.replaceAll('$1', '?1').replaceAll('$2', '?2')).run(...q.params).changes
      // The listings past their end first, as on PostgreSQL: the seed gave each an end within a deal's stay of the seed's
      // day, so a copy started hours later holds thousands due (4,667 five hours after the seed), which the server's
      // sweep (256 a transaction, in turns) would expire during the first measured parts, emptying the caches they
      // touched. Through the triggers, as the sweep would.
      return db.transaction(() => ({ expired: run({ sql: EXPIRE_ALL_DUE, params: [now] }), reminders: run(s.reminders), digests: run(s.digests) }))()
    } finally {
      db.close()
    }
  }
  const sql = connectPostgres(target.postgres, { max: 1 })
  try {
    // PostgreSQL: the listings past their end since the cached cluster's catch-up (scripts/bench-pg.ts, catchUpExpiry),
    // expired as the servers' timers would have.
    const expired = (await sql.unsafe(EXPIRE_ALL_DUE, [now])).count
    const reminders = (await sql.unsafe(s.reminders.sql, s.reminders.params)).count
    const digests = (await sql.unsafe(s.digests.sql, s.digests.params)).count
    return { reminders, digests, expired }
  } finally {
    await sql.end()
  }
}
