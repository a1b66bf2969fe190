import { isConflict } from '../../../db/dialect'
import type { Db, Queryable } from '../../../db/sql'
import type { Actor } from '../../platform/http/auth'
import { scopeOf } from '../../platform/policy/scope'
import { forbidden, notFound } from '../../platform/http/errors'
import { recordAudit } from '../audit/service'
import { findMatches, sourceOf } from './find'

/**
 * At most this many new pairs are announced per write, the best first: a broad listing can match thousands in a big
 * city, and an inbox is for the ones worth a call. The rest are on the listing's Matches tab; a later edit that still
 * finds one unannounced announces it then.
 */
export const ANNOUNCE_LIMIT = 20

/**
 * Announces the pairs a listing newly makes (issue 15), right after the write that made them: for each of the best new
 * counterparts (no entry for the pair yet, either way round; another owner's), an unseen inbox entry for the
 * counterpart's owner. The author sees their listing's matches on its Matches tab. One statement inserts them all; the
 * change feed carries them to every process's event streams. Returns how many pairs were announced.
 */
export async function announceMatches(db: Queryable, listingId: number, now = Date.now(), later: ReadonlySet<number> = new Set()): Promise<number> {
  const src = await sourceOf(db, listingId)
  if (!src || src.status !== 'ACTIVE') return 0
  const known = new Set(
    (await db.all<{ other: number }>('select match_id as other from listing_matches where listing_id = ?1 union select listing_id from listing_matches where match_id = ?1', [listingId])).map(
      (r) => r.other,
    ),
  )
  const fresh = (await findMatches(db, src, now))
    .filter((m) => m.owner_user_id !== src.owner_user_id && !known.has(m.id) && !later.has(m.id))
    .slice(0, ANNOUNCE_LIMIT)
  if (fresh.length === 0) return 0
  // One statement for all of them (at most ANNOUNCE_LIMIT rows, so at most that many texts of it are ever compiled).
  await db.run(
    `insert into listing_matches (listing_id, match_id, user_id, score, created_at) values ${fresh.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    fresh.flatMap((m) => [m.id, listingId, m.owner_user_id, m.score, now]),
  )
  return fresh.length
}

/** Inside a listing's write: its matches are to be announced (once, whatever the edits before that happens). */
export async function queueAnnouncement(db: Queryable, listingId: number, now = Date.now()): Promise<void> {
  // A later write of a listing still queued moves it to its new place in the order of writes.
  await db.run('insert into match_queue (listing_id, queued_at) values (?, ?) on conflict (listing_id) do update set queued_at = excluded.queued_at', [listingId, now])
}

/**
 * Announces for every queued listing, in one write transaction that also takes them off the queue (two processes
 * draining at once each announce a listing at most once: the second finds it gone). Cheap when the queue is empty.
 *
 * The transaction sees the database as of its first statement, as SQLite's one writer at a time does: on PostgreSQL
 * a listing written meanwhile would otherwise be among the matches of a listing queued before it, and the pair
 * announced to the wrong owner (found by bench:http --postgres: 1 in 40). A drain that conflicts with another
 * (both took the same queue rows, or announced the same pair) runs again, from the queue as the other left it.
 */
export async function drainAnnouncements(db: Db, now = Date.now()): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    if (!(await db.get<{ n: number }>('select exists (select 1 from match_queue) as n'))!.n) return 0
    try {
      return await db.tx((tx) => announceQueued(tx, now), { consistent: true })
    } catch (e) {
      if (!isConflict(e) || attempt >= MAX_DRAIN_ATTEMPTS) throw e
    }
  }
}

const MAX_DRAIN_ATTEMPTS = 5

async function announceQueued(tx: Queryable, now: number): Promise<number> {
  // In the order of the writes; a listing written after another is left out of the earlier one's announcement
  // (it did not exist yet, or not so, at that write): its own turn announces the pair to the earlier one's owner.
  const queued = (await tx.run<{ id: number; at: number }>('delete from match_queue returning listing_id as id, queued_at as at')).rows.sort(
    (a, b) => a.at - b.at || a.id - b.id,
  )
  const later = new Set(queued.map((q) => q.id))
  let announced = 0
  for (const q of queued) {
    later.delete(q.id)
    announced += await announceMatches(tx, q.id, now, later)
  }
  return announced
}

/**
 * Drains the queue right after the request that filled it has been answered (a timer runs after the response is
 * written), and every `sweepMs` for what a stopped process left (the primary only).
 */
export class Announcer {
  private scheduled = false
  private sweeper: ReturnType<typeof setInterval> | null = null

  constructor(private readonly db: Db) {}

  /** After a write that queued: announce as soon as this request is answered. */
  soon(): void {
    if (this.scheduled) return
    this.scheduled = true
    setTimeout(() => {
      this.scheduled = false
      this.drain()
    }, 0)
  }

  sweep(sweepMs: number): void {
    this.sweeper ??= setInterval(() => this.drain(), sweepMs)
    this.sweeper.unref?.()
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = null
  }

  private drain() {
    drainAnnouncements(this.db).catch((e) => {
      // Left queued: the next write or sweep tries again.
      console.error(`announcing matches: ${(e as Error).message}`)
    })
  }
}

type Entry = { id: number; user_id: number; listing_id: number; match_id: number; seen_at: number | null; dismissed_at: number | null }

/** The caller's own inbox entry; anyone else's is "not found", as if it did not exist. */
async function ownEntry(db: Queryable, actor: { id: number }, id: number): Promise<Entry> {
  const entry = await db.get<Entry>('select id, user_id, listing_id, match_id, seen_at, dismissed_at from listing_matches where id = ?', [id])
  if (!entry || entry.user_id !== actor.id) throw notFound('Match not found')
  return entry
}

export async function markSeen(db: Queryable, actor: { id: number }, id: number, now = Date.now()): Promise<void> {
  const entry = await ownEntry(db, actor, id)
  if (entry.seen_at === null) await db.run('update listing_matches set seen_at = ? where id = ?', [now, id])
}

/** "Not interested": the pair leaves the inbox and the listing's matches for this owner, and is never announced again. */
export async function dismiss(db: Queryable, actor: { id: number }, id: number, now = Date.now()): Promise<void> {
  const entry = await ownEntry(db, actor, id)
  if (entry.dismissed_at === null) await db.run('update listing_matches set dismissed_at = ?, seen_at = coalesce(seen_at, ?) where id = ?', [now, now, id])
}

/** A city's budget tolerance (0–30 %): a master admin for any city, a module admin for their own. */
export async function setTolerance(db: Queryable, actor: Actor, cityId: number, percent: number): Promise<{ city_id: number; match_tolerance: number }> {
  const city = await db.get<{ id: number; name: string; match_tolerance: number }>('select id, name, match_tolerance from cities where id = ?', [cityId])
  if (!city) throw notFound('City not found')
  const scope = scopeOf(actor, 'matching', 'manage')
  if (scope.kind !== 'all' && !(scope.kind === 'city' && scope.cityId === cityId)) throw forbidden('You can only set the tolerance of your own city')
  await db.tx(async (tx) => {
    await tx.run('update cities set match_tolerance = ?, updated_at = ? where id = ?', [percent, Date.now(), cityId])
    await recordAudit(tx, {
      actor: { id: actor.id, fullName: actor.fullName },
      action: 'city.match_tolerance',
      entityType: 'city',
      entityId: cityId,
      cityId,
      before: { match_tolerance: city.match_tolerance },
      after: { match_tolerance: percent },
    })
  })
  return { city_id: cityId, match_tolerance: percent }
}
