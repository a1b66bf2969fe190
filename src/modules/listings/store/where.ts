import type { Clause, Dialect, Param } from '../../../../db/sql'
import type { Role } from '../../../shared/constants'
import { HIDDEN_FROM_OTHERS, hiddenFromOthers, scopeOf, type Scope, type ScopeAction } from '../../../platform/policy/scope'
import type { ListingFilters } from '../model'
import { inCountry, inState } from '../../geography/store'

/** Who is asking: what they may see and change depends on nothing else. */
export type Viewer = { id: number; role: Role; cityId: number | null }

/**
 * A piece of a WHERE clause over `listings`, with `?` placeholders. The list, its totals and the export build their
 * SQL text from these by hand: the same filters give the same text, so the compiled statement is reused.
 */
export type { Clause } from '../../../../db/sql'

/** Always true, in both dialects (`where 1` is SQLite's only). */
export const TRUE: Clause = { sql: 'true', params: [] }
export const FALSE: Clause = { sql: 'false', params: [] }

/** Every clause, all required (`1` when there is none); each is parenthesised, so the result is safe to combine. */
export function allOf(...clauses: (Clause | null | undefined)[]): Clause {
  const present = clauses.filter((c): c is Clause => !!c && c.sql !== TRUE.sql)
  if (present.length === 0) return TRUE
  return { sql: present.map((c) => `(${c.sql})`).join(' and '), params: present.flatMap((c) => c.params) }
}

/** The viewer's listing scope, from the policy (src/platform/policy/scope.ts): what they may see, or with `manage` change. */
export const listingScope = (v: Viewer, action: ScopeAction = 'read'): Scope => scopeOf(v, 'listing', action)

/** The statuses the broker's scope hides from all but the owner, as an SQL list: `'SUSPENDED', 'EXPIRED'`. */
export const HIDDEN_STATUSES = HIDDEN_FROM_OTHERS.map((s) => `'${s}'`).join(', ')

/**
 * The listings not shown to broker `?` (twice): others' listings kept to their owner (ONLY_ME), or to a circle of their
 * owner's that the broker is not in (issue 35). A few rows, read through `listings_not_network_idx` once per query (an
 * uncorrelated subquery), so the filter indexes still answer the rest of the scope without visiting rows.
 */
export const notShownTo = (p = '?') => `select h.id from listings h where h.visibility <> 'NETWORK' and h.owner_user_id <> ${p}
  and (h.visibility = 'ONLY_ME' or h.circle_id is null or h.circle_id not in (select m.circle_id from circle_members m where m.member_user_id = ${p}))`
export const NOT_SHOWN_TO = notShownTo()

/**
 * The listing scope as SQL: the one place it becomes a clause (null: every row). A master admin sees all; a module
 * admin their city's; a broker the whole network except other brokers' suspended and expired listings (their own they
 * always see), and except others' listings not shown to them (visibility, issue 35).
 */
export function scopeWhere(s: Scope): Clause | null {
  switch (s.kind) {
    case 'all':
      return null
    case 'none':
      return FALSE
    case 'city':
      return { sql: 'listings.city_id = ?', params: [s.cityId] }
    case 'own':
      return { sql: 'listings.owner_user_id = ?', params: [s.userId] }
    case 'all-but-others-hidden':
      return {
        sql: `(listings.status not in (${HIDDEN_STATUSES}) or listings.owner_user_id = ?) and listings.id not in (${NOT_SHOWN_TO})`,
        params: [s.userId, s.userId, s.userId],
      }
  }
}

/** A listing's visibility as the change feed carries it (absent in rows written before issue 35: the network's). */
type Shown = { ownerUserId: number; visibility?: string | null }

/**
 * Whether a broker may see a listing as far as its visibility tells without the circles: yes for the network's and
 * their own, no for another's ONLY_ME, and `maybe` for another's CIRCLE listing (membership is in the database).
 */
export const shownTo = (userId: number, l: Shown): boolean | 'maybe' =>
  !l.visibility || l.visibility === 'NETWORK' || l.ownerUserId === userId ? true : l.visibility === 'CIRCLE' ? 'maybe' : false

