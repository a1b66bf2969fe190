import { idsIn, indexedBy } from '../../../../db/dialect'
import type { Param, Queryable } from '../../../../db/sql'
import { LISTING_STATUSES, LOCATION_ZONES } from '../../../shared/constants'
import { notFound } from '../../../platform/errors'
import { KeptAnswer } from '../../../platform/http/kept-answer'
import { paging } from '../../../platform/http/paging'
import type { SnapshotCache } from '../../../../db/snapshot-cache'
import { KeptRows } from '../../../../db/kept-rows'
import type { Listing, ListingFilters, ListingPage, ListingQuery, ZoneCounts } from '../model'
import { countAffectedBy, countDelta, listingRowsDroppedBy, ownListingsAffectedBy, pageAffectedBy, windowAfter, deepPageAfter, DEEP_PAGE_MARGIN, zonesAffectedBy, zonesAfter, type DeepPage, type IdWindow } from '../affects'
import { allOf, canEdit, FALSE, filtersKey, marketHour, filterWhere, onMarketLine, HIDDEN_STATUSES, listedWhere, listingScope, matching, narrowWhere, NOT_SHOWN_TO, searchPlan, searchWhere, TRUE, visibleTo, type Clause, type SearchPlan, type Viewer } from './where'
import { hiddenFromOthers, scopeCity } from '../../../platform/policy/scope'
import { photoUrl } from '../../../shared/photo-url'
import { inCountry, inState, placeColumns, placeJoins } from '../../geography/store'
import { joinUser, userColumns } from '../../users/store'

export { canEdit, ftsQuery, visibleTo, type Viewer } from './where'

// The hot reads are plain SQL through cached statements, in the API's own shape: building each query with the ORM,
// compiling it and mapping its rows cost four times the query itself (profiled: 0.9 of 1.3 ms for a page).
const COLUMNS = `listings.id, listings.entry_id, listings.post_type, listings.sale_or_rent, listings.property_type,
  listings.contact_value, listings.contact_name, listings.budget, listings.size, listings.location, listings.locality,
  listings.reference, listings.type_details, listings.details, listings.comments, listings.google_location_url,
  listings.status, listings.date, listings.owner_user_id, ${userColumns({ full_name: 'owner_name' })}, listings.city_id,
  ${placeColumns({ city: 'city_name', state: 'state_name', country: 'country_name' })}, listings.created_at, listings.updated_at,
  listings.hot_event, listings.hot_at, listings.expires_at, listings.suspended_by, listings.suspension_reason, listings.suspended_at,
  listings.review_requested_at, listings.review_note, listings.cover_photo, listings.cover_width, listings.cover_height,
  listings.visibility, listings.circle_id, coalesce(listings.first_posted_at, listings.created_at) as first_posted_at,
  listings.reported_off_at, listings.onward_sharing`
const FROM = `from listings ${joinUser('listings.owner_user_id')} ${placeJoins('listings.city_id')}`

type Row = Omit<Listing, 'is_editable' | 'created_at' | 'updated_at' | 'first_posted_at' | 'reported_off_at' | 'hotsheet' | 'expires_at' | 'moderation' | 'cover'> & {
  first_posted_at: number | string
  reported_off_at: number | string | null
  cover_photo: string | null
  cover_width: number | null
  cover_height: number | null
  created_at: number
  updated_at: number
  expires_at: number | null
  hot_event: 'PRICE_CHANGED' | 'BACK_ON_MARKET' | null
  hot_at: number | null
} & ModerationColumns

