import { idsIn, indexedBy } from '../../../db/dialect'
import type { Dialect, Queryable } from '../../../db/sql'
import { joinCity, placeJoins } from '../geography/store'
import { joinListing, listingsFrom, lockListingsForShare } from '../listings/store'
import { joinUser } from '../users/store'
import { notShownTo } from '../listings/store/where'
import { fitSql, pairMatchesSql, type MatchSide } from './rules'

// The only SQL of matching (issue 31): the inbox entries (`listing_matches`), the announcement queue (`match_queue`),
// the digests' claims (`match_digests`), and the reads of listings matching composes from the listings', geography's
// and users' fragments. The two backends differ here only: how entries are inserted and the queue is taken (see
// ./service.ts for why), how numbered parameters are typed, and which index SQLite is told to use.

// ---- the listings matched ---------------------------------------------------------------------------------

/** A listing about to be matched: its own fields, its city's tolerance and its country (for the currency). */
export type Source = MatchSide & {
  city_id: number
  sale_or_rent: 'SALE' | 'RENT'
  property_key: string
  status: string
  owner_user_id: number
  tolerance: number
  country: string | null
}

const SIDE = 'l.id, l.post_type, l.budget, l.size, l.location, l.locality, l.created_at, l.owner_user_id'
const PLACE = { city: 'c', state: 's', country: 'co' }

/** Listings as matching reads them, with their city's tolerance and country, in one query; missing ids left out. */
export async function sourcesOf(db: Queryable, ids: number[]): Promise<Source[]> {
  if (ids.length === 0) return []
  const listed = idsIn(db.dialect, 'l.id', ids)
  return db.all<Source>(
    `select ${SIDE}, l.city_id, l.sale_or_rent, l.property_key, l.status, c.match_tolerance as tolerance, co.name as country
     from ${listingsFrom(db.dialect, 'l')} ${placeJoins('l.city_id', PLACE)}
     where ${listed.sql}`,
    listed.params,
  )
}

// Numbered parameters: the source's budget and size appear more than once in the rule.
// PostgreSQL cannot tell a parameter's type from `? is null`: there they are cast (SQLite's text stays as it was).
const SOURCE = { sqlite: { budget: '?6', size: '?7', tolerance: '?8' }, postgres: { budget: '?6::float8', size: '?7::float8', tolerance: '?8::int' } }
const OTHER = { budget: 'l.budget', size: 'l.size' }
const candidatesWhere = (dialect: Dialect, sourceIs: 'REQ' | 'AVL') => {
  const src = SOURCE[dialect]
  return `from ${listingsFrom(dialect, 'l', 'listings_match_idx')}
   where l.city_id = ?1 and l.sale_or_rent = ?2 and l.post_type = ?3 and l.property_key = ?4 and l.status = 'ACTIVE' and l.id <> ?5
     and ${sourceIs === 'REQ' ? fitSql(src, OTHER, src.tolerance) : fitSql(OTHER, src, src.tolerance)}`
}
const sourceParams = (src: Source) =>
  [src.city_id, src.sale_or_rent, src.post_type === 'REQ' ? 'AVL' : 'REQ', src.property_key, src.id, src.budget, src.size, src.tolerance] as const

/**
 * The listings that match the source now: one range of `listings_match_idx` (city, deal, the other post type, property
 * key, ACTIVE), the budget and size rules checked on its entries.
 */
export const candidatesOf = (db: Queryable, src: Source) =>
  db.all<MatchSide & { owner_user_id: number }>(`select ${SIDE} ${candidatesWhere(db.dialect, src.post_type)}`, sourceParams(src))

/**
 * How many listings match the source for this viewer (the pairs they dismissed left out, and those not shown to them:
 * issue 35), on the index alone.
 */
export async function countCandidates(db: Queryable, src: Source, viewerId: number): Promise<number> {
  const sql = `select count(*) as n ${candidatesWhere(db.dialect, src.post_type)}
    and l.id not in (select match_id from listing_matches where listing_id = ?5 and user_id = ?9 and dismissed_at is not null)
    and l.id not in (${notShownTo('?9')})`
  return (await db.get<{ n: number }>(sql, [...sourceParams(src), viewerId]))!.n
}

// ---- inbox entries -----------------------------------------------------------------------------------------

