import { Elysia } from 'elysia'
import { createElement } from 'react'
import { parseListingFilters, type ListingFilterState } from '../../../islands/listings/url-filters'
import type { AppContext } from '../../http/context'
import { formRules } from '../../pages/form-rules'
import { DEFAULT_PAGE_SIZE } from '../../shared/constants'
import { dashboardPage } from '../dashboard'
import type { ShellUser } from '../dashboard/layout'
import { BrokersOnly } from '../dashboard/page'
import { adminStats } from '../dashboard/service'
import { dashboardStats } from '../analytics/service'
import { listCountries } from '../geography/service'
import { AdminListingsPage } from './admin-page'
import { BrokerListingsPage } from './broker-page'
import { AdminListingForm, CreateListingBody, UpdateListingBody } from './model'
import { MyListingsPage } from './my-listings-page'
import { listListings, myListings } from './read'
import { countSuspended } from './service'
import { viewerOf } from '../../http/page-auth'

const hidden = { detail: { hide: true } }

/**
 * The listing screens. `/dashboard` and `/dashboard/listings` show admins the admin grid and everyone else the broker
 * view (SPEC section 2); the first page comes from the URL's filters, so a shared link renders the same view.
 */
export const listingsPages = (ctx: AppContext) => {
  const { db } = ctx

  const listingView = (current: '/dashboard' | '/dashboard/listings') => (query: Record<string, string | undefined>) => (user: ShellUser) => {
    const filters: ListingFilterState = parseListingFilters(query)
    const viewer = viewerOf(user)
    const { page = 1, per_page = DEFAULT_PAGE_SIZE.dashboard, ...rest } = filters
    const initial = listListings(db, ctx.counts, viewer, { ...rest, page, per_page })
    if (user.role === 'BROKER')
      return createElement(BrokerListingsPage, { user, current, initial, filters, stats: dashboardStats(ctx, viewer), rules: formRules(CreateListingBody) })
    return createElement(AdminListingsPage, {
      user,
      current,
      initial,
      filters,
      stats: adminStats(ctx, user),
      suspended: countSuspended(ctx, viewer),
      countries: listCountries(db).map(({ id, name }) => ({ id, name })),
      rules: { create: formRules(AdminListingForm), edit: formRules(UpdateListingBody) },
    })
  }

  const page = (title: string, current: '/dashboard' | '/dashboard/listings') =>
    ({ query, request, cookie }: { query: Record<string, string | undefined>; request: Request; cookie: Parameters<ReturnType<typeof dashboardPage>>[0]['cookie'] }) =>
      dashboardPage(ctx, title, listingView(current)(query))({ request, cookie })

  return new Elysia({ name: 'listings-pages' })
    .get('/dashboard', page('Dashboard', '/dashboard'), hidden)
    .get('/dashboard/listings', page('Listings', '/dashboard/listings'), hidden)
    // SPEC: 'Access Restricted' for everyone but brokers, inside the shell.
    .get(
      '/dashboard/my-listings',
      dashboardPage(ctx, 'My Listings', (user) =>
        user.role === 'BROKER'
          ? createElement(MyListingsPage, { user, initial: myListings(db, viewerOf(user)), rules: formRules(CreateListingBody) })
          : createElement(BrokersOnly, { user }),
      ),
      hidden,
    )
}
