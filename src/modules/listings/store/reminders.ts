import { indexedBy } from '../../../../db/dialect'
import type { Dialect, Queryable } from '../../../../db/sql'
import { EXPIRING_STATUSES } from '../../../shared/constants'
import { joinCity } from '../../geography/store'
import { isReachable, joinUser } from '../../users/store'

// The expiry reminders' SQL (../reminders.ts sends them): the listings due a reminder and their owners, and the
// claims in listing_reminders.

/** Listings that can still expire (the same terms as listings_expiry_idx's, so the index serves the range). */
const EXPIRING = `l.status in (${EXPIRING_STATUSES.map((s) => `'${s}'`).join(', ')})`
/** Ending within the notice and not yet reminded of this end (a renewal's new end is reminded again). */
const DUE = `${EXPIRING} and l.expires_at > ? and l.expires_at <= ?
  and not exists (select 1 from listing_reminders r where r.listing_id = l.id and r.expires_at = l.expires_at)`

/**
 * Owners with listings due a reminder: a range of listings_expiry_idx, named on SQLite, whose planner would otherwise
 * walk every ACTIVE listing through the status index (as ./expiry.ts says).
 */
export const dueOwnersSql = (dialect: Dialect) =>
  `select distinct l.owner_user_id as user_id from listings l ${indexedBy(dialect, 'listings_expiry_idx')} ${joinUser('l.owner_user_id', 'u', isReachable('u'))} where ${DUE}`

/**
 * The claim: a listing's row names the end it was reminded of. Taken only when there is none or it names another end;
 * on conflict the row is locked (PostgreSQL) or the writer is one (SQLite), so of two senders exactly one gets it back.
 */
const CLAIM = `insert into listing_reminders (listing_id, expires_at, sent_at) values (?, ?, ?)
  on conflict (listing_id) do update set expires_at = excluded.expires_at, sent_at = excluded.sent_at
  where listing_reminders.expires_at <> excluded.expires_at
  returning listing_id`

/** Owners who can read our mail with listings ending in (from, to] not yet reminded of that end. */
export const dueOwners = (db: Queryable, from: number, to: number) => db.all<{ user_id: number }>(dueOwnersSql(db.dialect), [from, to])

/** An owner's listings ending in (from, to] not yet reminded of that end, soonest first, with their city's name. */
export const dueListingsOf = (db: Queryable, userId: number, from: number, to: number) =>
  db.all<{ id: number; entry_id: string; property_type: string; expires_at: number; city: string }>(
    `select l.id, l.entry_id, l.property_type, l.expires_at, c.name as city from listings l ${joinCity('l.city_id', 'c')}
     where l.owner_user_id = ? and ${DUE} order by l.expires_at, l.id`,
    [userId, from, to],
  )

/** Claims the reminder of a listing's end; false when another sender reminded of this end meanwhile. */
export const claimReminder = async (tx: Queryable, listingId: number, expiresAt: number, now: number): Promise<boolean> =>
  (await tx.run(CLAIM, [listingId, expiresAt, now])).rows.length > 0

/** An owner's ACTIVE or ON_HOLD listings ending in (from, to], soonest first. */
export const endingWithin = (db: Queryable, userId: number, from: number, to: number) =>
  db.all<{ id: number; entry_id: string; expires_at: number }>(
    `select l.id, l.entry_id, l.expires_at from listings l where l.owner_user_id = ? and ${EXPIRING} and l.expires_at > ? and l.expires_at <= ?
     order by l.expires_at, l.id`,
    [userId, from, to],
  )
