// SPEC "Admin listings": the admin's home (/dashboard: welcome, then the grid) and the listings page
// (/dashboard/listings: the grid alone). The grid is the AdminListings island; its first view comes complete from here.
import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import { parseListingFilters, type ListingFilterState } from '../../../islands/listings/url-filters'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { permissionsOf } from '../../platform/policy/permissions'
import { DEFAULT_PAGE_SIZE } from '../../shared/constants'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { AdminWelcome } from '../dashboard/admin-welcome'
import { adminStats, type AdminStats } from '../dashboard/service'
import { listCountries } from '../geography/service'
import type { SavedSearchList } from '../saved-searches/model'
import { listSavedSearches } from '../saved-searches/service'
import { AdminListingForm, UpdateListingBody, type ListingPage, type ZoneCounts } from './model'
import { listListings, zoneCounts } from './store/read'
import { countReviewRequests, countSuspended } from './service'

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

/** The screen with the first page for the URL's filters, counts and forms, for the page routes (./pages.ts). */
export const view = async (ctx: AppContext, current: AdminListingsProps['current'], query: Record<string, string | undefined>, user: ShellUser) => {
  const filters: ListingFilterState = parseListingFilters(query)
  const viewer = viewerOf(user)
  const { page = 1, per_page = DEFAULT_PAGE_SIZE.dashboard, ...rest } = filters
  const initial = await listListings(ctx.db, ctx.counts, viewer, { ...rest, page, per_page })
  const savedSearches = await listSavedSearches(ctx, viewer)
  return createElement(AdminListingsPage, {
    user,
    current,
    initial,
    filters,
    stats: await adminStats(ctx, user),
    suspended: await countSuspended(ctx, viewer),
    reviewRequested: await countReviewRequests(ctx, viewer),
    zones: await zoneCounts(ctx.db, ctx.counts, viewer, rest),
    countries: (await listCountries(ctx.db)).map(({ id, name }) => ({ id, name })),
    rules: { create: formRules(AdminListingForm), edit: formRules(UpdateListingBody) },
    savedSearches,
  })
}