/**
 * The same scope judged on one listing in memory (the change feed's rows, a listing about to change). Another's CIRCLE
 * listing counts as seen by a broker here (`shownTo`: the circles are in the database): callers that must be exact
 * ask `shownTo` first (./affects.ts recounts then), or confirm in SQL (saved-search alerts).
 */
export function inScope(s: Scope, l: { ownerUserId: number; cityId: number; status?: string; visibility?: string | null }): boolean {
  switch (s.kind) {
    case 'all':
      return true
    case 'none':
      return false
    case 'city':
      return l.cityId === s.cityId
    case 'own':
      return l.ownerUserId === s.userId
    case 'all-but-others-hidden':
      return (!hiddenFromOthers(l.status) || l.ownerUserId === s.userId) && shownTo(s.userId, l) !== false
  }
}

/** The listings a viewer may see, as a clause (null: all). */
export const visibleTo = (v: Viewer): Clause | null => scopeWhere(listingScope(v))

/** May the viewer change this listing? Within their `manage:listing` scope: brokers their own, module admins their city's, master admins any. */
export const canEdit = (v: Viewer, l: { ownerUserId: number; cityId: number }) => inScope(listingScope(v, 'manage'), l)

/** The search indexes' text columns: what a person's words may match (never the `tags` column beside them). */
const TEXT_COLUMNS = '{entry_id owner_name locality property_type details}'

/** The typed words as the search index takes them: each split into its parts ("MUM-0001" → mum, 0001). */
export const searchParts = (search: string) =>
  search
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.split(/[^\p{L}\p{N}]+/u).filter(Boolean))
    .filter((parts) => parts.length > 0)

/**
 * FTS5 query for what a person types: every word must match as a prefix in some searchable column; a word made of
 * parts (an entry ID such as "MUM-0001") must match those parts in sequence, the last as a prefix.
 */
export function ftsQuery(search: string): string | null {
  const words = searchParts(search).slice(0, 8)
  if (words.length === 0) return null
  return `${TEXT_COLUMNS} : (${words.map((parts) => parts.map((p, i) => `"${p}"${i === parts.length - 1 ? '*' : ''}`).join(' + ')).join(' AND ')})`
}

/** A search, narrowed inside the index by one filter, and the filters still to check against the rows. */
export type SearchPlan = { match: string; rest: ListingFilters; viewerCovered: boolean; cityId: number | null }

/**
 * The search indexes carry each listing's city, zone, status, post type and deal as tags (migration 0015, decision
 * record 008). One of the filters goes into the FTS5 query, the most selective there is: the city (a module admin's
 * own, if none is asked), else the zone, a status other than ACTIVE, the post type, the deal. Measured at a million
 * listings: a common word in a city 9 ms, against 42 ms reading the word's 88,000 rows for their city; each further
 * tag of low selectivity costs more than checking the few remaining rows. `viewerCovered`: the tag already limits the
 * rows to what a module admin may see; `cityId`: the city the tag narrows to, if it is a city's. Null without a search.
 */
export function searchPlan(v: Viewer, f: ListingFilters): SearchPlan | null {
  const words = f.search ? ftsQuery(f.search) : null
  if (!words) return null
  const { search: _s, ...rest }: ListingFilters = { ...f }
  const lower = (x: string) => x.toLowerCase().replace(/_/g, '')
  let tag: string | null = null
  let cityId: number | null = null
  const scope = listingScope(v)
  const ownCity = scope.kind === 'city' ? scope.cityId : null
  if (f.city_id !== undefined || ownCity !== null) {
    cityId = f.city_id ?? ownCity
    tag = `c${cityId}`
    // A city filter beats state and country (filterWhere): with it consumed they must not come back into force.
    if (f.city_id !== undefined) for (const k of ['city_id', 'state_id', 'country_id'] as const) delete rest[k]
  } else if (f.location) {
    tag = `z${lower(f.location)}`
    delete rest.location
  } else if (f.status && f.status !== 'ACTIVE' && f.status !== 'EXPIRED') {
    // Not EXPIRED: without a status in `rest`, filterWhere would hide the expired rows the tag asks for.
    tag = `s${lower(f.status)}`
    delete rest.status
  } else if (f.post_type) {
    tag = `t${lower(f.post_type)}`
    delete rest.post_type
  } else if (f.sale_or_rent) {
    tag = `d${lower(f.sale_or_rent)}`
    delete rest.sale_or_rent
  }
  const viewerCovered = scope.kind === 'all' || (ownCity !== null && (f.city_id === undefined || f.city_id === ownCity))
  return { match: tag ? `tags : (${tag}) AND ${words}` : words, rest, viewerCovered, cityId }
}