type ModerationColumns = {
  suspended_by: number | null
  suspension_reason: string | null
  suspended_at: number | null
  review_requested_at: number | null
  review_note: string | null
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString()

/** Issue 29: what a listing suspended by an admin tells its readers (the admin's id stays in the row and the audit trail). */
const moderationOf = (r: ModerationColumns & { status: Listing['status'] }): Listing['moderation'] =>
  r.status === 'SUSPENDED' && r.suspended_by !== null
    ? {
        reason: r.suspension_reason ?? '',
        suspended_at: iso(r.suspended_at ?? 0),
        review_requested_at: r.review_requested_at === null ? null : iso(r.review_requested_at),
        review_note: r.review_note,
      }
    : null

/**
 * A row as the API shows it. The viewer decides `is_editable` and nothing else, so the viewer comes in as that one bit:
 * `listingJson` keeps one string per row and bit, which stays right only while this takes nothing else of the viewer.
 */
const listingAs = ({ hot_event, hot_at, suspended_by, suspension_reason, suspended_at, review_requested_at, review_note, cover_photo, cover_width, cover_height, ...r }: Row, editable: boolean): Listing => ({
  ...r,
  is_editable: editable,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
  first_posted_at: iso(r.first_posted_at),
  reported_off_at: r.reported_off_at === null ? null : iso(r.reported_off_at),
  expires_at: r.expires_at === null ? null : new Date(Number(r.expires_at)).toISOString(),
  hotsheet: hot_event && hot_at !== null ? { event: hot_event, at: new Date(hot_at).toISOString() } : { event: 'NEW', at: new Date(r.created_at).toISOString() },
  moderation: moderationOf({ status: r.status, suspended_by, suspension_reason, suspended_at, review_requested_at, review_note }),
  cover: cover_photo ? { url: photoUrl(cover_photo), width: Number(cover_width), height: Number(cover_height) } : null,
})

const editableBy = (v: Viewer, r: Row) => canEdit(v, { ownerUserId: r.owner_user_id, cityId: r.city_id })
const toListing = (r: Row, v: Viewer): Listing => listingAs(r, editableBy(v, r))

const rows = (db: Queryable, sql: string, params: Param[]) => db.all<Row>(sql, params)

/** Each row's JSON as a listing, for viewers who may not edit it and for those who may (`listingAs`'s one input besides the row). */
const rowJson = new WeakMap<Row, [string | undefined, string | undefined]>()

/**
 * `JSON.stringify(toListing(r, v))`, made once per row object and kind of viewer: a page made again after a write
 * shows mostly kept rows (db/kept-rows.ts), whose listing objects and JSON were about two thirds of its CPU (issue 36).
 * The row objects are the kept ones, never changed, and their JSON goes with them.
 */
function listingJson(r: Row, v: Viewer): string {
  const editable = editableBy(v, r)
  let known = rowJson.get(r)
  if (!known) rowJson.set(r, (known = [undefined, undefined]))
  return (known[Number(editable)] ??= JSON.stringify(listingAs(r, editable)))
}

/** The rows pages show, kept per process beside its caches (one set per change feed, so per app: tests run many). */
const keptRows = new WeakMap<SnapshotCache['feed'], KeptRows<Row>>()

/**
 * A page's rows by id, newest first as the statement ordered them: kept ones from memory, the rest read with their
 * joins (db/kept-rows.ts). After a write that moves a page, 24 of its 25 rows are ones it showed before; after a
 * broker's edit, 849 of the busiest one's 850 `/my` rows are as they were.
 */
async function pageRows(db: Queryable, cache: SnapshotCache, ids: number[]): Promise<Row[]> {
  let kept = keptRows.get(cache.feed)
  if (!kept) keptRows.set(cache.feed, (kept = new KeptRows<Row>(cache.feed, listingRowsDroppedBy)))
  const found = await kept.byIds(db, ids, (missing) => {
    const byIds = idsIn(db.dialect, 'listings.id', missing)
    return rows(db, `select ${COLUMNS} ${FROM} where ${byIds.sql}`, byIds.params)
  })
  return found.sort((a, b) => Number(b.id) - Number(a.id))
}
const countOf = async (db: Queryable, sql: string, params: Param[]) => (await db.get<{ n: number }>(sql, params))!.n

/**
 * The filters that narrow the list: a value that is absent, empty or `false` (`possible_duplicates=false`) narrows
 * nothing, and must not send a count past the kept totals to the rows.
 */
const usedFilters = (f: ListingFilters) => Object.entries(f).filter(([, value]) => value !== undefined && value !== '' && value !== false)

/** Filters the counts tables can answer: everything but text search and budget (and property type by date). */
const COUNTABLE = new Set(['country_id', 'state_id', 'city_id', 'post_type', 'sale_or_rent', 'status', 'location', 'property_type', 'date_from', 'date_to'])

/**
 * The total for the common filters from `listing_counts` (a few thousand rows kept by triggers) instead of counting a
 * million listings, or with a date range from `listing_day_counts` (the same by day: a month of the network is a few
 * thousand rows); null when a filter needs the rows themselves. A broker's total adds their own suspended and expired
 * listings, which only they see, to everyone's others.
 */
async function countFromTotals(db: Queryable, v: Viewer, f: ListingFilters): Promise<number | null> {
  const used = usedFilters(f)
  if (!used.every(([k]) => COUNTABLE.has(k))) return null
  const dated = !!(f.date_from || f.date_to)
  const propertyType = f.property_type?.trim() || undefined
  if (dated && propertyType) return null
  // City 0 holds the network's counts: the place to read when no place narrows the list. A module admin's city is
  // their scope, which a state or country filter may still exclude (a city filter beats both, as in the list).
  const placeless = !f.city_id && !f.state_id && !f.country_id
  const scope = listingScope(v)
  if (scope.kind === 'own') return null
  const scoped = scopeCity(scope)
  const city = scoped ?? (f.city_id ?? (placeless ? 0 : undefined))
  const is = (sql: string, value: Param | undefined): Clause | null => (value === undefined ? null : { sql, params: [value] })
  const where = allOf(
    is('city_id = ?', city),
    scoped !== null && f.city_id !== undefined && f.city_id !== city ? FALSE : null,
    f.city_id === undefined ? is(inState('city_id'), f.state_id) : null,
    f.city_id === undefined && !f.state_id ? is(inCountry('city_id'), f.country_id) : null,
    is('post_type = ?', f.post_type),
    is('sale_or_rent = ?', f.sale_or_rent),
    is('status = ?', f.status),
    // Expired listings are off the network unless asked for (NOT_EXPIRED in ./where.ts).
    f.status ? null : { sql: "status <> 'EXPIRED'", params: [] },
    is('location = ?', f.location),
    is('property_type = lower(?)', propertyType),
  )
  const sum = (c: Clause) =>
    dated ? datedSum(db, c, f.date_from || undefined, f.date_to || undefined) : countOf(db, `select coalesce(sum(n), 0) as n from listing_counts where ${c.sql}`, c.params)
  if (scope.kind !== 'all-but-others-hidden') return sum(where)
  // The kept counts are by status, so they tell the hidden ones (HIDDEN_FROM_OTHERS: suspended, expired) apart.
  const hidden = hiddenFromOthers(f.status)
  const others = hidden ? 0 : (await sum(allOf(where, { sql: `status not in (${HIDDEN_STATUSES})`, params: [] }))) - (await notShownCount(db, v, f))
  if (f.status && !hidden) return others
  // Through the owner's index, always: a broker has a handful of listings, while the planner would otherwise pick a
  // filter's index and walk half the table (measured: 60 ms for post_type alone). Without a status filter `filterWhere`
  // leaves out their expired ones too: off the network for everyone, as in the list.
  const own = allOf({ sql: `listings.owner_user_id = ? and listings.status in (${HIDDEN_STATUSES})`, params: [v.id] }, filterWhere(f))
  const ownHidden = await countOf(db, `select count(*) as n from listings ${indexedBy(db.dialect, 'listings_owner_id_idx')} where ${own.sql}`, own.params)
  return others + ownHidden
}

/**
 * The month after a YYYY-MM month, or null when it is no calendar month (the filters' pattern lets 2026-13 through) or
 * has none in four digits (9999-12: "10000-01" would sort before it).
 */
function nextMonth(month: string): string | null {
  const [y, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))]
  if (!/^\d{4}-\d{2}$/.test(month) || m < 1 || m > 12 || (y === 9999 && m === 12)) return null
  return m === 12 ? `${String(y + 1).padStart(4, '0')}-01` : `${month.slice(0, 5)}${String(m + 1).padStart(2, '0')}`
}

