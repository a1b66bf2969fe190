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
import { listListings } from './read'

export type BrokerListingsProps = {
  user: ShellUser
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
export function BrokerListingsPage({ user, current, initial, filters, stats, rules, visit, savedSearches }: BrokerListingsProps) {
  // Only what the island shows goes into the page's props, not the whole session user.
  const viewer = { id: user.id, full_name: user.full_name, city_name: user.city_name, state_name: user.state_name, country_name: user.country_name }
  return (
    <DashboardLayout user={user} current={current} section={current === '/dashboard' ? 'Dashboard' : 'Listings'}>
      <Island name="BrokerListings" props={{ user: viewer, initial, filters, stats, rules, visit, savedSearches }} />
    </DashboardLayout>
  )
}

/** The screen with the first page for the URL's filters and statistics, for the page routes (./pages.ts). */
export const view = async (ctx: AppContext, current: BrokerListingsProps['current'], query: Record<string, string | undefined>, user: ShellUser) => {
  const filters: ListingFilterState = parseListingFilters(query)
  const viewer = viewerOf(user)
  const { page = 1, per_page = DEFAULT_PAGE_SIZE.dashboard, ...rest } = filters
  const initial = await listListings(ctx.db, ctx.counts, viewer, { ...rest, page, per_page })
  const savedSearches = await listSavedSearches(ctx, viewer)
  // Opening the dashboard is a visit: it shows what is new since the last one (issue 17).
  const visit = current === '/dashboard' ? await newSince(ctx, viewer, await recordVisit(ctx.db, user.id)) : null
  return createElement(BrokerListingsPage, { user, current, initial, filters, stats: await dashboardStats(ctx, viewer), rules: formRules(CreateListingBody), visit, savedSearches })
}
