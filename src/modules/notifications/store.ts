import type { Queryable } from '../../../db/sql'
import { PUSH_KINDS, type PushKind } from './kinds'
import type { QuietHours } from './quiet'

// The SQL of the notifications feature's tables (issue 33): push_settings (a user's kinds and quiet hours) and
// push_held (alerts waiting for the end of quiet hours).

/** A user's settings as stored; null fields: the defaults (every kind, 22:00–07:00, the installation's TZ). */
export type StoredSettings = { kindsOff: PushKind[]; quiet: QuietHours | null; timeZone: string | null; custom: boolean }

type Row = { user_id: number; kinds_off: string; quiet_from: number | null; quiet_to: number | null; time_zone: string | null }

const kindsOf = (text: string): PushKind[] => text.split(',').filter((k): k is PushKind => (PUSH_KINDS as readonly string[]).includes(k))

const settingsOf = (r: Row | undefined, fallbackQuiet: QuietHours): StoredSettings =>
  r
    ? { kindsOff: kindsOf(r.kinds_off), quiet: r.quiet_from === null || r.quiet_to === null ? null : { from: Number(r.quiet_from), to: Number(r.quiet_to) }, timeZone: r.time_zone, custom: true }
    : { kindsOff: [], quiet: fallbackQuiet, timeZone: null, custom: false }

/** The settings of these users (the defaults for those who never saved any), by user id. */
export async function settingsOfUsers(db: Queryable, userIds: readonly number[], fallbackQuiet: QuietHours): Promise<Map<number, StoredSettings>> {
  const ids = [...new Set(userIds)]
  const found = new Map<number, Row>()
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    const rows = await db.all<Row>(
      `select user_id, kinds_off, quiet_from, quiet_to, time_zone from push_settings where user_id in (${chunk.map(() => '?').join(', ')})`,
      chunk,
    )
    for (const r of rows) found.set(Number(r.user_id), r)
  }
  return new Map(ids.map((id) => [id, settingsOf(found.get(id), fallbackQuiet)]))
}

export async function saveSettings(db: Queryable, userId: number, s: { kindsOff: PushKind[]; quiet: QuietHours | null; timeZone: string }, now = Date.now()): Promise<void> {
  await db.run(
    `insert into push_settings (user_id, kinds_off, quiet_from, quiet_to, time_zone, updated_at) values (?, ?, ?, ?, ?, ?)
     on conflict (user_id) do update set kinds_off = excluded.kinds_off, quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,
       time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
    [userId, s.kindsOff.join(','), s.quiet?.from ?? null, s.quiet?.to ?? null, s.timeZone, now],
  )
}

/** Alerts kept until their users' quiet hours end: one statement per 200. */
export async function hold(db: Queryable, alerts: readonly (Held & { releaseAt: number })[], now: number): Promise<void> {
  for (let i = 0; i < alerts.length; i += 200) {
    const chunk = alerts.slice(i, i + 200)
    await db.run(
      `insert into push_held (user_id, kind, subject, release_at, created_at) values ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flatMap((a) => [a.userId, a.kind, a.subject, a.releaseAt, now]),
    )
  }
}

export type Held = { userId: number; kind: PushKind; subject: string | null }

/**
 * Takes the alerts whose quiet hours have ended off the table, inside the caller's transaction: of two processes
 * releasing at once, each row goes to one (the other's delete finds it gone).
 */
export async function takeReleased(db: Queryable, now: number, limit = 5000): Promise<Held[]> {
  const { rows } = await db.run<{ user_id: number; kind: PushKind; subject: string | null }>(
    `delete from push_held where id in (select id from push_held where release_at <= ? order by release_at limit ?) returning user_id, kind, subject`,
    [now, limit],
  )
  return rows.map((r) => ({ userId: Number(r.user_id), kind: r.kind, subject: r.subject }))
}

/** How many alerts are held for the user now (the settings screen says so). */
export async function heldCount(db: Queryable, userId: number): Promise<number> {
  return Number((await db.get<{ n: number }>('select count(*) as n from push_held where user_id = ?', [userId]))!.n)
}