/**
 * The kept count of a date range (`c` holds the other filters). SQLite adds up `listing_day_counts` (a year of the
 * network: 40,000 rows, 2.5 ms). PostgreSQL's network rows are split in 16 shards, so there a year was 274,000 day
 * rows (60 ms of the server's CPU, hundreds of ms of a first touch's wall time under load): it adds up the range's
 * whole months in `listing_month_counts` (db/pg/month_counts.sql) and only the edges in days, each edge's month taken
 * whole less its days outside the range when that is fewer days (a year of the network: about 23,000 month rows and
 * at most 15 days of each edge). One statement. Listing dates are YYYY-MM-DD (the API's `format: 'date'`), so a day
 * row is in month `left(date, 7)` and inside [month, next month) in any collation.
 */
async function datedSum(db: Queryable, c: Clause, from: string | undefined, to: string | undefined): Promise<number> {
  const days = (...bounds: [string, string][]) => allOf(c, ...bounds.map(([op, value]) => ({ sql: `date ${op} ?`, params: [value] })))
  const dayRows = (w: Clause) => ({ sql: `(select coalesce(sum(n), 0) from listing_day_counts where ${w.sql})`, params: w.params })
  const f7 = from?.slice(0, 7)
  const t7 = to?.slice(0, 7)
  const afterFrom = f7 === undefined ? null : nextMonth(f7)
  const afterTo = t7 === undefined ? null : nextMonth(t7)
  const byDays = (): Promise<number> => {
    const w = days(...(from ? [['>=', from] as [string, string]] : []), ...(to ? [['<=', to] as [string, string]] : []))
    return countOf(db, `select coalesce(sum(n), 0) as n from listing_day_counts where ${w.sql}`, w.params)
  }
  if (db.dialect !== 'postgres' || (from && !afterFrom) || (to && !afterTo) || (f7 !== undefined && t7 !== undefined && f7 >= t7)) return byDays()
  const months: [string, string][] = []
  const plus: Clause[] = []
  const minus: Clause[] = []
  if (from && f7 && afterFrom) {
    // From the 17th on, the month less its days before `from` (at most 16) is fewer rows than its days from `from`.
    if (Number(from.slice(8, 10)) <= 16) {
      months.push(['>', f7])
      plus.push(dayRows(days(['>=', from], ['<', afterFrom])))
    } else {
      months.push(['>=', f7])
      minus.push(dayRows(days(['>=', f7], ['<', from])))
    }
  }
  if (to && t7 && afterTo) {
    if (Number(to.slice(8, 10)) < 15) {
      months.push(['<', t7])
      plus.push(dayRows(days(['>=', t7], ['<=', to])))
    } else {
      months.push(['<=', t7])
      minus.push(dayRows(days(['>', to], ['<', afterTo])))
    }
  }
  const m = allOf(c, ...months.map(([op, value]) => ({ sql: `month ${op} ?`, params: [value] })))
  const parts = [{ sql: `(select coalesce(sum(n), 0) from listing_month_counts where ${m.sql})`, params: m.params }, ...plus]
  const sql = `select ${parts.map((p) => p.sql).join(' + ')}${minus.map((p) => ` - ${p.sql}`).join('')} as n`
  return Number(await countOf(db, sql, [...parts.flatMap((p) => p.params), ...minus.flatMap((p) => p.params)]))
}

/** Filters a zone's total within a budget range is counted for through `listings_location_status_budget_idx`. */
const ZONE_BUDGET = new Set(['location', 'min_budget', 'max_budget', 'status'])

/**
 * A zone's total within a budget range, for the whole network's viewers (a master admin, a broker): one range of the
 * (zone, status, budget) index per status counted, instead of every entry of the range with its status and owner
 * checked, and for a broker the scope's rule per entry (others' suspended and expired, `NOT_SHOWN_TO`). A broker's
 * total is then taken apart as the kept counts' is: the statuses everyone sees, less the few listings not shown to
 * them, plus their own hidden ones (measured on the first touches of a million listings: 5.2 ms of CPU a broker's
 * total before, 1.4 after; 2.2 and 1.5 a master admin's; docs/decisions/056-cold-reads.md). Null for other filters
 * and scopes.
 */
async function countZoneBudget(db: Queryable, v: Viewer, f: ListingFilters): Promise<number | null> {
  if (!f.location || (f.min_budget === undefined && f.max_budget === undefined)) return null
  if (!usedFilters(f).every(([k]) => ZONE_BUDGET.has(k))) return null
  const scope = listingScope(v)
  if (scope.kind !== 'all' && scope.kind !== 'all-but-others-hidden') return null
  const broker = scope.kind === 'all-but-others-hidden'
  // Without a status filter every status but EXPIRED (off the network: NOT_EXPIRED); a broker's count of others
  // leaves out what only its owner sees.
  const statuses = (f.status ? [f.status] : LISTING_STATUSES.filter((s) => s !== 'EXPIRED')).filter((s) => !broker || !hiddenFromOthers(s))
  const range = narrowWhere({ location: f.location, min_budget: f.min_budget, max_budget: f.max_budget })
  const where = allOf(range, { sql: `listings.status in (${statuses.map(() => '?').join(', ')})`, params: statuses })
  const fromIndex = () => countOf(db, `select count(*) as n from listings ${indexedBy(db.dialect, 'listings_location_status_budget_idx')} where ${where.sql}`, where.params)
  const min = f.min_budget !== undefined && f.min_budget > 0 ? f.min_budget : undefined
  // PostgreSQL sums the budget buckets a wide range covers (065); a narrow range, and SQLite, count in the index.
  const bucketed = statuses.length && db.dialect === 'postgres' ? await bucketedZoneBudget(db, f.location, statuses, min, f.max_budget) : null
  const shown = !statuses.length ? 0 : (bucketed ?? (await fromIndex()))
  if (!broker) return shown
  const own = allOf({ sql: `listings.owner_user_id = ? and listings.status in (${HIDDEN_STATUSES})`, params: [v.id] }, filterWhere(f))
  const ownHidden = await countOf(db, `select count(*) as n from listings ${indexedBy(db.dialect, 'listings_owner_id_idx')} where ${own.sql}`, own.params)
  return shown - (await notShownCount(db, v, f)) + ownHidden
}

