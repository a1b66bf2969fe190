import { createElement } from 'react'
import { parseListingFilters, type ListingFilterState } from '../../../islands/listings/url-filters'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { can } from '../../platform/policy/permissions'
import { allows, guardOf } from '../../platform/pages/nav'
import { formRules } from '../../platform/pages/form-rules'
import { DEFAULT_PAGE_SIZE } from '../../shared/constants'
import { dashboardStats } from '../analytics/service'
import type { ShellUser } from '../../platform/pages/shell'
import { adminStats } from '../dashboard/service'
import { newSince, recordVisit } from '../dashboard/visits'
import { listCountries } from '../geography/service'
import { AdminListingsPage } from './admin-page'
import { BrokerListingsPage } from './broker-page'
import { AdminListingForm, CreateListingBody, UpdateListingBody } from './model'
import { BrokersOnly, MyListingsPage } from './my-listings-page'
import { listListings, myListings, zoneCounts } from './read'
import { countReviewRequests, countSuspended } from './service'
import { listSavedSearches } from '../saved-searches/service'

// Page views, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

/** Admins get the admin grid and everyone else the broker view; the first page comes from the URL's filters. */
export const listingView = async (ctx: AppContext, current: '/dashboard' | '/dashboard/listings', query: Record<string, string | undefined>, user: ShellUser) => {
  const { db } = ctx
  const filters: ListingFilterState = parseListingFilters(query)
  const viewer = viewerOf(user)
  const { page = 1, per_page = DEFAULT_PAGE_SIZE.dashboard, ...rest } = filters
  const initial = await listListings(db, ctx.counts, viewer, { ...rest, page, per_page })
  const savedSearches = await listSavedSearches(ctx, viewer)
  // Whoever manages listings beyond their own (admins) works in the admin grid; everyone else gets the broker view.
  if (!can(user.role, 'manage:listing:city')) {
    // Opening the dashboard is a visit: it shows what is new since the last one (issue 17).
    const visit = current === '/dashboard' ? await newSince(ctx, viewer, await recordVisit(db, user.id)) : null
    return createElement(BrokerListingsPage, { user, current, initial, filters, stats: await dashboardStats(ctx, viewer), rules: formRules(CreateListingBody), visit, savedSearches })
  }
  return createElement(AdminListingsPage, {
    user,
    current,
    initial,
    filters,
    stats: await adminStats(ctx, user),
    suspended: await countSuspended(ctx, viewer),
    reviewRequested: await countReviewRequests(ctx, viewer),
    zones: await zoneCounts(db, ctx.counts, viewer, rest),
    countries: (await listCountries(db)).map(({ id, name }) => ({ id, name })),
    rules: { create: formRules(AdminListingForm), edit: formRules(UpdateListingBody) },
    savedSearches,
  })
}

/** SPEC: 'Access Restricted' for everyone but brokers, inside the shell. */
export const myListingsView = async (ctx: AppContext, user: ShellUser) =>
  allows(user.role, guardOf('/dashboard/my-listings'))
    ? createElement(MyListingsPage, { user, initial: await myListings(ctx.db, viewerOf(user)), rules: formRules(CreateListingBody) })
    : createElement(BrokersOnly, { user })