const is = (sql: string, value: Param | undefined): Clause | null => (value === undefined || value === '' ? null : { sql, params: [value] })

/**
 * Expired listings are off the network (issue 17): in no list, total or export unless the status filter asks for
 * EXPIRED, and then a broker finds only their own (the scope, `scopeWhere`). The one place that says so in SQL;
 * `listingMatches` (./affects.ts) says it for the change feed's rows.
 */
export const NOT_EXPIRED: Clause = { sql: "listings.status <> 'EXPIRED'", params: [] }

/** Every filter of SPEC section 3 but the text search, as one clause (city, state and country narrow through the city). */
export const filterWhere = (f: ListingFilters): Clause => allOf(...narrowing(f), f.status ? null : NOT_EXPIRED)

/** The filters as asked, without the hiding of expired listings that goes with no status filter. */
export const narrowWhere = (f: ListingFilters): Clause => allOf(...narrowing(f))

function narrowing(f: ListingFilters): (Clause | null)[] {
  return [
    is('listings.post_type = ?', f.post_type),
    is('listings.sale_or_rent = ?', f.sale_or_rent),
    is('listings.location = ?', f.location),
    is('listings.status = ?', f.status),
    is('lower(listings.property_type) = lower(?)', f.property_type?.trim()),
    is('listings.city_id = ?', f.city_id),
    f.city_id ? null : is(inState('listings.city_id'), f.state_id),
    f.city_id || f.state_id ? null : is(inCountry('listings.city_id'), f.country_id),
    is('listings.date >= ?', f.date_from),
    is('listings.date <= ?', f.date_to),
    f.min_budget !== undefined && f.min_budget > 0 ? is('listings.budget >= ?', f.min_budget) : null,
    is('listings.budget <= ?', f.max_budget),
    // News since a moment (the hotsheet, issue 17): through listings_hot_idx, the same expression.
    f.changed_since ? { sql: 'coalesce(listings.hot_at, listings.created_at) >= ?', params: [Date.parse(f.changed_since)] } : null,
    // Posted as a near-copy of another broker's ACTIVE listing (duplicate control, issue 17): the admins' filter.
    f.possible_duplicates ? { sql: 'listings.possible_duplicate_of is not null', params: [] } : null,
    // Suspended by an admin, its owner asking for a review nobody answered yet (issue 29): through listings_review_idx.
    f.review_requested ? { sql: 'listings.review_requested_at is not null', params: [] } : null,
    // Days on market (issue 35): first posted (its own creation when the column is null) before the line.
    f.on_market_over_days ? { sql: 'coalesce(listings.first_posted_at, listings.created_at) <= ?', params: [onMarketLine(f.on_market_over_days)] } : null,
  ]
}

const DAY = 86_400_000
const HOUR = 3_600_000

/**
 * "On market over N days": N + 1 whole days or more since the first posting (the count cards show is over N), measured
 * from the start of the current hour, so that one hour's answers are one set, which the caches key by that hour
 * (`filtersKey`); otherwise a cached answer would never let in a listing that merely grew older.
 */
export const onMarketLine = (days: number, now = Date.now()): number => Math.floor(now / HOUR) * HOUR - (days + 1) * DAY

/** The hour an "on market over" filter is judged at, for cache keys ('' without that filter). */
export const marketHour = (f: { on_market_over_days?: number }, now = Date.now()): string => (f.on_market_over_days ? `|h${Math.floor(now / HOUR)}` : '')

/** A cache key of a set of filters: the filters, and the hour when one of them depends on the clock. */
export const filtersKey = (f: ListingFilters): string => `${JSON.stringify(f)}${marketHour(f)}`

