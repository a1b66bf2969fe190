import type { Queryable } from '../../../db/sql'

// The only SQL of the dashboard's visits (`user_visits`, issue 31).

/**
 * Records a visit at `now` and answers its start of news: the last visit's time when that was more than `gapMs` ago
 * (a new visit), else the current visit's start, kept.
 */
export async function upsertVisit(db: Queryable, userId: number, now: number, gapMs: number): Promise<number> {
  const { rows } = await db.run<{ since_at: number | string }>(
    `insert into user_visits (user_id, last_at, since_at) values (?, ?, ?)
     on conflict (user_id) do update set
       since_at = case when user_visits.last_at <= ? then user_visits.last_at else user_visits.since_at end,
       last_at = excluded.last_at
     returning since_at`,
    [userId, now, now, now - gapMs],
  )
  return Number(rows[0]!.since_at)
}

/** The current (or last) visit's start of news; null before the first one. */
export async function visitStart(db: Queryable, userId: number): Promise<number | null> {
  const row = await db.get<{ since_at: number | string }>('select since_at from user_visits where user_id = ?', [userId])
  return row ? Number(row.since_at) : null
}
