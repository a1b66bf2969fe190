import { idsIn, indexedBy } from '../../../db/dialect'
import { StaleWrite } from '../../../db/faults'
import type { Clause, Dialect, Param, Queryable } from '../../../db/sql'
import type { ListingStatus } from '../../shared/constants'

/** A listing's stored fields as the audit trail has always kept them (camelCase, the order of the schema). */
export type Row = {
  id: number
  entryId: string
  postType: 'REQ' | 'AVL'
  saleOrRent: 'SALE' | 'RENT'
  propertyType: string
  contactValue: string
  contactName: string
  budget: number | null
  size: number | null
  location: string | null
  locality: string | null
  reference: string | null
  typeDetails: string | null
  details: string | null
  comments: string | null
  googleLocationUrl: string | null
  status: ListingStatus
  date: string
  ownerUserId: number
  cityId: number
  expiresAt: number | null
  /** Moderation (issue 29, ./moderation.ts): the admin who suspended it, why and when, and the owner's review request. */
  suspendedBy: number | null
  suspensionReason: string | null
  suspendedAt: number | null
  reviewRequestedAt: number | null
  reviewNote: string | null
  /** Issue 35: who may see it (NETWORK, CIRCLE of `circleId`, ONLY_ME). Its private fields are not here: ./store/private.ts. */
  visibility: Visibility
  circleId: number | null
  /** When three brokers' reports took it off the network (./reports.ts); null otherwise. */
  reportedOffAt: number | null
  /** Issue 34: whether other brokers may make public links of it, naming its owner or not (share-links/). */
  onwardSharing: OnwardSharing
}

export type OnwardSharing = 'OFF' | 'NAMED' | 'ANONYMOUS'

export type Visibility = 'NETWORK' | 'CIRCLE' | 'ONLY_ME'

/** The columns of `Row`, for `select` and `returning`. */
export const ROW = `listings.id, entry_id as "entryId", post_type as "postType", sale_or_rent as "saleOrRent", property_type as "propertyType",
  contact_value as "contactValue", contact_name as "contactName", budget, size, location, locality, reference,
  type_details as "typeDetails", details, comments, google_location_url as "googleLocationUrl", status, date,
  owner_user_id as "ownerUserId", city_id as "cityId", expires_at as "expiresAt", suspended_by as "suspendedBy",
  suspension_reason as "suspensionReason", suspended_at as "suspendedAt", review_requested_at as "reviewRequestedAt", review_note as "reviewNote",
  visibility, circle_id as "circleId", reported_off_at as "reportedOffAt", onward_sharing as "onwardSharing"`

/** A listing's stored fields, whoever asks (a signed renew link is its own authority); null when it is gone. */
export const listingRow = async (db: Queryable, id: number): Promise<Row | null> => (await db.get<Row>(`select ${ROW} from listings where id = ?`, [id])) ?? null

/** The ids of the newest `count` ACTIVE listings, oldest first (the seeds announce their matches as if just posted). */
export const newestActiveIds = async (db: Queryable, count: number): Promise<number[]> =>
  (await db.all<{ id: number }>("select id from (select id from listings where status = 'ACTIVE' order by id desc limit ?) newest order by id", [count])).map((r) => r.id)

/**
 * The id a new listing gets, taken inside its write's transaction before the row is inserted: the readable entry ID is
 * made of it (`REQ-MUM-000123`), so the row goes in whole, one insert and one change-feed row (issue 31; it used to be
 * inserted with a placeholder and updated). The same id the database would have picked: on PostgreSQL the identity's
 * next value; on SQLite (AUTOINCREMENT) one past both the largest id ever handed out and the largest there is, which
 * no other writer can take meanwhile (the transaction holds the write lock from its start, db/sqlite.ts).
 */
export async function nextListingId(tx: Queryable): Promise<number> {
  const sql =
    tx.dialect === 'postgres'
      ? "select nextval(pg_get_serial_sequence('listings', 'id')) as id"
      : "select max(coalesce((select seq from sqlite_sequence where name = 'listings'), 0), coalesce((select max(id) from listings), 0)) + 1 as id"
  return Number((await tx.get<{ id: number | string }>(sql))!.id)
}

/**
 * On PostgreSQL a new listing's id taken before its write's transaction, with the write's other reads (issue 36: one
 * round trip fewer inside it): a sequence's value is the same taken in a transaction or outside, and never given back
 * either way (a refused or failed write leaves a gap, as a rolled-back one always did). SQLite's is taken inside
 * (`nextListingId` under the write lock): null.
 */
export const listingIdAhead = (db: Queryable): Promise<number | null> => (db.dialect === 'postgres' ? nextListingId(db) : Promise.resolve(null))

/** A listing's cover as cards and rows show it: the stored name of its first photo's thumbnail, and its size. */
export type Cover = { name: string; width: number; height: number }