/** The listings paired with this one already, either way round. */
export const pairedWith = async (db: Queryable, listingId: number): Promise<Set<number>> =>
  new Set(
    (await db.all<{ other: number }>('select match_id as other from listing_matches where listing_id = ?1 union select listing_id from listing_matches where match_id = ?1', [listingId])).map(
      (r) => r.other,
    ),
  )

/** The listings a viewer dismissed from their inbox as matches of this one. */
export const dismissedMatches = async (db: Queryable, listingId: number, userId: number): Promise<Set<number>> =>
  new Set(
    (await db.all<{ other: number }>('select match_id as other from listing_matches where listing_id = ? and user_id = ? and dismissed_at is not null', [listingId, userId])).map(
      (r) => r.other,
    ),
  )

/** An inbox entry just inserted. */
export type InsertedEntry = { id: number; user_id: number; listing_id: number; match_id: number }
const RETURNING = 'returning id, user_id, listing_id, match_id'

/**
 * Inserts inbox entries ([other, listing, owner of other, score, created_at] each); answers those inserted. SQLite: one
 * statement for all of them (at most ANNOUNCE_LIMIT rows, so at most that many texts of it are ever compiled).
 * PostgreSQL: only the pairs that still hold, see insertHolding.
 */
export async function insertEntries(db: Queryable, rows: number[][]): Promise<InsertedEntry[]> {
  if (db.dialect === 'postgres') return insertHolding(db, rows)
  const { rows: inserted } = await db.run<InsertedEntry>(
    `insert into listing_matches (listing_id, match_id, user_id, score, created_at) values ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')} ${RETURNING}`,
    rows.flat(),
  )
  return inserted
}

/**
 * PostgreSQL: the entries (counterpart, listing, user, score, created_at) inserted as under SQLite's single writer,
 * though other writers' transactions commit all along:
 * - both listings of every pair are first locked for share until this transaction ends: an edit, expiry or deletion of
 *   one in flight is waited for, and one that comes later waits for this transaction;
 * - a counterpart queued by now was written since the drain took the queue (or while this waited for its lock): its
 *   own turn, in the next drain, announces the pair to the owner who was there first, so it is left out here
 *   (without this, about 1 pair in 700 went to the wrong owner in tests/ops/shared-queues.test.ts; bench:http
 *   --postgres found 1 in 40 when drains first ran on PostgreSQL);
 * - a pair with an entry already, either way round, is left out: the drain read its pairs before it took its lock
 *   (drainAfterReading in ./service.ts), and another drain may have announced one since;
 * - only the pairs that still hold are inserted, judged in that statement on what is committed by then.
 * So an entry is created live exactly when its pair holds, every later change of its listings re-judges it (their
 * triggers then see it), and no entry names a listing deleted meanwhile (its reference would fail the insert). The
 * locks and the insert go out together: one round trip.
 */
async function insertHolding(db: Queryable, rows: number[][]): Promise<InsertedEntry[]> {
  const locked = lockListingsForShare(db, [...new Set(rows.flatMap(([other, listing]) => [other!, listing!]))])
  const inserting = db.run<InsertedEntry>(
    `insert into listing_matches (listing_id, match_id, user_id, score, created_at)
     select v.listing_id, v.match_id, v.user_id, v.score, v.created_at
     from (values ${rows.map(() => '(?::bigint, ?::bigint, ?::bigint, ?::int, ?::bigint)').join(', ')}) as v (listing_id, match_id, user_id, score, created_at)
       ${joinListing('a', 'v.listing_id')} ${joinListing('b', 'v.match_id')} ${joinCity('a.city_id', 'c')}
     where ${pairMatchesSql('a', 'b', 'c')}
       and not exists (select 1 from match_queue q where q.listing_id = v.listing_id)
       and not exists (select 1 from listing_matches m where (m.listing_id = v.listing_id and m.match_id = v.match_id) or (m.listing_id = v.match_id and m.match_id = v.listing_id))
     ${RETURNING}`,
    rows.flat(),
  )
  inserting.catch(() => {})
  await locked
  return (await inserting).rows
}

export type Entry = { id: number; user_id: number; listing_id: number; match_id: number; seen_at: number | null; dismissed_at: number | null }

