import { and, count, desc, eq, gte, inArray, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { cities, countries, listingCounts, listings, states, users } from '../../../db/schema'
import { PAGE_SIZES, type Role } from '../../shared/constants'
import { fieldError, notFound } from '../../http/errors'
import type { Listing, ListingFilters, ListingPage, ListingQuery } from './model'

/** Who is asking: what they may see and change depends on nothing else. */
export type Viewer = { id: number; role: Role; cityId: number | null }

/**
 * The listings a viewer may see: a master admin all; a module admin their city's; a broker the whole network except
 * other brokers' suspended listings (their own they always see).
 */
export function visibleTo(v: Viewer): SQL | undefined {
  if (v.role === 'MASTER_ADMIN') return undefined
  if (v.role === 'MODULE_ADMIN') return v.cityId === null ? sql`0` : eq(listings.cityId, v.cityId)
  return or(ne(listings.status, 'SUSPENDED'), eq(listings.ownerUserId, v.id))
}

/** May the viewer change this listing? Brokers their own; module admins their city's; master admins any. */
export const canEdit = (v: Viewer, l: { ownerUserId: number; cityId: number }) =>
  v.role === 'MASTER_ADMIN' || (v.role === 'MODULE_ADMIN' && v.cityId === l.cityId) || (v.role === 'BROKER' && l.ownerUserId === v.id)

/**
 * FTS5 query for what a person types: every word must match as a prefix in some searchable column; a word made of
 * parts (an entry ID such as "MUM-0001") must match those parts in sequence, the last as a prefix.
 */
export function ftsQuery(search: string): string | null {
  const words = search
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.split(/[^\p{L}\p{N}]+/u).filter(Boolean))
    .filter((parts) => parts.length > 0)
    .slice(0, 8)
  if (words.length === 0) return null
  return words.map((parts) => parts.map((p, i) => `"${p}"${i === parts.length - 1 ? '*' : ''}`).join(' + ')).join(' AND ')
}

/** Every filter of SPEC section 3 as one condition (city, state and country narrow through the city). */
export function filterCondition(f: ListingFilters): SQL | undefined {
  const match = f.search ? ftsQuery(f.search) : null
  return and(
    match ? sql`${listings.id} in (select rowid from listings_fts where listings_fts match ${match})` : undefined,
    f.post_type ? eq(listings.postType, f.post_type) : undefined,
    f.sale_or_rent ? eq(listings.saleOrRent, f.sale_or_rent) : undefined,
    f.location ? eq(listings.location, f.location) : undefined,
    f.status ? eq(listings.status, f.status) : undefined,
    f.property_type ? sql`${listings.propertyType} = ${f.property_type.trim()} collate nocase` : undefined,
    f.city_id ? eq(listings.cityId, f.city_id) : undefined,
    f.state_id && !f.city_id ? inArray(listings.cityId, sql`(select id from cities where state_id = ${f.state_id})`) : undefined,
    f.country_id && !f.state_id && !f.city_id
      ? inArray(listings.cityId, sql`(select c.id from cities c join states s on s.id = c.state_id where s.country_id = ${f.country_id})`)
      : undefined,
    f.date_from ? gte(listings.date, f.date_from) : undefined,
    f.date_to ? lte(listings.date, f.date_to) : undefined,
    f.min_budget !== undefined && f.min_budget > 0 ? gte(listings.budget, f.min_budget) : undefined,
    f.max_budget !== undefined ? lte(listings.budget, f.max_budget) : undefined,
  )
}

const row = {
  listing: listings,
  ownerName: users.fullName,
  cityName: cities.name,
  stateName: states.name,
  countryName: countries.name,
}
type Row = { listing: typeof listings.$inferSelect; ownerName: string; cityName: string; stateName: string; countryName: string }

const selectRows = (db: Database) =>
  db
    .select(row)
    .from(listings)
    .innerJoin(users, eq(listings.ownerUserId, users.id))
    .innerJoin(cities, eq(listings.cityId, cities.id))
    .innerJoin(states, eq(cities.stateId, states.id))
    .innerJoin(countries, eq(states.countryId, countries.id))

