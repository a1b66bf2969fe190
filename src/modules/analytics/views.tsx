import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { viewerOf } from '../../http/page-auth'
import { calendarDate } from '../../shared/dates'
import { AuditLogPage } from '../audit/page'
import { listAudit } from '../audit/read'
import type { ShellUser } from '../dashboard/layout'
import { AnalyticsPage } from './page'
import { dashboardStats } from './service'
import { topBrokers, trends } from './trends'

// Page views, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

export const analyticsView = (ctx: AppContext, user: ShellUser) => {
  const v = viewerOf(user)
  return createElement(AnalyticsPage, {
    user,
    initial: { dashboard: dashboardStats(ctx, v), trends: trends(ctx, v, {}), topBrokers: topBrokers(ctx, v, 10) },
    today: calendarDate(Date.now(), ctx.config.timeZone),
  })
}

export const auditView = (ctx: AppContext, user: ShellUser) =>
  createElement(AuditLogPage, { user, initial: listAudit(ctx.db, viewerOf(user), { page: 1, per_page: 25 }) })