export const entryById = (db: Queryable, id: number) =>
  db.get<Entry>('select id, user_id, listing_id, match_id, seen_at, dismissed_at from listing_matches where id = ?', [id])

export async function setEntrySeen(db: Queryable, id: number, now: number): Promise<void> {
  await db.run('update listing_matches set seen_at = ? where id = ?', [now, id])
}

export async function setEntryDismissed(db: Queryable, id: number, now: number): Promise<void> {
  await db.run('update listing_matches set dismissed_at = ?, seen_at = coalesce(seen_at, ?) where id = ?', [now, now, id])
}

/** An entry back in the inbox: unseen again when its dismissal is what marked it seen (both set at the same moment). */
export async function setEntryUndismissed(db: Queryable, id: number): Promise<void> {
  await db.run('update listing_matches set seen_at = case when seen_at = dismissed_at then null else seen_at end, dismissed_at = null where id = ?', [id])
}

/** How many inbox entries there are (a seed announces only into an empty inbox). */
export const entryCount = async (db: Queryable): Promise<number> => (await db.get<{ n: number }>('select count(*) as n from listing_matches'))!.n

export type EntryRow = { id: number; listing_id: number; match_id: number; created_at: number; seen_at: number | null }

// An entry shows while its pair holds: `live`, kept by triggers whenever either listing or the city's tolerance changes;
// and while its counterpart is shown to the user (issue 35: one made ONLY_ME or given to a circle since it was announced).
const SHOWN = `from listing_matches m where m.user_id = ?1 and m.live = true and m.dismissed_at is null and m.match_id not in (${notShownTo('?1')})`

/** Unseen entries of a user's inbox that still hold (a range of one index). */
export const unseenEntries = async (db: Queryable, userId: number): Promise<number> =>
  (await db.get<{ n: number }>(`select count(*) as n ${SHOWN} and m.seen_at is null`, [userId]))!.n

/** The entries of a user's inbox that still hold, newest first. */
export const shownEntries = (db: Queryable, userId: number) =>
  db.all<EntryRow>(`select m.id, m.listing_id, m.match_id, m.created_at, m.seen_at ${SHOWN} order by m.id desc`, [userId])

// ---- the announcement queue ----------------------------------------------------------------------------------

/** Queues a listing's announcement; a later write of a listing still queued moves it to its new place in the order of writes. */
export async function queueListing(db: Queryable, listingId: number, now: number): Promise<void> {
  await db.run('insert into match_queue (listing_id, queued_at) values (?, ?) on conflict (listing_id) do update set queued_at = excluded.queued_at', [listingId, now])
}

/** Whether anything is queued. */
export const anyQueued = async (db: Queryable): Promise<boolean> => !!(await db.get<{ n: number }>('select exists (select 1 from match_queue) as n'))!.n

/** A queued listing: its id, when its write was sent, and (PostgreSQL) the version of its queue row as read. */
export type Queued = { id: number; at: number; version?: string }

/** SQLite: takes every queued listing off the queue, in a drain's transaction (its one writer at a time). */
export async function takeQueued(tx: Queryable): Promise<Queued[]> {
  return (await tx.run<Queued>('delete from match_queue returning listing_id as id, queued_at as at')).rows
}

/**
 * PostgreSQL: the queue as it is now, taking nothing (a drain's reads before its transaction). A row's version is its
 * `xmin`, the transaction that last wrote it: every write of a listing queued gives it a new one, even a write in the
 * same millisecond as the one before (its queue time would then be the same).
 */
export const readQueue = (db: Queryable) => db.all<Queued>('select listing_id as id, queued_at as at, xmin::text as version from match_queue')

/**
 * PostgreSQL: in a drain's transaction, under its advisory lock (waited for), the queue rows read before it that are
 * still as they were read (the same version) taken off the queue (their ids answered); one written again since stays,
 * with its new time, for the next drain; one another drain took is gone. The queued listings and `counterparts` are
 * locked for share before their rows leave the queue: a write of one of them in flight is waited for, and one that
 * comes later waits until the announcements are committed (insertHolding says why). In that order, because a write
 * locks its listing and then queues it: were the queue rows taken first, such a write would wait for this transaction
 * while this transaction waited for its listing. The three statements go out together: one round trip, besides the
 * wait for the lock.
 */