/**
 * The budget thresholds of PostgreSQL's `listing_budget_counts` (db/pg/budget_counts.sql):
 * 1,000 × 10^(k/20) rounded, k = 0 to 180. Bucket b holds the budgets in [T[b - 1], T[b]) (bucket 0 those below
 * 1,000, bucket 181 those from 10^12 on), as `width_bucket` puts them; tests/unit/pg-layer.test.ts checks that the file
 * holds the same numbers.
 */
export const BUDGET_THRESHOLDS = Array.from({ length: 181 }, (_, k) => Math.round(1000 * 10 ** (k / 20)))

/**
 * PostgreSQL: how many listings of a zone, in these statuses, have a budget in [min, max] (either may be absent): the
 * buckets wholly inside the range summed from `listing_budget_counts`, and the range's two edges (the parts of its
 * first and last buckets) counted through `listings_location_status_budget_idx`. One statement; null when no bucket
 * lies wholly inside (a narrow range: its entries are few, counted in the index as before). A wide range of a zone
 * was 100,000 index entries at about a microsecond each (issue 36).
 */
async function bucketedZoneBudget(db: Queryable, zone: string, statuses: string[], min: number | undefined, max: number | undefined): Promise<number | null> {
  if (min === undefined && max === undefined) return null // min_budget=0 alone narrows nothing: null budgets count too
  const T = BUDGET_THRESHOLDS
  const lo = min === undefined ? 0 : T.findIndex((t) => t >= min) + 1 // the first bucket starting at or above min
  const hi = max === undefined ? T.length : T.findLastIndex((t) => t <= max) // the last bucket ending at or below max
  if (lo === 0 && min !== undefined) return null // min above every threshold
  if (hi < lo) return null
  const inStatuses = { sql: `location = ? and status in (${statuses.map(() => '?').join(', ')})`, params: [zone, ...statuses] }
  const buckets = allOf(inStatuses, { sql: 'bucket >= ? and bucket <= ?', params: [lo, hi] })
  const parts: Clause[] = [{ sql: `(select coalesce(sum(n), 0) from listing_budget_counts where ${buckets.sql})`, params: buckets.params }]
  const edge = (range: Clause) => {
    const w = allOf(inStatuses, range)
    parts.push({ sql: `(select count(*) from listings where ${w.sql})`, params: w.params })
  }
  if (min !== undefined && T[lo - 1]! > min) edge({ sql: 'listings.budget >= ? and listings.budget < ?', params: [min, T[lo - 1]!] })
  if (max !== undefined && T[hi]! <= max) edge({ sql: 'listings.budget >= ? and listings.budget <= ?', params: [T[hi]!, max] })
  return Number(await countOf(db, `select ${parts.map((p) => p.sql).join(' + ')} as n`, parts.flatMap((p) => p.params)))
}

/**
 * Of the listings the kept counts hold for these filters, those not shown to the broker (others' ONLY_ME listings and
 * CIRCLE listings of circles they are not in, issue 35), none of them in a hidden status (those are counted apart):
 * the few rows `NOT_SHOWN_TO` names, checked against the filters.
 */
async function notShownCount(db: Queryable, v: Viewer, f: ListingFilters): Promise<number> {
  const where = allOf(
    { sql: `listings.id in (${NOT_SHOWN_TO}) and listings.status not in (${HIDDEN_STATUSES})`, params: [v.id, v.id] },
    filterWhere(f),
    searchWhere(f, db.dialect),
  )
  return countOf(db, `select count(*) as n from listings where ${where.sql}`, where.params)
}

const ftsCount = (db: Queryable, index: 'listings_fts' | 'listings_fts_suspended', match: string) =>
  countOf(db, `select count(*) as n from ${index} where ${index} match ?`, [match])

/** A cache key of what the viewer sees: equal for viewers whose pages are the same (editable rows included). */
function scopeKey(v: Viewer): string {
  const s = listingScope(v)
  return s.kind === 'all' ? 'all' : s.kind === 'city' ? `city:${s.cityId}` : s.kind === 'none' ? 'none' : `${s.kind}:${s.userId}`
}

/** A page as one viewer sees it (their own rows are editable, their suspended and expired ones visible), for any order of the query. */
export const pageKey = (v: Viewer, q: ListingQuery) =>
  `${scopeKey(v)}|${JSON.stringify(Object.entries(q).sort(([a], [b]) => (a < b ? -1 : 1)))}${marketHour(q)}`

/** The number of listings a viewer sees with these filters. */
export function countListings(db: Queryable, cache: SnapshotCache, v: Viewer, f: ListingFilters): Promise<number> {
  return cache.adjustable(`${scopeKey(v)}|${filtersKey(f)}`, db, async (db) => {
    const fromTotals = await countFromTotals(db, v, f)
    if (fromTotals !== null) return fromTotals
    if (f.on_market_over_days) return countOnMarket(db, cache, v, f, f.on_market_over_days)
    // PostgreSQL: the search vector's matches, counted with the rest of the filters (no search tags there).
    if (db.dialect === 'postgres' && f.search) {
      const listed = listedWhere(v, f, db.dialect)
      return countOf(db, `select count(*) as n from listings where ${listed.sql}`, listed.params)
    }
    const plan = searchPlan(v, f)
    if (plan) return countSearch(db, v, plan, !f.status)
    const zoneBudget = await countZoneBudget(db, v, f)
    if (zoneBudget !== null) return zoneBudget
    const rest = allOf(visibleTo(v), filterWhere(f))
    // A budget range in no zone: zone by zone (and the listings without one) through the (zone, budget) index, which
    // holds the visibility columns too, rather than the budget index and every match's row (200 ms for a broker).
    if ((f.min_budget !== undefined || f.max_budget !== undefined) && !f.location) {
      const zoneless = allOf(rest, { sql: 'listings.location is null', params: [] })
      let n = await countOf(db, `select count(*) as n from listings ${indexedBy(db.dialect, 'listings_location_budget_idx')} where ${zoneless.sql}`, zoneless.params)
      for (const z of LOCATION_ZONES) n += await countListings(db, cache, v, { ...f, location: z })
      return n
    }
    return countOf(db, `select count(*) as n from listings where ${rest.sql}`, rest.params)
  }, countAffectedBy(v, f), (n, c) => {
    const delta = countDelta(v, f, c, db.dialect)
    return delta === null ? undefined : n + delta
  })
}

