import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'

const hidden = { detail: { hide: true } }
const denied = "You don't have permission to access this page."
const views = () => import('./views')

/** Analytics and the audit log: admins only, first view complete from the server. */
export const insightsPages = (ctx: AppContext) => {
  return new Elysia({ name: 'insights-pages' })
    .get(
      '/dashboard/analytics',
      dashboardPage(ctx, 'Analytics', async (user) => (await views()).analyticsView(ctx, user), {
        ...guardOf('/dashboard/analytics'),
        current: '/dashboard/analytics',
        section: 'Analytics',
        denied,
      }),
      hidden,
    )
    .get(
      '/dashboard/audit',
      dashboardPage(ctx, 'Audit Logs', async (user) => (await views()).auditView(ctx, user), {
        ...guardOf('/dashboard/audit'),
        current: '/dashboard/audit',
        section: 'Audit Logs',
        denied,
      }),
      hidden,
    )
}