export function toListing(r: Row, viewer: Viewer): Listing {
  const l = r.listing
  return {
    id: l.id,
    entry_id: l.entryId,
    post_type: l.postType,
    sale_or_rent: l.saleOrRent,
    property_type: l.propertyType,
    contact_value: l.contactValue,
    contact_name: l.contactName,
    budget: l.budget,
    size: l.size,
    location: l.location,
    locality: l.locality,
    reference: l.reference,
    type_details: l.typeDetails,
    details: l.details,
    comments: l.comments,
    google_location_url: l.googleLocationUrl,
    status: l.status,
    date: l.date,
    owner_user_id: l.ownerUserId,
    owner_name: r.ownerName,
    city_id: l.cityId,
    city_name: r.cityName,
    state_name: r.stateName,
    country_name: r.countryName,
    is_editable: canEdit(viewer, l),
    created_at: l.createdAt.toISOString(),
    updated_at: l.updatedAt.toISOString(),
  }
}

/**
 * Totals are the costly half of a page at a million rows; they are cached per viewer scope and filters, and the cache
 * forgets everything as soon as the database changes: this connection's writes (total_changes) or another process's
 * (data_version), so a total is never stale.
 */
export class CountCache {
  private readonly entries = new Map<string, unknown>()
  private version = ''

  constructor(private readonly max = 1000) {}

  get size() {
    return this.entries.size
  }

  clear() {
    this.entries.clear()
  }

  get<T>(db: Database, key: string, compute: () => T): T {
    const version = this.currentVersion(db)
    if (version !== this.version) {
      this.entries.clear()
      this.version = version
    }
    if (this.entries.has(key)) return this.entries.get(key) as T
    const value = compute()
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    return value
  }

  private currentVersion(db: Database) {
    const v = db.$client.query<{ d: number; t: number }, []>('select (select data_version from pragma_data_version) as d, total_changes() as t').get()!
    return `${v.d}:${v.t}`
  }
}

/** Filters the counts table can answer: everything but text search, property type, dates and budget. */
const COUNTABLE = new Set(['country_id', 'state_id', 'city_id', 'post_type', 'sale_or_rent', 'status', 'location'])

/**
 * The total for the common filters from `listing_counts` (a few thousand rows kept by triggers) instead of counting a
 * million listings; null when a filter needs the rows themselves. A broker's total adds their own suspended listings,
 * which only they see, to everyone's non-suspended ones.
 */
function countFromTotals(db: Database, v: Viewer, f: ListingFilters): number | null {
  const used = Object.entries(f).filter(([, value]) => value !== undefined && value !== '')
  if (!used.every(([k]) => COUNTABLE.has(k))) return null
  const lc = listingCounts
  const city = v.role === 'MODULE_ADMIN' ? (v.cityId ?? -1) : f.city_id
  const where = and(
    city !== undefined ? eq(lc.cityId, city) : undefined,
    v.role === 'MODULE_ADMIN' && f.city_id !== undefined && f.city_id !== city ? sql`0` : undefined,
    f.state_id && city === undefined ? inArray(lc.cityId, sql`(select id from cities where state_id = ${f.state_id})`) : undefined,
    f.country_id && city === undefined && !f.state_id
      ? inArray(lc.cityId, sql`(select c.id from cities c join states s on s.id = c.state_id where s.country_id = ${f.country_id})`)
      : undefined,
    f.post_type ? eq(lc.postType, f.post_type) : undefined,
    f.sale_or_rent ? eq(lc.saleOrRent, f.sale_or_rent) : undefined,
    f.status ? eq(lc.status, f.status) : undefined,
    f.location ? eq(lc.location, f.location) : undefined,
  )
  if (v.role !== 'BROKER') return db.select({ n: sql<number>`coalesce(sum(${lc.n}), 0)` }).from(lc).where(where).get()!.n
  const others = db.select({ n: sql<number>`coalesce(sum(${lc.n}), 0)` }).from(lc).where(and(where, ne(lc.status, 'SUSPENDED'))).get()!.n
  if (f.status && f.status !== 'SUSPENDED') return others
  // Through the owner's index, always: a broker has a handful of listings, while the planner would otherwise pick a
  // filter's index and walk half the table (measured: 60 ms for post_type alone).
  const ownSuspended = db.all<{ n: number }>(
    sql`select count(*) as n from listings indexed by listings_owner_id_idx where ${and(eq(listings.ownerUserId, v.id), eq(listings.status, 'SUSPENDED'), filterCondition(f))}`,
  )[0]!.n
  return (f.status === 'SUSPENDED' ? 0 : others) + ownSuspended
}

