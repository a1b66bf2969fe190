import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'

/** The audit log: admins only, its first page from the server (./audit.page.tsx, loaded on its first request). */
export const auditPages = (ctx: AppContext) =>
  new Elysia({ name: 'audit-pages' }).get(
    '/dashboard/audit',
    dashboardPage(ctx, 'Audit Logs', async (user) => (await import('./audit.page')).view(ctx, user), {
      ...guardOf('/dashboard/audit'),
      current: '/dashboard/audit',
      section: 'Audit Logs',
      denied: "You don't have permission to access this page.",
    }),
    { detail: { hide: true } },
  )
