import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { can } from '../../platform/policy/permissions'
import type { AfterListingWrite } from './after-write'
import { judgeRenewLink, renewByLink } from './renew'

const hidden = { detail: { hide: true } }

/**
 * The listing screens (each ./<screen>.page.tsx, loaded on its first request). `/dashboard` and `/dashboard/listings`
 * show whoever manages listings beyond their own (admins) the admin grid and everyone else the broker view (SPEC
 * section 2); the first page comes from the URL's filters, so a shared link renders the same view. `/renew/:token`
 * is a mailed renew link's: GET shows the offer, POST (its button) renews.
 */
export const listingsPages = (ctx: AppContext, written: AfterListingWrite) => {
  const page = (title: string, current: '/dashboard' | '/dashboard/listings') =>
    ({ query, request, cookie }: { query: Record<string, string | undefined>; request: Request; cookie: Parameters<ReturnType<typeof dashboardPage>>[0]['cookie'] }) =>
      dashboardPage(ctx, title, async (user) =>
        can(user.role, 'manage:listing:city') ? (await import('./admin-listings.page')).view(ctx, current, query, user) : (await import('./broker-listings.page')).view(ctx, current, query, user),
      )({ request, cookie })

  return (
    new Elysia({ name: 'listings-pages' })
      .get('/dashboard', page('Dashboard', '/dashboard'), hidden)
      .get('/dashboard/listings', page('Listings', '/dashboard/listings'), hidden)
      // SPEC: 'Access Restricted' for everyone but brokers, inside the shell.
      .get('/dashboard/my-listings', dashboardPage(ctx, 'My Listings', async (user) => (await import('./my-listings.page')).view(ctx, user)), hidden)
      .get('/renew/:token', async ({ params }) => (await import('./renew.page')).offerPage(ctx, tokenOf(params), await judgeRenewLink(ctx, tokenOf(params))), hidden)
      .post('/renew/:token', async ({ params }) => (await import('./renew.page')).renewedPage(ctx, await renewByLink(ctx, written, tokenOf(params))), hidden)
  )
}

/** The path's token; one that is not even valid percent-encoding (Elysia gives null) is simply not a token of ours. */
const tokenOf = (params: { token: string | null }) => params.token ?? ''
