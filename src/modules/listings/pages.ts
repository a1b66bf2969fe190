import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'

const hidden = { detail: { hide: true } }
const views = () => import('./views')

/**
 * The listing screens. `/dashboard` and `/dashboard/listings` show admins the admin grid and everyone else the broker
 * view (SPEC section 2); the first page comes from the URL's filters, so a shared link renders the same view.
 */
export const listingsPages = (ctx: AppContext) => {
  const page = (title: string, current: '/dashboard' | '/dashboard/listings') =>
    ({ query, request, cookie }: { query: Record<string, string | undefined>; request: Request; cookie: Parameters<ReturnType<typeof dashboardPage>>[0]['cookie'] }) =>
      dashboardPage(ctx, title, async (user) => (await views()).listingView(ctx, current, query, user))({ request, cookie })

  return new Elysia({ name: 'listings-pages' })
    .get('/dashboard', page('Dashboard', '/dashboard'), hidden)
    .get('/dashboard/listings', page('Listings', '/dashboard/listings'), hidden)
    // SPEC: 'Access Restricted' for everyone but brokers, inside the shell.
    .get('/dashboard/my-listings', dashboardPage(ctx, 'My Listings', async (user) => (await views()).myListingsView(ctx, user)), hidden)
}