/**
 * Keeps the listing's cover in its row (issue 34): the photos feature calls it, in the transaction that changes the
 * first photo, so every card, row and cached page reads it without a look at the photos. The update leaves a
 * change-feed row like any other, which is what tells the caches.
 */
export async function setCover(tx: Queryable, listingId: number, cover: Cover | null): Promise<void> {
  await tx.run('update listings set cover_photo = ?, cover_width = ?, cover_height = ? where id = ?', [cover?.name ?? null, cover?.width ?? null, cover?.height ?? null, listingId])
}

// ---- what other features read of listings (issue 31: the only SQL of `listings` is in this store) ----------------

/** `listings` for a FROM, under an alias, read through a named index on SQLite (PostgreSQL's planner picks its own). */
export const listingsFrom = (dialect: Dialect, alias = 'listings', index?: string) =>
  `listings${alias === 'listings' ? '' : ` ${alias}`}${index ? ` ${indexedBy(dialect, index)}` : ''}`

/** Joins a listing by an id column, under an alias: `join listings a on a.id = v.listing_id`. */
export const joinListing = (alias: string, listingId: string) => `join listings ${alias} on ${alias}.id = ${listingId}`

/** Locks these listings for share until the transaction ends (PostgreSQL: a write of one of them waits, or is waited for). */
export async function lockListingsForShare(tx: Queryable, ids: number[]): Promise<void> {
  const listed = idsIn(tx.dialect, 'id', ids)
  await tx.all(`select id from listings where ${listed.sql} order by id for share`, listed.params)
}

/** The entry IDs of the listings that still exist, by id (the audit trail's names). */
export const entryIdsOf = (db: Queryable, ids: number[]) =>
  db.all<{ id: number; name: string }>(`select id, entry_id as name from listings where id in (${ids.map(() => '?').join(', ')})`, ids)

/** How many listings there are, of every status. */
export const listingTotal = async (db: Queryable): Promise<number> => Number((await db.get<{ n: number }>('select count(*) as n from listings'))!.n)

/** How many listings a city has (a city in use cannot be deleted). */
export const listingsInCity = async (db: Queryable, cityId: number): Promise<number> =>
  Number((await db.get<{ n: number }>('select count(*) as n from listings where city_id = ?', [cityId]))!.n)

/** A listing's entry ID if the clause lets it through (a saved search's alert, confirmed by the list's own SQL). */
export const entryIdWhere = async (db: Queryable, where: Clause): Promise<string | null> =>
  (await db.get<{ entry_id: string }>(`select listings.entry_id from listings where ${where.sql}`, where.params))?.entry_id ?? null

/** The ids the clause lets through, newest news first (a listing's hot time, else its creation), up to `limit`. */
export const newestNewsIds = async (db: Queryable, where: Clause, limit: number): Promise<number[]> =>
  (await db.all<{ id: number }>(`select listings.id as id from listings where ${where.sql} order by coalesce(listings.hot_at, listings.created_at) desc limit ?`, [...where.params, limit])).map(
    (r) => r.id,
  )

/** How many listings of an owner the clause lets through, counted through the owner's index. */
export const countOwnWhere = async (db: Queryable, where: Clause): Promise<number> =>
  Number((await db.get<{ n: number | string }>(`select count(*) as n from listings ${indexedBy(db.dialect, 'listings_owner_id_idx')} where ${where.sql}`, where.params))!.n)

/**
 * The localities a city's listings were posted with (ACTIVE ones only when `activeOnly`), each spelling and zone with
 * its count, most used first up to `limit`: through listings_match_idx (city first, locality and location inside it),
 * the rows themselves are not read.
 */
export const localityCounts = (db: Queryable, cityId: number, opts: { activeOnly?: boolean; limit?: number }) =>
  db.all<{ locality: string; location: string | null; n: number }>(
    opts.activeOnly
      ? `select locality, location, count(*) as n from listings where city_id = ? and status = 'ACTIVE' and locality is not null and locality <> ''
     group by locality, location`
      : `select locality, location, count(*) as n from listings where city_id = ? and locality is not null and locality <> ''
     group by locality, location order by n desc limit ${opts.limit}`,
    [cityId],
  )

// ---- a listing's writes (./service.ts decides them; ./after-write.ts follows them) ---------------------------------

/** `ROW`'s columns, each with the name `Row` gives it. */
const ROW_NAMES: [column: string, key: string][] = ROW.split(',').map((part) => {
  const m = /^(?:listings\.)?(\w+)(?: as "(\w+)")?$/.exec(part.trim())
  if (!m) throw new Error(`ROW: cannot read the column "${part.trim()}"`)
  return [m[1]!, m[2] ?? m[1]!]
})

/** The columns of `Row` a new listing takes from the table's defaults when its insert leaves them out (the rest: none). */
const INSERT_DEFAULTS: Record<string, Param> = { status: 'ACTIVE', visibility: 'NETWORK', onward_sharing: 'OFF' }

