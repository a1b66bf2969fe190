// SPEC "Admin listings": the admin's home (/dashboard: welcome, then the grid) and the listings page
// (/dashboard/listings: the grid alone). The grid is the AdminListings island; its first view comes complete from here.
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { ListingFilterState } from '../../../islands/listings/url-filters'
import { Island } from '../../platform/pages/island'
import { permissionsOf } from '../../platform/policy/permissions'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { AdminWelcome } from '../dashboard/page'
import type { AdminStats } from '../dashboard/service'
import type { ListingPage, ZoneCounts } from './model'
import type { SavedSearchList } from '../saved-searches/model'

export type AdminListingsProps = {
  user: ShellUser
  current: '/dashboard' | '/dashboard/listings'
  initial: ListingPage
  filters: ListingFilterState
  stats: AdminStats
  /** Suspended listings in the admin's scope, for the banner's "needing attention". */
  suspended: number
  /** Suspensions by an admin whose owner asks for a review (issue 29). */
  reviewRequested: number
  /** The zone chips' counts for the filters. */
  zones: ZoneCounts
  countries: { id: number; name: string }[]
  rules: { create: ObjectSchema; edit: ObjectSchema }
  /** The admin's saved searches with their new counts (issue 17). */
  savedSearches: SavedSearchList
}

export function AdminListingsPage({ user, current, initial, filters, stats, suspended, reviewRequested, zones, countries, rules, savedSearches }: AdminListingsProps) {
  const home = current === '/dashboard'
  // Only admins get this page (the route decides); the island decides what to show from the permissions, not the role.
  const actor = {
    id: user.id,
    permissions: permissionsOf(user.role),
    full_name: user.full_name,
    city_id: user.city_id,
    city_name: user.city_name,
    state_name: user.state_name,
    country_name: user.country_name,
  }
  return (
    <DashboardLayout user={user} current={current} section={home ? 'Dashboard' : 'Listings'}>
      {home && <AdminWelcome user={user} stats={stats} />}
      <Island
        name="AdminListings"
        props={{ actor, initial, filters, suspended, reviewRequested, zones, countries, rules, savedSearches, headingLevel: home ? 2 : 1 }}
      />
    </DashboardLayout>
  )
}
