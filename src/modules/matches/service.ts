import type { Database } from '../../../db/client'
import { statement } from '../../../db/statements'
import type { Actor } from '../../http/auth'
import { forbidden, notFound } from '../../http/errors'
import { recordAudit } from '../audit/service'
import { findMatches, sourceOf } from './find'

/**
 * At most this many new pairs are announced per write, the best first: a broad listing can match thousands in a big
 * city, and an inbox is for the ones worth a call. The rest are on the listing's Matches tab; a later edit that still
 * finds one unannounced announces it then.
 */
export const ANNOUNCE_LIMIT = 20

/**
 * Announces the pairs a listing newly makes, inside the write that made them (issue 15): for each of the best new
 * counterparts (no row for the pair yet, either way round; another owner's), an unseen inbox entry for the
 * counterpart's owner and a seen one for this listing's owner. The change feed carries the new rows to every
 * process's event streams. Returns how many pairs were announced.
 */
export function announceMatches(db: Database, listingId: number, now = Date.now()): number {
  const src = sourceOf(db, listingId)
  if (!src || src.status !== 'ACTIVE') return 0
  const known = new Set(
    statement<{ other: number }, [number]>(
      db.$client,
      'select match_id as other from listing_matches where listing_id = ?1 union select listing_id from listing_matches where match_id = ?1',
    )
      .all(listingId)
      .map((r) => r.other),
  )
  const fresh = findMatches(db, src, now)
    .filter((m) => m.owner_user_id !== src.owner_user_id && !known.has(m.id))
    .slice(0, ANNOUNCE_LIMIT)
  const insert = statement(db.$client, 'insert into listing_matches (listing_id, match_id, user_id, score, created_at, seen_at) values (?, ?, ?, ?, ?, ?)')
  for (const m of fresh) {
    insert.run(m.id, listingId, m.owner_user_id, m.score, now, null)
    insert.run(listingId, m.id, src.owner_user_id, m.score, now, now)
  }
  return fresh.length
}

type Entry = { id: number; user_id: number; listing_id: number; match_id: number; seen_at: number | null; dismissed_at: number | null }

/** The caller's own inbox entry; anyone else's is "not found", as if it did not exist. */
function ownEntry(db: Database, actor: { id: number }, id: number): Entry {
  const entry = statement<Entry, [number]>(db.$client, 'select id, user_id, listing_id, match_id, seen_at, dismissed_at from listing_matches where id = ?').get(id)
  if (!entry || entry.user_id !== actor.id) throw notFound('Match not found')
  return entry
}

export function markSeen(db: Database, actor: { id: number }, id: number, now = Date.now()): void {
  const entry = ownEntry(db, actor, id)
  if (entry.seen_at === null) statement(db.$client, 'update listing_matches set seen_at = ? where id = ?').run(now, id)
}

/** "Not interested": the pair leaves the inbox and the listing's matches for this owner, and is never announced again. */
export function dismiss(db: Database, actor: { id: number }, id: number, now = Date.now()): void {
  const entry = ownEntry(db, actor, id)
  if (entry.dismissed_at === null) statement(db.$client, 'update listing_matches set dismissed_at = ?, seen_at = coalesce(seen_at, ?) where id = ?').run(now, now, id)
}

/** A city's budget tolerance (0–30 %): a master admin for any city, a module admin for their own. */
export function setTolerance(db: Database, actor: Actor, cityId: number, percent: number): { city_id: number; match_tolerance: number } {
  const city = statement<{ id: number; name: string; match_tolerance: number }, [number]>(db.$client, 'select id, name, match_tolerance from cities where id = ?').get(cityId)
  if (!city) throw notFound('City not found')
  if (actor.access !== 'any' && actor.cityId !== cityId) throw forbidden('You can only set the tolerance of your own city')
  db.transaction((tx) => {
    statement(db.$client, 'update cities set match_tolerance = ?, updated_at = ? where id = ?').run(percent, Date.now(), cityId)
    recordAudit(tx, {
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
