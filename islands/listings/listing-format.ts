// Texts, formats and API helpers of the listing screens (SPEC sections 2, 7, 8): one place for each, shared by the
// broker dashboard, My Listings and the admin grid. Keep these exports stable: islands/listings/admin/* imports them.
import type { QueryClient } from '@tanstack/react-query'
import type { Listing } from '../../src/modules/listings/model'
import { EXPIRING_STATUSES, EXPIRY_REMINDER_MS, POST_TYPE_LABELS, type ListingStatus } from '../../src/shared/constants'
import { PROPERTY_TYPES } from '../../src/shared/property-types'
import { MATCH_QUERY_KEYS } from '../matches/match-format'
import { ApiError } from '../shared/api'
import type { FieldErrors } from '../shared/form-rules'
import { serializeListingFilters, type ListingFilterState } from './url-filters'
import { showingText } from '../shared/Pagination'

export { formatSize } from '../../src/shared/currency'
export { formatMoney } from '../../src/shared/money'

/** The signed-in user as the listing screens need them (their currency comes from `country_name`). */
export type ListingViewer = { id: number; full_name: string; phone?: string | null; city_id?: number | null; city_name: string | null; state_name: string | null; country_name: string | null }

/** Copy of SPEC sections 2 and 8, one place each. */
export const LISTING_TEXT = {
  searchPlaceholder: 'Search by Entry ID, Broker Name, or details...',
  emptyTitle: 'No Listings Found',
  emptyText: 'No listings match your current filters.',
  loadErrorTitle: 'Error Loading Listings',
  loadFailed: 'Failed to load listings',
  yourListing: 'Your Listing',
  formFailed: 'An error occurred',
  deleteConfirm: (entryId: string) => `Are you sure you want to delete listing ${entryId}? This action cannot be undone.`,
  my: {
    title: 'My Listings',
    empty: "You haven't created any listings yet or no listings match your current filters.",
    loadFailed: 'Failed to load your listings',
    created: 'Listing created successfully!',
    updated: 'Listing updated successfully!',
    deleted: 'Listing deleted successfully!',
    suspended: 'Listing suspended successfully!',
    reactivated: 'Listing reactivated successfully!',
    createFailed: 'Failed to create listing',
    updateFailed: 'Failed to update listing',
    deleteFailed: 'Failed to delete listing',
    statusFailed: 'Failed to update listing status',
    renewFailed: 'Failed to renew listing',
  },
} as const

export const STATUS_LABELS: Record<ListingStatus, string> = { ACTIVE: 'Active', ON_HOLD: 'On Hold', CLOSED: 'Closed', SUSPENDED: 'Suspended', EXPIRED: 'Expired' }
const STATUS_BADGES: Record<ListingStatus, string> = { ACTIVE: 'badge-success', ON_HOLD: 'badge-warning', CLOSED: 'badge-ghost', SUSPENDED: 'badge-error', EXPIRED: 'badge-neutral' }
/** The daisyUI badge class of a status: green active, amber on hold, grey closed, red suspended, dark expired. */
export const statusBadgeClass = (status: ListingStatus) => STATUS_BADGES[status]

export const postTypeLabel = (postType: Listing['post_type']) => POST_TYPE_LABELS[postType]
/** REQ blue, AVL teal, so the two kinds read apart at a glance. */
export const postTypeBadgeClass = (postType: Listing['post_type']) => (postType === 'REQ' ? 'badge-info' : 'badge-accent')
export const saleOrRentLabel = (v: Listing['sale_or_rent']) => (v === 'SALE' ? 'Sale' : 'Rent')

/** Property types of the network, offered as suggestions (the field stays free text): src/shared/property-types.ts. */
export const PROPERTY_TYPE_SUGGESTIONS = PROPERTY_TYPES