/** The listing ids an FTS5 query matches, as a clause (SQLite). */
export const matching = (match: string): Clause => ({ sql: 'listings.id in (select rowid from listings_fts where listings_fts match ?)', params: [match] })

/** The text search as a clause (null without one): the listing ids the search index matches. */
export function searchWhere(f: ListingFilters, dialect: Dialect = 'sqlite'): Clause | null {
  if (dialect === 'postgres') return f.search ? tsMatching(f.search) : null
  const match = f.search ? ftsQuery(f.search) : null
  return match ? matching(match) : null
}

/**
 * PostgreSQL's twin of `ftsQuery` over the `search` vector (db/pg/search.sql): every word as a prefix; a word of parts
 * ("MUM-0001") as its parts in sequence, the last a prefix. Parts are letters and digits only: nothing in them is
 * tsquery syntax. Null when nothing searchable was typed.
 */
export function tsQuery(search: string): string | null {
  const words = searchParts(search).slice(0, 8)
  if (words.length === 0) return null
  return words.map((parts) => parts.map((p, i) => (i === parts.length - 1 ? `${p}:*` : p)).join(' <-> ')).join(' & ')
}

const tsMatching = (search: string): Clause | null => {
  const q = tsQuery(search)
  return q ? { sql: "listings.search @@ to_tsquery('simple', ?)", params: [q] } : null
}

/**
 * PostgreSQL: a search within one city, through `listings_city_search_idx` (migration 0032_city_search):
 * the city's matches of each word, where the search index gives the whole network's, then intersected with every
 * listing of the city (a common word in a city: 2,500 matches out of 88,000 postings and 20,000 listings). The exact
 * search is still judged on each of those rows (`ts_match_vq`, the function of `@@`, which the planner never sends to
 * the network's index): the city's words have no positions, so a phrase (an entry ID's parts) is narrowed by its parts
 * in any order. The city is in the words, so a city filter is left out with the state and country filters (it beats
 * both, as in `filterWhere`). A module admin's searches are within their city (their scope's clause stays) unless they
 * ask for another. Null without a search or a city.
 */
export function citySearchWhere(v: Viewer, f: ListingFilters): { search: Clause; rest: ListingFilters } | null {
  const scope = listingScope(v)
  const cityId = f.city_id ?? (scope.kind === 'city' ? scope.cityId : undefined)
  const q = f.search ? tsQuery(f.search) : null
  if (!q || cityId === undefined) return null
  const { search: _s, ...rest } = f
  if (f.city_id !== undefined) for (const k of ['city_id', 'state_id', 'country_id'] as const) delete rest[k]
  // Every part of every word, in any order: a phrase against words without positions would match nothing.
  const anyOrder = q.replaceAll(' <-> ', ' & ')
  return {
    search: {
      sql: "brokernet_city_words(listings.city_id, listings.search) @@ brokernet_city_query(?, to_tsquery('simple', ?)) and ts_match_vq(listings.search, to_tsquery('simple', ?))",
      params: [cityId, anyOrder, q],
    },
    rest,
  }
}

/** Every listing a viewer sees with these filters, the search included (through its tag when it has one), as one clause. */
export function listedWhere(v: Viewer, f: ListingFilters, dialect: Dialect = 'sqlite'): Clause {
  if (dialect === 'postgres') {
    const inCity = citySearchWhere(v, f)
    return inCity ? allOf(visibleTo(v), filterWhere(inCity.rest), inCity.search) : allOf(visibleTo(v), filterWhere(f), searchWhere(f, dialect))
  }
  const plan = searchPlan(v, f)
  return plan ? allOf(visibleTo(v), filterWhere(plan.rest), matching(plan.match)) : allOf(visibleTo(v), filterWhere(f))
}

/** One listing, by id. */
export const listingIs = (id: number): Clause => ({ sql: 'listings.id = ?', params: [id] })

/** Listings of one owner (`mine`), or of everyone else. */
export const ownedBy = (userId: number, mine = true): Clause => ({ sql: mine ? 'listings.owner_user_id = ?' : 'listings.owner_user_id <> ?', params: [userId] })
