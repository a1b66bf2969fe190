import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import { parseListingFilters, type ListingFilterState } from '../../../islands/listings/url-filters'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { DEFAULT_PAGE_SIZE } from '../../shared/constants'
import { dashboardStats } from '../analytics/service'
import type { DashboardVisit } from '../dashboard/model'
import { newSince, recordVisit } from '../dashboard/visits'
import type { SavedSearchList } from '../saved-searches/model'
import { listSavedSearches } from '../saved-searches/service'
import { CreateListingBody, type DashboardStats, type ListingPage } from './model'
import { listListings } from './store/read'
import { getUser } from '../users/store/read'

export type BrokerListingsProps = {
  user: ShellUser
  /** The broker's own phone: a new listing's contact starts with it (issue 32). */
  phone: string | null
  current: '/dashboard' | '/dashboard/listings'
  initial: ListingPage
  filters: ListingFilterState
  stats: DashboardStats
  rules: ObjectSchema
  /** On the dashboard: what is new since the broker's last visit (issue 17); null on the listings page. */
  visit: DashboardVisit | null
  /** The broker's saved searches with their new counts (issue 17). */
  savedSearches: SavedSearchList
}

/**
 * SPEC "Broker dashboard (listings)" at /dashboard and /dashboard/listings: the shell and the BrokerListings island,
 * whose first view (the page for the URL's filters, the statistics) is complete in the server's HTML.
 */
export function BrokerListingsPage({ user, phone, current, initial, filters, stats, rules, visit, savedSearches }: BrokerListingsProps) {
  // Only what the island shows goes into the page's props, not the whole session user.
  const viewer = { id: user.id, full_name: user.full_name, phone, city_id: user.city_id, city_name: user.city_name, state_name: user.state_name, country_name: user.country_name }
  return (
    <DashboardLayout user={user} current={current} section={current === '/dashboard' ? 'Dashboard' : 'Listings'}>
      <Island name="BrokerListings" props={{ user: viewer, initial, filters, stats, rules, visit, savedSearches }} />
    </DashboardLayout>
  )
}

/**
 * The screen with the first page for the URL's filters and statistics, for the page routes (./pages.ts); `allCities`:
 * the broker widened the list to every city (CITY_SCOPE_COOKIE).
 */
export const view = async (ctx: AppContext, current: BrokerListingsProps['current'], query: Record<string, string | undefined>, user: ShellUser, allCities = false) => {
  const filters: ListingFilterState = parseListingFilters(query)
  // My city first (issue 32): a link that names no city opens on the broker's own, unless they chose every city.
  if (filters.city_id === undefined && !allCities && user.city_id !== null) filters.city_id = user.city_id
  const viewer = viewerOf(user)
  const { page = 1, per_page = DEFAULT_PAGE_SIZE.dashboard, ...rest } = filters
  const initial = await listListings(ctx.db, ctx.counts, viewer, { ...rest, page, per_page })
  const savedSearches = await listSavedSearches(ctx, viewer)
  // Opening the dashboard is a visit: it shows what is new since the last one (issue 17).
  const visit = current === '/dashboard' ? await newSince(ctx, viewer, await recordVisit(ctx.db, user.id)) : null
  const { phone } = await getUser(ctx.db, viewer, user.id)
  return createElement(BrokerListingsPage, { user, phone, current, initial, filters, stats: await dashboardStats(ctx, viewer), rules: formRules(CreateListingBody), visit, savedSearches })
}