export async function takeQueuedAsRead(tx: Queryable, queued: readonly Queued[], counterparts: readonly number[]): Promise<number[]> {
  const held = tx.get(`select pg_advisory_xact_lock(${DRAIN_LOCK}) as held`)
  const locked = lockListingsForShare(tx, [...new Set([...queued.map((q) => q.id), ...counterparts])])
  const taking = tx.run<{ id: number }>(
    `delete from match_queue q using (values ${queued.map(() => '(?::bigint, ?::text)').join(', ')}) as v (id, version)
     where q.listing_id = v.id and q.xmin::text = v.version returning q.listing_id as id`,
    queued.flatMap((q) => [q.id, q.version ?? '']),
  )
  for (const p of [held, locked, taking]) p.catch(() => {})
  await held
  await locked
  return (await taking).rows.map((r) => Number(r.id))
}

/** PostgreSQL: the advisory lock a drain holds for its transaction, two 32-bit keys ("Mtch", 1). */
const DRAIN_LOCK = `${0x4d746368}, 1`

// ---- the digest ----------------------------------------------------------------------------------------------

const PENDING = 'm.seen_at is null and m.dismissed_at is null and m.mailed_at is null'

/** Users with entries not yet seen, dismissed or mailed that hold, and no digest sent after `since`. */
export const digestUsers = (db: Queryable, since: number) =>
  db.all<{ user_id: number }>(
    `select distinct m.user_id from listing_matches m ${indexedBy(db.dialect, 'listing_matches_digest_idx')}
     where ${PENDING} and m.live = true
       and not exists (select 1 from match_digests d where d.user_id = m.user_id and d.sent_at > ?)`,
    [since],
  )

/** Whether a user was sent a digest after `since`. */
export const digestSentAfter = async (db: Queryable, userId: number, since: number): Promise<boolean> =>
  !!(await db.get('select 1 from match_digests where user_id = ? and sent_at > ?', [userId, since]))

/**
 * A user's entries not yet seen, dismissed or mailed that hold, whose counterparts are still shown to them (issue 35: a
 * listing made ONLY_ME, or given to a circle, since it was announced).
 */
export const pendingEntries = (db: Queryable, userId: number) =>
  db.all<{ id: number; listing_id: number; match_id: number }>(
    `select m.id, m.listing_id, m.match_id from listing_matches m where m.user_id = ?1 and ${PENDING} and m.live = true and m.match_id not in (${notShownTo('?1')})`,
    [userId],
  )

/**
 * The claim of a user's digest: their row in match_digests moved to now, only when their last digest is older than the
 * window. Of two senders at once exactly one gets the row back (true): on PostgreSQL the second waits for the first's
 * transaction and then finds its row too new (a check read first and written later, as this was, let both mail: issue
 * 29); SQLite writes one transaction at a time.
 */
export const claimDigest = async (db: Queryable, userId: number, now: number, since: number): Promise<boolean> =>
  (
    await db.run(
      `insert into match_digests (user_id, sent_at) values (?, ?)
  on conflict (user_id) do update set sent_at = excluded.sent_at where match_digests.sent_at <= ?
  returning user_id`,
      [userId, now, since],
    )
  ).rows.length > 0

export async function markMailed(db: Queryable, entryId: number, now: number): Promise<void> {
  await db.run('update listing_matches set mailed_at = ? where id = ?', [now, entryId])
}

/** A listing as a digest shows it: its side of the match, entry ID, type, owner's name, city's tolerance and country. */
export type DigestSide = MatchSide & { entry_id: string; property_type: string; owner_name: string; tolerance: number; country: string | null }

export async function digestSides(db: Queryable, ids: number[]): Promise<Map<number, DigestSide>> {
  const listed = idsIn(db.dialect, 'l.id', ids)
  return new Map(
    (
      await db.all<DigestSide>(
        `select l.id, l.post_type, l.budget, l.size, l.location, l.locality, l.created_at, l.entry_id, l.property_type, u.full_name as owner_name,
         c.match_tolerance as tolerance, co.name as country
       from ${listingsFrom(db.dialect, 'l')} ${joinUser('l.owner_user_id', 'u')} ${placeJoins('l.city_id', PLACE)}
       where ${listed.sql}`,
        listed.params,
      )
    ).map((r) => [r.id, r]),
  )
}
