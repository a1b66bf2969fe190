// The listing filters of a screen, mirrored in the URL query (SPEC section 5 "Listing filters from the URL query"):
// a shared link reopens the same view. Used by the broker dashboard and the admin grid.
import { useCallback, useEffect, useMemo, useState } from 'react'
import { SEARCH_DEBOUNCE_MS } from '../../src/shared/constants'
import { useDebounce } from '../shared/useDebounce'
import { serializeListingFilters, type ListingFilterState } from './url-filters'

/** Fields typed or dragged: applied once they have stayed unchanged for 300 ms, so a keystroke is not a request. */
const SETTLING = ['search', 'min_budget', 'max_budget'] as const
type Settling = Pick<ListingFilterState, (typeof SETTLING)[number]>

/** The filters alone: the state without page and per_page. */
export type ListingFilters = Omit<ListingFilterState, 'page' | 'per_page'>

const FILTER_KEYS = [
  'search',
  'post_type',
  'status',
  'sale_or_rent',
  'property_type',
  'location',
  'min_budget',
  'max_budget',
  'date_from',
  'date_to',
  'country_id',
  'state_id',
  'city_id',
  'changed_since',
  'review_requested',
  'on_market_over_days',
] as const satisfies readonly (keyof ListingFilters)[]

/** Drops empty values (undefined, null, '', NaN), so equal views have equal keys. */
export function compactFilters<T extends ListingFilterState>(f: T): T {
  return Object.fromEntries(
    Object.entries(f).filter(([, v]) => v !== undefined && v !== null && v !== '' && !(typeof v === 'number' && Number.isNaN(v))),
  ) as T
}

const settlingOf = (f: ListingFilterState): Settling => compactFilters(Object.fromEntries(SETTLING.map((k) => [k, f[k]])) as Settling)
const sameSettling = (a: Settling, b: Settling) => SETTLING.every((k) => a[k] === b[k])

export type UseListingFilters = {
  /** What the list shows: filters plus page and per_page. The query key and the URL follow it. */
  applied: ListingFilterState
  /** What the controls show: `applied` with the text and budget values as typed, before they settle. */
  view: ListingFilterState
  /** Whether any filter (not paging) is set, as the controls show it. */
  active: boolean
  /** Sets filters; the page goes back to 1. `undefined` or '' clears a filter. */
  change: (patch: Partial<ListingFilters>) => void
  /** Every filter off, page 1; the page size stays. */
  clear: () => void
  /** These filters and no others, page 1, applied at once (a saved search opened); the page size stays. */
  replace: (filters: ListingFilters) => void
  setPage: (page: number) => void
  /** Another page size starts again at page 1. */
  setPerPage: (perPage: NonNullable<ListingFilterState['per_page']>) => void
}

type Options = {
  /** The state the server rendered (parseListingFilters of the request's query, with its page and page size). */
  initial: ListingFilterState
  /** Left out of the URL when it is the page size in use, so clean links stay clean. */
  defaultPerPage: NonNullable<ListingFilterState['per_page']>
}

/** The URL of the current page with `f` as its query; page 1 and the default page size are left out. */
export function urlWithFilters(location: { pathname: string; hash: string }, f: ListingFilterState, defaultPerPage: number): string {
  const { page, per_page, ...rest } = f
  const qs = serializeListingFilters({ ...rest, page: page && page > 1 ? page : undefined, per_page: per_page && per_page !== defaultPerPage ? per_page : undefined })
  return `${location.pathname}${qs ? `?${qs}` : ''}${location.hash}`
}

export function useListingFilters({ initial, defaultPerPage }: Options): UseListingFilters {
  const [applied, setApplied] = useState<ListingFilterState>(() => compactFilters({ per_page: defaultPerPage, page: 1, ...initial }))
  const [draft, setDraft] = useState<Settling>(() => settlingOf(initial))
  const settled = useDebounce(draft, SEARCH_DEBOUNCE_MS)

  // A settled draft becomes the applied filter (page 1); an unchanged one (e.g. after clear()) does nothing.
  useEffect(() => {
    setApplied((a) => (sameSettling(settlingOf(a), settled) ? a : compactFilters({ ...a, ...Object.fromEntries(SETTLING.map((k) => [k, settled[k]])), page: 1 })))
  }, [settled])

  // The URL follows what is shown, without a history entry per keystroke (SPEC: history.replaceState).
  useEffect(() => {
    if (typeof window === 'undefined') return
    const next = urlWithFilters(window.location, applied, defaultPerPage)
    if (next !== window.location.pathname + window.location.search + window.location.hash) window.history.replaceState(window.history.state, '', next)
  }, [applied, defaultPerPage])

  const change = useCallback((patch: Partial<ListingFilters>) => {
    const settling = Object.keys(patch).filter((k) => (SETTLING as readonly string[]).includes(k))
    const direct = Object.keys(patch).filter((k) => !(SETTLING as readonly string[]).includes(k))
    if (settling.length) setDraft((d) => compactFilters({ ...d, ...Object.fromEntries(settling.map((k) => [k, patch[k as keyof ListingFilters]])) }))
    if (direct.length) setApplied((a) => compactFilters({ ...a, ...Object.fromEntries(direct.map((k) => [k, patch[k as keyof ListingFilters]])), page: 1 }))
  }, [])

  const clear = useCallback(() => {
    setDraft({})
    setApplied((a) => ({ page: 1, per_page: a.per_page ?? defaultPerPage }))
  }, [defaultPerPage])

  const replace = useCallback(
    (filters: ListingFilters) => {
      setDraft(settlingOf(filters))
      setApplied((a) => compactFilters({ ...filters, page: 1, per_page: a.per_page ?? defaultPerPage }))
    },
    [defaultPerPage],
  )

  const setPage = useCallback((page: number) => setApplied((a) => ({ ...a, page: Math.max(1, page) })), [])
  const setPerPage = useCallback((per_page: NonNullable<ListingFilterState['per_page']>) => setApplied((a) => ({ ...a, per_page, page: 1 })), [])

  const view = useMemo(() => compactFilters<ListingFilterState>({ ...Object.fromEntries(Object.entries(applied).filter(([k]) => !(SETTLING as readonly string[]).includes(k))), ...draft }), [applied, draft])
  const active = FILTER_KEYS.some((k) => view[k] !== undefined)

  return { applied, view, active, change, clear, replace, setPage, setPerPage }
}