/**
 * "On market over N days" (decision 041): the total of the other filters (kept, and often answered from the kept
 * counts), less the listings among them first posted after the line, found through `listings_on_market_idx`: the
 * newest days of postings instead of every older listing's row (a million listings, over 30 days: 189 ms of CPU
 * counting the rows, 62 counting the index's range; 5 (a master admin) to 11 (a broker) this way).
 */
async function countOnMarket(db: Queryable, cache: SnapshotCache, v: Viewer, f: ListingFilters, days: number): Promise<number> {
  const { on_market_over_days: _days, ...others } = f
  const all = await countListings(db, cache, v, others)
  const newer = allOf({ sql: 'coalesce(listings.first_posted_at, listings.created_at) > ?', params: [onMarketLine(days)] }, listedWhere(v, others, db.dialect))
  return all - (await countOf(db, `select count(*) as n from listings ${indexedBy(db.dialect, 'listings_on_market_idx')} where ${newer.sql}`, newer.params))
}

/**
 * A search's total. When the index's tag holds every filter, the search indexes alone know it: for a master admin (or a
 * module admin, whose city is the tag) the matches; for a broker every match but other brokers' suspended ones, which
 * have an index of their own (a few percent of all listings). Other brokers' expired ones are never among them: without
 * a status filter every expired match is left out (`sexpired`), and a status the tag holds is never EXPIRED
 * (`searchPlan`), so status=EXPIRED is counted from the rows, through the scope. Otherwise the matches' rows are
 * checked for the rest.
 */
async function countSearch(db: Queryable, v: Viewer, plan: SearchPlan, hideExpired: boolean): Promise<number> {
  const { match, rest, viewerCovered } = plan
  // Without a status filter the expired matches are left out, through their tag (none when a status's tag narrows the
  // search: that status is not EXPIRED).
  const narrowed = narrowWhere(rest).sql === TRUE.sql
  // Left out inside the one query (`NOT`), not counted apart and subtracted: the word's and the tag's postings are then
  // read once, not twice (a common word in a zone: 8.2 ms of CPU against 10.9, on a million listings). Only when the
  // kept counts hold an expired listing of the tag's city (or of the network): otherwise there is none to leave out.
  const shown = async () =>
    hideExpired && (await countOf(db, "select coalesce(sum(n), 0) as n from listing_counts where city_id = ? and status = 'EXPIRED'", [plan.cityId ?? 0])) > 0
      ? ftsCount(db, 'listings_fts', `(${match}) NOT tags : (sexpired)`)
      : ftsCount(db, 'listings_fts', match)
  if (narrowed && viewerCovered) return shown()
  if (narrowed && listingScope(v).kind === 'all-but-others-hidden') {
    const ownSuspended = await countOf(
      db,
      `select count(*) as n from listings_fts_suspended where listings_fts_suspended match ? and rowid in
        (select id from listings indexed by listings_owner_id_idx where owner_user_id = ? and status = 'SUSPENDED')`,
      [match, v.id],
    )
    const notShown = await countOf(
      db,
      `select count(*) as n from listings where listings.id in (${NOT_SHOWN_TO}) and listings.status not in (${HIDDEN_STATUSES}) and listings.id in (select rowid from listings_fts where listings_fts match ?)`,
      [v.id, v.id, match],
    )
    return (await shown()) - (await ftsCount(db, 'listings_fts_suspended', match)) + ownSuspended - notShown
  }
  const where = allOf(visibleTo(v), filterWhere(rest), matching(match))
  return countOf(db, `select count(*) as n from listings where ${where.sql}`, where.params)
}

/**
 * How many listings of each zone a viewer sees with these filters (any zone filter set aside), and all of them: the
 * admin grid's zone chips. The common filters are answered from `listing_counts` (seven small sums); anything else
 * (a search, a budget, dates) by one grouped count over the matches.
 */
export function zoneCounts(db: Queryable, cache: SnapshotCache, v: Viewer, filters: ListingFilters): Promise<ZoneCounts> {
  const { location: _zone, ...f } = filters
  return cache.adjustable(`zones|${scopeKey(v)}|${filtersKey(f)}`, db, async (db) => {
    // Seven totals when each is cheap: from the kept counts, or (a budget range) from the zone-and-budget index.
    const budgetOnly = usedFilters(f).every(([k]) => COUNTABLE.has(k) || k === 'min_budget' || k === 'max_budget')
    // A search alone: each zone's is the search narrowed by the zone's tag, counted in the search indexes (countSearch),
    // where one grouped count reads every match's row for its zone (a common word: 190 ms of CPU against about 60).
    const scope = listingScope(v).kind
    const searchOnly = db.dialect === 'sqlite' && searchPlan(v, f) !== null && usedFilters(f).every(([k]) => k === 'search') && (scope === 'all' || scope === 'all-but-others-hidden')
    if (budgetOnly || searchOnly || (await countFromTotals(db, v, f)) !== null) {
      const zones: Record<string, number> = {}
      for (const z of LOCATION_ZONES) zones[z] = await countListings(db, cache, v, { ...f, location: z })
      return { total: await countListings(db, cache, v, f), zones: zones as ZoneCounts['zones'] }
    }
    const where = listedWhere(v, f, db.dialect)
    const found = await db.all<{ location: string | null; n: number }>(`select location, count(*) as n from listings where ${where.sql} group by location`, where.params)
    const zones = Object.fromEntries(LOCATION_ZONES.map((z) => [z, found.find((r) => r.location === z)?.n ?? 0])) as ZoneCounts['zones']
    return { total: found.reduce((n, r) => n + r.n, 0), zones }
  }, zonesAffectedBy(v, f), (counts, c) => zonesAfter(v, f, counts, c, db.dialect) ?? undefined)
}

/** Filters a zone-and-budget page may be read for through one of the zone's two indexes. */
const ZONE_PLAN = new Set(['location', 'min_budget', 'max_budget', 'post_type', 'sale_or_rent', 'status'])

