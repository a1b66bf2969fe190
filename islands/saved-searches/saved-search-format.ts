// Saved searches in the browser (issue 17): their API's paths, texts, and the filters they carry.
import type { Alert, SavedSearch } from '../../src/modules/saved-searches/model'
import { SAVED_SEARCHES } from '../../src/shared/constants'
import { parseListingFilters, serializeListingFilters, type ListingFilterState } from '../listings/url-filters'
import type { ListingFilters } from '../listings/useListingFilters'

export const SAVED_SEARCHES_URL = '/api/saved-searches'
export const SAVED_SEARCHES_KEY = ['saved-searches'] as const

export const ALERT_LABELS: Record<Alert, string> = { OFF: 'No alerts', INSTANT: 'Instantly, in the app', DAILY: 'A daily email' }

export const SAVED_TEXT = {
  save: 'Save search',
  menu: 'Saved searches',
  none: 'No saved searches yet. Set filters, then Save search.',
  full: `You keep ${SAVED_SEARCHES.limit} saved searches: delete one to save another`,
  saved: (name: string) => `Search "${name}" saved`,
  deleted: (name: string) => `Search "${name}" deleted`,
  deleteFailed: 'Could not delete the saved search',
  nameRequired: 'Name is required',
  alert: (name: string, entryId: string) => `New in "${name}": ${entryId}`,
} as const

/** A new count as its badge says it: the count stops at the cap, shown "99+". */
export const newCountLabel = (n: number) => (n >= SAVED_SEARCHES.newCountCap ? `${SAVED_SEARCHES.newCountCap - 1}+` : String(n))

/** A saved search's filters as the screens hold them, through the URL's own rules (what a link would open). */
export const filterStateOf = (s: Pick<SavedSearch, 'filters'>): ListingFilters => {
  const { page: _p, per_page: _pp, ...filters } = parseListingFilters(new URLSearchParams(serializeListingFilters(s.filters as ListingFilterState)))
  return filters
}
