import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { ListingPage } from '../../src/modules/listings/model'
import { DEFAULT_PAGE_SIZE, REFRESH_MS, type PAGE_SIZES } from '../../src/shared/constants'
import { ApiError } from '../shared/api'
import { fetchJson, retryUpTo } from '../shared/query'
import { LISTING_TEXT, listingsUrl } from './listing-format'
import { useListingFilters } from './useListingFilters'
import type { ListingFilterState } from './url-filters'

export type PageSize = (typeof PAGE_SIZES)[number]

/** The listing query retries once, and never on a 4xx (SPEC section 9). */
export const retryOnce = retryUpTo(1)

/**
 * A listing screen's page: filters mirrored in the URL, the server-rendered page as the first view of its own filters
 * (any other view is fetched), the previous rows kept while the next page loads, and a move to the new last page
 * when the list shrinks under the current one.
 */
export function useListingPage({ queryKey, initial, filters }: { queryKey: string; initial: ListingPage; filters: ListingFilterState }) {
  const f = useListingFilters({ initial: { ...filters, page: initial.page, per_page: initial.per_page as PageSize }, defaultPerPage: DEFAULT_PAGE_SIZE.dashboard })
  const [first] = useState(() => JSON.stringify(f.applied))
  const [renderedAt] = useState(() => Date.now())
  const query = useQuery({
    queryKey: [queryKey, f.applied],
    queryFn: () => fetchJson<ListingPage>(listingsUrl(f.applied)),
    initialData: JSON.stringify(f.applied) === first ? initial : undefined,
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS.dashboardListings,
    retry: retryOnce,
  })

  const list = query.data
  useEffect(() => {
    if (list && list.total_pages > 0 && (f.applied.page ?? 1) > list.total_pages) f.setPage(list.total_pages)
  }, [list, f.applied.page, f.setPage])

  // A failed view with other filters would otherwise show the previous filters' rows as if they matched.
  const rows = query.isError && query.isPlaceholderData ? undefined : list
  const loadError = query.isError ? (query.error instanceof ApiError && query.error.status && query.error.message ? query.error.message : LISTING_TEXT.loadFailed) : null
  return { f, query, list, rows, loadError, renderedAt }
}