/**
 * The row `insertListing(tx, fields)` answers, known before the database does (issue 36): every column of `Row` is one
 * of the fields or a default, so a post's audit row can go out with its insert rather than after its answer. The post
 * compares it with the answer (and tests/api/listing-writes.test.ts checks it against the database's on both backends).
 */
export function insertedRow(fields: Record<string, Param>): Row {
  return Object.fromEntries(ROW_NAMES.map(([column, key]) => [key, fields[column] !== undefined ? fields[column] : (INSERT_DEFAULTS[column] ?? null)])) as Row
}

/** Inserts a listing whole (its id taken first, `nextListingId`) and answers its row. */
export async function insertListing(tx: Queryable, fields: Record<string, Param>): Promise<Row> {
  const columns = Object.keys(fields)
  const { rows } = await tx.run<Row>(`insert into listings (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) returning ${ROW}`, Object.values(fields))
  return rows[0]!
}

/** A listing's row if the clause (its id and the viewer's scope) lets it through. */
export const listingRowWhere = async (db: Queryable, where: Clause): Promise<Row | null> => (await db.get<Row>(`select ${ROW} from listings where ${where.sql}`, where.params)) ?? null

/** What a change of a listing refused as stale says (a 409: the caller read the listing before another write). */
export const CHANGED_MEANWHILE = 'This listing changed meanwhile: look at it again'

/**
 * Sets columns of a listing, only as read: `asRead` names what must still hold (its status, and who suspended it or
 * when it ends); answers the new row. When the listing changed meanwhile it refuses with StaleWrite, and the
 * transaction fails with it. On PostgreSQL the statement refuses itself (db/pg/migrations/0039_stale_write.sql), so a
 * caller may send the rest of its transaction without waiting for this answer (issue 36: one round trip, not two);
 * nothing sent behind it commits. Its row is known before the answer (`updatedRow`).
 */
export async function updateListingAsRead(
  tx: Queryable,
  id: number,
  changes: Record<string, Param>,
  asRead: { status: string; suspendedBy: number | null } | { status: string; expiresAt: number | null },
): Promise<Row> {
  const set = Object.keys(changes).map((c) => `${c} = ?`)
  const [condition, value] =
    'suspendedBy' in asRead
      ? ['where id = ? and status = ? and suspended_by is not distinct from ?', asRead.suspendedBy]
      : ['where id = ? and status = ? and expires_at is not distinct from ?', asRead.expiresAt]
  const update = `update listings set ${set.join(', ')} ${condition} returning ${ROW}`
  const params = [...Object.values(changes), id, asRead.status, value]
  if (tx.dialect === 'postgres') {
    const sql = `with changed as (${update}) select changed.* from changed where brokernet_expect_rows((select count(*) from changed), ?) > 0`
    return (await tx.run<Row>(sql, [...params, CHANGED_MEANWHILE])).rows[0]!
  }
  const row = (await tx.run<Row>(update, params)).rows[0]
  if (!row) throw new StaleWrite(CHANGED_MEANWHILE)
  return row
}

/**
 * The row `updateListingAsRead(tx, before.id, changes, …)` answers, as far as this write decides it: the row as read
 * with the changes on it (as `insertedRow`, known before the database answers). Another write between the read and
 * this one may have changed other columns (only those `asRead` names are held to what was read): the database's row
 * then differs in those, which are not this write's doing (`changedKeys`).
 */
export function updatedRow(before: Row, changes: Record<string, Param>): Row {
  const row: Record<string, unknown> = { ...before }
  for (const [column, key] of ROW_NAMES) if (changes[column] !== undefined) row[key] = changes[column]
  return row as Row
}

/** The keys of `Row` that `changes` (columns) sets. */
export const changedKeys = (changes: Record<string, Param>): (keyof Row)[] => ROW_NAMES.filter(([column]) => changes[column] !== undefined).map(([, key]) => key as keyof Row)

/** Marks a review asked for, only of a listing an admin suspended with none pending; undefined when that changed. */
export const markReviewRequested = async (tx: Queryable, id: number, now: number, note: string | null): Promise<Row | undefined> =>
  (
    await tx.run<Row>(
      `update listings set review_requested_at = ?, review_note = ? where id = ? and status = 'SUSPENDED' and suspended_by is not null and review_requested_at is null returning ${ROW}`,
      [now, note, id],
    )
  ).rows[0]

export async function deleteListingRow(tx: Queryable, id: number): Promise<void> {
  await tx.run('delete from listings where id = ?', [id])
}

/**
 * Whether the backend's text search folds accents as FTS5 does (SQLite), so that the change feed's judge of a search
 * (../affects.ts) is exact outside ASCII too; PostgreSQL's search vector keeps them ("café" is not "cafe" there).
 */
export const searchFoldsAccents = (dialect: Dialect) => dialect === 'sqlite'
