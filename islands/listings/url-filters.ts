// Listing filters <-> URL query (SPEC section 5 "Listing filters from the URL query"): invalid values are ignored,
// so a shared link reopens the same view and a mangled one still opens a sensible page.
import { parseMoney } from '../../src/shared/money'
import { LISTING_STATUSES, LOCATION_ZONES, PAGE_SIZES, POST_TYPES, SALE_OR_RENT } from '../../src/shared/constants'

export type ListingFilterState = {
  search?: string
  post_type?: (typeof POST_TYPES)[number]
  status?: (typeof LISTING_STATUSES)[number]
  sale_or_rent?: (typeof SALE_OR_RENT)[number]
  property_type?: string
  location?: (typeof LOCATION_ZONES)[number]
  min_budget?: number
  max_budget?: number
  date_from?: string
  date_to?: string
  country_id?: number
  state_id?: number
  city_id?: number
  /** Only listings with news (posted, repriced, back on the market) at or after this moment, ISO 8601 (the hotsheet). */
  changed_since?: string
  /** Admins: only listings posted as a near-copy of another broker's (duplicate control). */
  possible_duplicates?: true
  /** Admins: only listings suspended by an admin whose owner asks for a review (issue 29). */
  review_requested?: true
  /** Only listings on the market more than this many whole days (issue 35's "on market over 60 days"). */
  on_market_over_days?: number
  page?: number
  per_page?: (typeof PAGE_SIZES)[number]
}

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined => (v && (values as readonly string[]).includes(v) ? (v as T) : undefined)
const numeric = (v: string | null): number | undefined => (v !== null && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined)
const positiveInt = (v: string | null): number | undefined => {
  const n = numeric(v)
  return n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined
}
// A real calendar day: Date.parse rolls '2026-02-31' over to March 3 instead of refusing it, so compare the round trip.
const isoDate = (v: string | null) => {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined
  const t = Date.parse(`${v}T00:00:00Z`)
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v ? v : undefined
}
// A moment as the API takes it (date, time, zone), rewritten as toISOString's UTC form: one link, one cache key.
const isoDateTime = (v: string | null) => {
  if (!v || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(v) || !isoDate(v.slice(0, 10))) return undefined
  const t = Date.parse(v)
  return Number.isNaN(t) ? undefined : new Date(t).toISOString()
}
/** A budget as digits, or as brokers write it (`45k`, `35L`, `1.2cr`: src/shared/money.ts); anything else ignored. */
const budget = (v: string | null): number | undefined => numeric(v) ?? (v ? (parseMoney(v) ?? undefined) : undefined)
// Capped at the API's own limits (ListingQuery: search 200, property_type 100), so a parsed link is never refused.
const textValue = (v: string | null, max = 200) => (v && v.trim() ? v.trim().slice(0, max) : undefined)

export function parseListingFilters(query: URLSearchParams | Record<string, string | undefined>): ListingFilterState {
  const get = (k: string) => (query instanceof URLSearchParams ? query.get(k) : (query[k] ?? null))
  const f: ListingFilterState = {
    search: textValue(get('search')),
    post_type: oneOf(POST_TYPES, get('post_type')),
    status: oneOf(LISTING_STATUSES, get('status')),
    sale_or_rent: oneOf(SALE_OR_RENT, get('sale_or_rent')),
    property_type: textValue(get('property_type'), 100),
    location: oneOf(LOCATION_ZONES, get('location')),
    // Any amount (issue 32: the sliders' 1 Cr top, "no limit", is gone with them).
    min_budget: budget(get('min_budget')),
    max_budget: budget(get('max_budget')),
    date_from: isoDate(get('date_from')),
    date_to: isoDate(get('date_to')),
    country_id: positiveInt(get('country_id')),
    state_id: positiveInt(get('state_id')),
    city_id: positiveInt(get('city_id')),
    changed_since: isoDateTime(get('changed_since')),
    possible_duplicates: get('possible_duplicates') === 'true' ? true : undefined,
    review_requested: get('review_requested') === 'true' ? true : undefined,
    on_market_over_days: (() => {
      const n = positiveInt(get('on_market_over_days'))
      return n !== undefined && n <= 3650 ? n : undefined
    })(),
    page: positiveInt(get('page')),
    per_page: (() => {
      const n = positiveInt(get('per_page'))
      return n !== undefined && (PAGE_SIZES as readonly number[]).includes(n) ? (n as ListingFilterState['per_page']) : undefined
    })(),
  }
  if (f.min_budget === 0) delete f.min_budget
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as ListingFilterState
}

/** The query string of a filter state, keys in a stable order, empty values left out. */
export function serializeListingFilters(f: ListingFilterState): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '' && v !== null) params.set(k, String(v))
  params.sort()
  return params.toString()
}
