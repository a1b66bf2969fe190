import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import { IdParams } from './model'

const hidden = { detail: { hide: true } }
const guard = { ...guardOf('/dashboard/deals'), current: '/dashboard/deals', section: 'Deals', denied: 'Co-broke deals are for brokers and the admins of their city.' }

/**
 * The co-broking screens (issue 35; ./deals.page.tsx, loaded on their first request): the requests in and out and the
 * deals (/dashboard/deals), and one deal's thread (/dashboard/deals/:id); first view complete from the server.
 */
export const dealsPages = (ctx: AppContext) =>
  new Elysia({ name: 'deals-pages' })
    .get('/dashboard/deals', dashboardPage(ctx, 'Deals', async (user) => (await import('./deals.page')).view(ctx, user), guard), hidden)
    // Named, not `(c) =>`: Elysia parses what a handler's parameters name (the cookie, the params).
    .get('/dashboard/deals/:id', ({ params, request, cookie }) => dashboardPage(ctx, 'Deal', async (user) => (await import('./deals.page')).threadView(ctx, user, params.id), guard)({ request, cookie }), {
      ...hidden,
      params: IdParams,
    })