/**
 * A budget range within a zone has two ways to its page, and SQLite cannot tell them apart without statistics of the
 * range: read every match through (zone, budget) and sort them, or walk the zone newest first through (zone, id) until
 * the page is full. The walk reads about (offset + limit) × zone size / matches entries; the sort all matches, each
 * costlier. The total, known by now, decides (measured: 2.1 ms sorting 13,000 matches against 0.06 ms walking).
 */
async function zoneIndex(db: Queryable, viewer: Viewer, f: ListingFilters, total: number, end: number): Promise<string> {
  // PostgreSQL plans from its statistics and takes no index from us (`indexedBy` is empty there): the zone's total,
  // summed over the network's 16 shards, would be read for nothing (issue 36, docs/decisions/060-pg-cold-reads.md).
  if (db.dialect === 'postgres') return ''
  const used = usedFilters(f)
  if (!f.location || (f.min_budget === undefined && f.max_budget === undefined) || !used.every(([k]) => ZONE_PLAN.has(k))) return ''
  const city = scopeCity(listingScope(viewer)) ?? 0
  const zone = await countOf(db, 'select coalesce(sum(n), 0) as n from listing_counts where city_id = ? and location = ?', [city, f.location])
  const walk = total === 0 ? Infinity : (end * zone) / total
  return indexedBy(db.dialect, walk < 4 * total ? 'listings_location_id_idx' : 'listings_location_budget_idx')
}

/** Listings per block of ids in `listing_id_blocks` (migration 0016): block = id >> 10. */
const BLOCK_BITS = 10

/**
 * Where a deep page of the whole network or of one city starts: below which id, after skipping how many of the
 * listings the viewer sees. `listing_id_blocks` counts each block of 1,024 ids (suspended and expired apart), so finding the block
 * sums a few dozen rows, and the walk that follows crosses less than one block instead of the whole offset (a broker's
 * page 4,000: 5.3 ms of stepping over 100,000 listings). Null for other filters, or a page near the top.
 */
async function deepPageStart(db: Queryable, v: Viewer, f: ListingFilters, offset: number): Promise<{ below: number; skip: number } | null> {
  if (offset < 1 << BLOCK_BITS) return null
  const used = usedFilters(f)
  if (!used.every(([k]) => k === 'city_id')) return null
  const scope = listingScope(v)
  if (scope.kind === 'none' || scope.kind === 'own' || (scope.kind === 'city' && f.city_id !== undefined && f.city_id !== scope.cityId)) return null
  const city = scope.kind === 'city' ? scope.cityId : (f.city_id ?? 0)
  const broker = scope.kind === 'all-but-others-hidden'
  // A broker sees every listing but other brokers' suspended and expired ones; with no status filter nobody's expired
  // ones show (class 2, skipped for all): the blocks' shown, plus their own suspended.
  const ownSuspended = new Map<number, number>()
  if (broker) {
    const own = allOf({ sql: "owner_user_id = ? and status = 'SUSPENDED'", params: [v.id] }, f.city_id === undefined ? null : { sql: 'city_id = ?', params: [f.city_id] })
    for (const { id } of await db.all<{ id: number }>(`select id from listings ${indexedBy(db.dialect, 'listings_owner_id_idx')} where ${own.sql}`, own.params))
      ownSuspended.set(id >> BLOCK_BITS, (ownSuspended.get(id >> BLOCK_BITS) ?? 0) + 1)
  }
  let seen = 0
  let block = -1
  let inBlock = 0
  const settle = () => {
    if (block < 0) return null
    const n = inBlock + (ownSuspended.get(block) ?? 0)
    if (seen + n > offset) return { below: (block + 1) << BLOCK_BITS, skip: offset - seen }
    seen += n
    return null
  }
  // The blocks newest first, summed (on PostgreSQL the network's rows are split into 16 shards each, decision 013), and
  // read from the top down in spans only as deep as the offset needs: a block holds up to 1,024 listings, so the first
  // span usually suffices (page 2,000 of the network: 50 of its 1,000 blocks, 1,600 rows of 29,000 on PostgreSQL).
  const top = (await db.get<{ top: number | null }>('select max(block) as top from listing_id_blocks where city_id = ?', [city]))?.top ?? null
  let span = Math.ceil(offset / (1 << BLOCK_BITS)) + 2
  for (let hi = top ?? -1; hi >= 0; hi -= span, span *= 2) {
    const blocks = await db.all<{ block: number; suspended: number; n: number }>(
      'select block, suspended, sum(n) as n from listing_id_blocks where city_id = ? and block <= ? and block > ? group by block, suspended order by block desc',
      [city, hi, hi - span],
    )
    for (const row of blocks) {
      if (row.block !== block) {
        const found = settle()
        if (found) return found
        block = row.block
        inBlock = 0
      }
      // `suspended` is the block's class: 0 shown, 1 suspended (a broker sees only their own), 2 expired (off the network).
      if (row.suspended === 0 || (row.suspended === 1 && !broker)) inBlock += row.n
    }
  }
  // Past the end: an empty page (below the smallest id there is).
  return settle() ?? { below: 0, skip: 0 }
}

/** Pages that end within this many of the newest listings of their set come from a kept window of ids. */
const WINDOW_MAX = 1024
const WINDOW_MIN = 128

/**
 * The ids of one page, newest first. Near the top (most pages read), a slice of the set's newest ids kept current
 * through writes as counts are: after a write no query runs again, where on PostgreSQL a common word's page walks
 * or sorts thousands of rows (60-300 ms). Date ranges are read in date order, not kept.
 */
async function pageIds(db: Queryable, cache: SnapshotCache, viewer: Viewer, filters: ListingFilters, total: number, limit: number, offset: number): Promise<number[]> {
  if (offset >= total) return []
  const end = offset + limit
  if (end <= WINDOW_MAX && !filters.date_from && !filters.date_to) {
    const size = Math.max(WINDOW_MIN, 2 ** Math.ceil(Math.log2(end)))
    const w = await idWindow(db, cache, viewer, filters, total, size)
    if (w.complete || w.ids.length >= end) return w.ids.slice(offset, end)
  }
  if (!filters.search && !filters.date_from && !filters.date_to) return deepPageIds(db, cache, viewer, filters, total, limit, offset)
  return queryIds(db, viewer, filters, total, limit, offset)
}