/** The number of listings a viewer sees with these filters. */
export function countListings(db: Database, cache: CountCache, v: Viewer, f: ListingFilters): number {
  return cache.get(db, `${scopeKey(v)}|${JSON.stringify(f)}`, () => {
    const fromTotals = countFromTotals(db, v, f)
    if (fromTotals !== null) return fromTotals
    const match = f.search ? ftsQuery(f.search) : null
    const rest = and(visibleTo(v), filterCondition({ ...f, search: undefined }))
    // A search and nothing else (a master admin's): the search index alone knows how many match.
    if (match && rest === undefined) return db.all<{ n: number }>(sql`select count(*) as n from listings_fts where listings_fts match ${match}`)[0]!.n
    return db.select({ n: count() }).from(listings).where(and(visibleTo(v), filterCondition(f))).get()!.n
  })
}

const scopeKey = (v: Viewer) => (v.role === 'MASTER_ADMIN' ? 'all' : v.role === 'MODULE_ADMIN' ? `city:${v.cityId}` : `broker:${v.id}`)

export function listListings(db: Database, cache: CountCache, viewer: Viewer, q: ListingQuery): ListingPage {
  const page = q.page ?? 1
  const perPage = q.per_page ?? 50
  if (!(PAGE_SIZES as readonly number[]).includes(perPage)) throw fieldError('per_page', 'per_page must be 10, 25, 50 or 100', 'query')
  const { page: _p, per_page: _pp, ...filters } = q
  const where = and(visibleTo(viewer), filterCondition(filters))
  const total = countListings(db, cache, viewer, filters)
  // The page's ids come from the indexes alone; the joins then run for those rows only. A text search walks the
  // search index newest first (its rowid is the listing id) and stops at the page, however many rows match.
  const match = filters.search ? ftsQuery(filters.search) : null
  const ids = match
    ? db
        .all<{ id: number }>(
          sql`select listings.id as id from listings_fts f join listings on listings.id = f.rowid where listings_fts match ${match} and ${
            and(visibleTo(viewer), filterCondition({ ...filters, search: undefined })) ?? sql`1`
          } order by f.rowid desc limit ${perPage} offset ${(page - 1) * perPage}`,
        )
        .map((r) => r.id)
    : db
        .select({ id: listings.id })
        .from(listings)
        .where(where)
        .orderBy(desc(listings.id))
        .limit(perPage)
        .offset((page - 1) * perPage)
        .all()
        .map((r) => r.id)
  const rows = ids.length ? selectRows(db).where(inArray(listings.id, ids)).orderBy(desc(listings.id)).all() : []
  return { listings: rows.map((r) => toListing(r, viewer)), total, total_pages: Math.ceil(total / perPage), page, per_page: perPage }
}

/** The rows of a filtered list in batches, newest first, by keyset (no OFFSET): for exports of any size. */
export function* listingBatches(db: Database, viewer: Viewer, filters: ListingFilters, batchSize = 1000): Generator<Listing[]> {
  const where = and(visibleTo(viewer), filterCondition(filters))
  let before = Number.MAX_SAFE_INTEGER
  for (;;) {
    const rows = selectRows(db).where(and(where, lt(listings.id, before))).orderBy(desc(listings.id)).limit(batchSize).all()
    if (rows.length === 0) return
    yield rows.map((r) => toListing(r, viewer))
    before = rows.at(-1)!.listing.id
    if (rows.length < batchSize) return
  }
}

export function getListing(db: Database, viewer: Viewer, id: number): Listing {
  const r = selectRows(db).where(and(eq(listings.id, id), visibleTo(viewer))).get()
  if (!r) throw notFound('Listing not found')
  return toListing(r, viewer)
}

/** A broker's own listings, every status, newest first. */
export function myListings(db: Database, viewer: Viewer): Listing[] {
  return selectRows(db).where(eq(listings.ownerUserId, viewer.id)).orderBy(desc(listings.id)).all().map((r) => toListing(r, viewer))
}
