import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'

/** Analytics: admins only, first view complete from the server (./analytics.page.tsx, loaded on its first request). */
export const analyticsPages = (ctx: AppContext) =>
  new Elysia({ name: 'analytics-pages' }).get(
    '/dashboard/analytics',
    dashboardPage(ctx, 'Analytics', async (user) => (await import('./analytics.page')).view(ctx, user), {
      ...guardOf('/dashboard/analytics'),
      current: '/dashboard/analytics',
      section: 'Analytics',
      denied: "You don't have permission to access this page.",
    }),
    { detail: { hide: true } },
  )