// In UTC, so the server's render and the browser's hydration print the same day.
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/** A listing's date ('2026-11-21') as 'Nov 21, 2026'; the input unchanged if it is not a date. */
export function formatListingDate(date: string): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`)
  return Number.isNaN(d.getTime()) ? date : DAY.format(d)
}

/** When a listing leaves the network, as a day ('Dec 21, 2026'), or a dash when it never does. */
export const formatExpiry = (expiresAt: string | null) => (expiresAt ? formatListingDate(expiresAt) : '—')

/**
 * Ending soon (issue 32): still on offer (active or on hold: what the reminder and the navigation's count name, and
 * what may be renewed) and ending within the reminder's 3 days.
 */
export const isExpiringSoon = (l: Pick<Listing, 'status' | 'expires_at'>, now = Date.now()) => {
  if (!l.expires_at || !(EXPIRING_STATUSES as readonly string[]).includes(l.status)) return false
  const left = Date.parse(l.expires_at) - now
  return left > 0 && left <= EXPIRY_REMINDER_MS
}

/** 'Pune, Maharashtra'. */
export const listingPlace = (l: Pick<Listing, 'city_name' | 'state_name'>) => [l.city_name, l.state_name].filter(Boolean).join(', ')

/** 'Showing 26 to 50 of 312 results' (SPEC section 9). */
export const showingResults = (page: number, perPage: number, total: number): string => showingText(page, perPage, total, 'results')

/** Only http(s) links are offered as 'View on map': anything else (javascript:, data:) is not a map. */
export const safeMapUrl = (url: string | null | undefined) => (url && /^https?:\/\//i.test(url.trim()) ? url.trim() : null)

/** `/api/listings/?…` for a filter state (page and per_page included when set). */
export const listingsUrl = (f: ListingFilterState) => {
  const qs = serializeListingFilters(f)
  return `/api/listings/${qs ? `?${qs}` : ''}`
}

/** `/api/listings/zones?…`: how many listings of each zone match the filters (paging and any zone filter left out). */
export const zonesUrl = (f: ListingFilterState) => {
  const { page: _page, per_page: _perPage, location: _zone, ...filters } = f
  const qs = serializeListingFilters(filters)
  return `/api/listings/zones${qs ? `?${qs}` : ''}`
}

/** The xlsx export of the same filters (no paging: the export holds every match). */
export const exportUrl = (f: ListingFilterState) => {
  const { page: _page, per_page: _perPage, ...filters } = f
  const qs = serializeListingFilters(filters)
  return `/api/listings/export/xlsx${qs ? `?${qs}` : ''}`
}

/** 'listings-2026-11-21.xlsx', by the browser's calendar (the server names it the same way). */
export function exportFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `listings-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.xlsx`
}

/**
 * Every cached view of listings, by key. After any change to a listing all of them reload (SPEC section 7): the
 * dashboard page, My Listings, the admin grid and its status counts, the statistics, and the matches a change may
 * make or break (issue 15: the rows' counts, a listing's Matches tab, the inbox).
 */
export const LISTING_QUERY_KEYS = [
  ['listings'],
  ['my-listings'],
  ['admin-listings'],
  ['admin-status-counts'],
  ['dashboard-stats'],
  MATCH_QUERY_KEYS.counts,
  MATCH_QUERY_KEYS.listing,
  MATCH_QUERY_KEYS.inbox,
] as const

export function invalidateListingQueries(queryClient: QueryClient): Promise<void> {
  return Promise.all(LISTING_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined)
}

/** The server's detail (or message) of a failed call, else `fallback`. Network failures (status 0) get the fallback. */
export function listingErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status !== 0) {
    const detail = (err.body as { detail?: unknown } | null)?.detail
    if (typeof detail === 'string' && detail) return detail
    if (err.message && !err.message.startsWith('HTTP ')) return err.message
  }
  return fallback
}

/**
 * A failed save as the form shows it: a 422 list (`[{loc: ['body', field], msg}]`) becomes field messages for the
 * fields the form has (others join the banner); any other failure is one banner text, the server's or `fallback`.
 */
export function describeListingError(err: unknown, fields: readonly string[], fallback: string): { fields: FieldErrors; banner: string | null } {
  const detail = err instanceof ApiError ? (err.body as { detail?: unknown } | null)?.detail : undefined
  if (Array.isArray(detail)) {
    const found: FieldErrors = {}
    const other: string[] = []
    for (const d of detail as { loc?: (string | number)[]; msg?: string }[]) {
      const field = String(d.loc?.at(-1) ?? '')
      if (!d.msg) continue
      if (fields.includes(field)) found[field] ??= d.msg
      else other.push(d.msg)
    }
    if (Object.keys(found).length || other.length) return { fields: found, banner: other.length ? other.join(' ') : null }
  }
  return { fields: {}, banner: listingErrorMessage(err, fallback) }
}
