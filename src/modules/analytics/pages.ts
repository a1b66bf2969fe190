import { Elysia } from 'elysia'
import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { calendarDate } from '../../shared/dates'
import { listAudit } from '../audit/read'
import { AuditLogPage } from '../audit/page'
import { dashboardPage } from '../dashboard'
import { AccessDenied, type ShellUser } from '../dashboard/layout'
import { AnalyticsPage } from './page'
import { dashboardStats } from './service'
import { topBrokers, trends } from './trends'
import { viewerOf } from '../../http/page-auth'

const hidden = { detail: { hide: true } }
const denied = createElement(AccessDenied, { message: "You don't have permission to access this page." })
const admins = ['MASTER_ADMIN', 'MODULE_ADMIN'] as const

/** Analytics and the audit log: admins only, first view complete from the server. */
export const insightsPages = (ctx: AppContext) => {
  return new Elysia({ name: 'insights-pages' })
    .get(
      '/dashboard/analytics',
      dashboardPage(
        ctx,
        'Analytics',
        (user) => {
          const v = viewerOf(user)
          return createElement(AnalyticsPage, {
            user,
            initial: { dashboard: dashboardStats(ctx, v), trends: trends(ctx, v, {}), topBrokers: topBrokers(ctx, v, 10) },
            today: calendarDate(Date.now(), ctx.config.timeZone),
          })
        },
        { roles: admins, current: '/dashboard/analytics', section: 'Analytics', denied },
      ),
      hidden,
    )
    .get(
      '/dashboard/audit',
      dashboardPage(ctx, 'Audit Logs', (user) => createElement(AuditLogPage, { user, initial: listAudit(ctx.db, viewerOf(user), { page: 1, per_page: 25 }) }), {
        roles: admins,
        current: '/dashboard/audit',
        section: 'Audit Logs',
        denied,
      }),
      hidden,
    )
}
