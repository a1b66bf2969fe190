import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { ListingFilterState } from '../../../islands/listings/url-filters'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { DashboardStats, ListingPage } from './model'
import type { DashboardVisit } from '../dashboard/model'
import type { SavedSearchList } from '../saved-searches/model'

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