/**
 * A page deeper than the windows, kept through writes as a run of its ids (`DeepPage`, ../affects.ts) and completed
 * when served: after a new listing every deep page of its set moves by one place, and reading each again from its
 * offset cost a walk to the offset in every process. Not for searches (their ids come from the search index) nor date
 * ranges (read in date order).
 */
async function deepPageIds(db: Queryable, cache: SnapshotCache, v: Viewer, f: ListingFilters, total: number, limit: number, offset: number): Promise<number[]> {
  const p = await cache.adjustable<DeepPage>(
    `deep|${offset}|${limit}|${scopeKey(v)}|${filtersKey(f)}`,
    db,
    async (db) => {
      const margin = Math.min(DEEP_PAGE_MARGIN, offset)
      return { ids: await queryIds(db, v, f, total, limit + margin, offset - margin), above: -margin }
    },
    countAffectedBy(v, f),
    (p, c) => deepPageAfter(v, f, p, c, limit, db.dialect) ?? undefined,
  )
  return completeDeepPage(db, v, f, p, limit)
}

/**
 * A kept deep page's ids: its part of the run (past the margin), and the places after the run read when it ends before
 * the page does (exported for tests/unit/listing-affects.test.ts).
 */
export async function completeDeepPage(db: Queryable, v: Viewer, f: ListingFilters, p: DeepPage, limit: number): Promise<number[]> {
  const last = p.ids.at(-1)
  if (last === undefined) return p.ids
  const shown = p.ids.slice(-p.above, -p.above + limit)
  if (shown.length === limit) return shown
  const where = allOf(visibleTo(v), filterWhere(f), { sql: 'listings.id < ?', params: [last] })
  const after = await db.all<{ id: number }>(`select listings.id as id from listings where ${where.sql} order by listings.id desc limit ?`, [...where.params, limit - shown.length])
  return [...shown, ...after.map((r) => Number(r.id))]
}

/** The newest `size` ids a viewer sees with these filters (all of them when fewer), kept through writes. */
const idWindow = (db: Queryable, cache: SnapshotCache, v: Viewer, f: ListingFilters, total: number, size: number): Promise<IdWindow> =>
  cache.adjustable(
    `ids|${size}|${scopeKey(v)}|${filtersKey(f)}`,
    db,
    async (db) => {
      const ids = await queryIds(db, v, f, total, size, 0)
      return { ids, complete: ids.length < size }
    },
    countAffectedBy(v, f),
    (w, c) => windowAfter(v, f, w, c, size, db.dialect) ?? undefined,
  )

/** The ids of one page, newest first, from the indexes alone (the joins then run for these rows only). */
async function queryIds(db: Queryable, viewer: Viewer, filters: ListingFilters, total: number, limit: number, offset: number): Promise<number[]> {
  if (db.dialect === 'postgres' && filters.search) {
    const where = listedWhere(viewer, filters, db.dialect)
    return (await db.all<{ id: number }>(`select id from listings where ${where.sql} order by id desc limit ? offset ?`, [...where.params, limit, offset])).map((r) => r.id)
  }
  const plan = searchPlan(viewer, filters)
  const rest = allOf(visibleTo(viewer), filterWhere(plan ? plan.rest : filters))
  // A text search walks the search index newest first (its rowid is the listing id), narrowed by a tag, and stops at
  // the page.
  const [sql, params]: [string, Param[]] = plan
    ? [`select listings.id as id from listings_fts f join listings on listings.id = f.rowid where listings_fts match ? and ${rest.sql} order by f.rowid desc limit ? offset ?`, [plan.match, ...rest.params, limit, offset]]
    : filters.date_from || filters.date_to
      ? // A date range: newest first as (date, id), which is id order (ids grow with dates) read straight from the date
        // indexes from the range's end, instead of every listing of the range sorted by id (136 ms for a year).
        [`select listings.id as id from listings where ${rest.sql} order by listings.date desc, listings.id desc limit ? offset ?`, [...rest.params, limit, offset]]
      : await (async (): Promise<[string, Param[]]> => {
          const deep = await deepPageStart(db, viewer, filters, offset)
          if (deep) {
            const below = allOf(rest, { sql: 'listings.id < ?', params: [deep.below] })
            return [`select listings.id as id from listings where ${below.sql} order by listings.id desc limit ? offset ?`, [...below.params, limit, deep.skip]]
          }
          return [
            `select listings.id as id from listings ${await zoneIndex(db, viewer, filters, total, offset + limit)} where ${rest.sql} order by listings.id desc limit ? offset ?`,
            [...rest.params, limit, offset],
          ]
        })()
  return (await db.all<{ id: number }>(sql, params)).map((r) => r.id)
}


/** One page of a list: its rows, and what the answer says about the whole. */
async function listPage(db: Queryable, cache: SnapshotCache, viewer: Viewer, q: ListingQuery) {
  const { page, perPage, offset } = paging(q, 50)
  const { page: _p, per_page: _pp, ...filters } = q
  const total = await countListings(db, cache, viewer, filters)
  const ids = await pageIds(db, cache, viewer, filters, total, perPage, offset)
  return { found: await pageRows(db, cache, ids), total, total_pages: Math.ceil(total / perPage), page, per_page: perPage }
}

export async function listListings(db: Queryable, cache: SnapshotCache, viewer: Viewer, q: ListingQuery): Promise<ListingPage> {
  const { found, ...rest } = await listPage(db, cache, viewer, q)
  return { listings: found.map((r) => toListing(r, viewer)), ...rest }
}

/** `JSON.stringify(await listListings(…))`, from each row's kept JSON (`listingJson`); and the ids it shows. */
export async function listListingsJson(db: Queryable, cache: SnapshotCache, viewer: Viewer, q: ListingQuery): Promise<{ json: string; ids: number[] }> {
  const { found, total, total_pages, page, per_page } = await listPage(db, cache, viewer, q)
  const listings = found.map((r) => listingJson(r, viewer)).join(',')
  return { json: `{"listings":[${listings}],"total":${total},"total_pages":${total_pages},"page":${page},"per_page":${per_page}}`, ids: found.map((r) => r.id) }
}

/**
 * The list answer as served (its bytes, and their compressed copies once asked for), kept in `pages` until a change
 * that can alter this page: a warm read is a lookup and a write of bytes (docs/decisions/050-warm-path.md).
 */
export function listPageAnswer(db: Queryable, counts: SnapshotCache, pages: SnapshotCache, viewer: Viewer, q: ListingQuery): Promise<KeptAnswer> {
  const { page: _p, per_page: _pp, ...filters } = q
  const shown = new Set<number>()
  return pages.get(
    pageKey(viewer, q),
    async () => {
      const { json, ids } = await listListingsJson(db, counts, viewer, q)
      for (const id of ids) shown.add(id)
      return new KeptAnswer(json)
    },
    pageAffectedBy(viewer, filters, shown),
  )
}

/** The zone chips' answer as served, kept until a change that can alter it. */
export const zoneCountsAnswer = (db: Queryable, counts: SnapshotCache, pages: SnapshotCache, viewer: Viewer, q: ListingFilters): Promise<KeptAnswer> =>
  pages.get(`zones|${pageKey(viewer, q)}`, async () => new KeptAnswer(JSON.stringify(await zoneCounts(db, counts, viewer, q))), zonesAffectedBy(viewer, q))

/** A broker's own listings as served, kept until one of them changes. */
export const myListingsAnswer = (db: Queryable, pages: SnapshotCache, viewer: Viewer): Promise<KeptAnswer> =>
  pages.get(`my|${viewer.id}`, async () => new KeptAnswer(`[${(await myRows(db, viewer, pages)).map((r) => listingJson(r, viewer)).join(',')}]`), ownListingsAffectedBy(viewer.id))

/** The rows of a filtered list in batches, newest first, by keyset (no OFFSET): for exports of any size. */
export async function* listingBatches(db: Queryable, viewer: Viewer, filters: ListingFilters, batchSize = 1000): AsyncGenerator<Listing[]> {
  const where = listedWhere(viewer, filters, db.dialect)
  const sql = `select ${COLUMNS} ${FROM} where ${where.sql === TRUE.sql ? '' : `(${where.sql}) and `}listings.id < ? order by listings.id desc limit ?`
  let before = Number.MAX_SAFE_INTEGER
  for (;;) {
    const batch = await rows(db, sql, [...where.params, before, batchSize])
    if (batch.length === 0) return
    yield batch.map((r) => toListing(r, viewer))
    before = batch.at(-1)!.id
    if (batch.length < batchSize) return
  }
}

/** Which of these listings the viewer may see. */
export async function visibleIds(db: Queryable, viewer: Viewer, ids: number[]): Promise<number[]> {
  const where = allOf(idsIn(db.dialect, 'listings.id', ids), visibleTo(viewer))
  return (await db.all<{ id: number }>(`select listings.id as id from listings where ${where.sql}`, where.params)).map((r) => r.id)
}

/** Listings by id as the viewer sees them in the list (only those visible to them), keyed by id. */
export async function listingsByIds(db: Queryable, viewer: Viewer, ids: number[]): Promise<Map<number, Listing>> {
  if (ids.length === 0) return new Map()
  const where = allOf(idsIn(db.dialect, 'listings.id', ids), visibleTo(viewer))
  return new Map((await rows(db, `select ${COLUMNS} ${FROM} where ${where.sql}`, where.params)).map((r) => [r.id, toListing(r, viewer)]))
}

export async function getListing(db: Queryable, viewer: Viewer, id: number): Promise<Listing> {
  const where = allOf({ sql: 'listings.id = ?', params: [id] }, visibleTo(viewer))
  const r = (await rows(db, `select ${COLUMNS} ${FROM} where ${where.sql}`, where.params))[0]
  if (!r) throw notFound('Listing not found')
  return toListing(r, viewer)
}

/** A broker's own listings, every status, newest first. */
export async function myListings(db: Queryable, viewer: Viewer, cache: SnapshotCache): Promise<Listing[]> {
  return (await myRows(db, viewer, cache)).map((r) => toListing(r, viewer))
}

async function myRows(db: Queryable, viewer: Viewer, cache: SnapshotCache): Promise<Row[]> {
  // The ids from the owner's index alone, the rows kept or read (the answer is made again after each of their edits).
  const ids = (await db.all<{ id: number }>(`select id from listings ${indexedBy(db.dialect, 'listings_owner_id_idx')} where owner_user_id = ?`, [viewer.id])).map((r) => Number(r.id))
  return pageRows(db, cache, ids)
}

/**
 * A listing whatever its status, seen by nobody in particular (`is_editable` false): for a public link's page
 * (share-links/), which decides itself what of it to show, and whether at all.
 */
export async function listingForLink(db: Queryable, id: number): Promise<Listing | null> {
  const r = (await rows(db, `select ${COLUMNS} ${FROM} where listings.id = ?`, [id]))[0]
  return r ? toListing(r, { id: 0, role: 'BROKER', cityId: null }) : null
}

/**
 * Which of these brokers see a listing as its visibility says (issue 35): all of them for the network's, its owner,
 * and for a CIRCLE listing its circle's members. Matching announces a listing only to those (ANNOUNCE in matches/).
 */
export async function brokersWhoSee(db: Queryable, listingId: number, userIds: readonly number[]): Promise<Set<number>> {
  const l = await db.get<{ visibility: string; circle_id: number | null; owner_user_id: number }>('select visibility, circle_id, owner_user_id from listings where id = ?', [listingId])
  if (!l) return new Set()
  if (l.visibility === 'NETWORK') return new Set(userIds)
  const seeing = new Set([Number(l.owner_user_id)])
  if (l.visibility === 'CIRCLE' && l.circle_id !== null)
    for (const m of await db.all<{ id: number }>('select member_user_id as id from circle_members where circle_id = ?', [l.circle_id])) seeing.add(Number(m.id))
  return new Set(userIds.filter((u) => seeing.has(u)))
}
