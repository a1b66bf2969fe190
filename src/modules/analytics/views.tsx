import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { calendarDate } from '../../shared/dates'
import { AuditLogPage } from '../audit/page'
import { listAudit } from '../audit/read'
import type { ShellUser } from '../../platform/pages/shell'
import { AnalyticsPage } from './page'
import { dashboardStats } from './service'
import { topBrokers, trends } from './trends'

// Page views, imported by the page routes on their first request (docs/decisions/004-lazy-start.md).

export const analyticsView = async (ctx: AppContext, user: ShellUser) => {
  const v = viewerOf(user)
  const [dashboard, trendsNow, top] = await Promise.all([dashboardStats(ctx, v), trends(ctx, v, {}), topBrokers(ctx, v, 10)])
  return createElement(AnalyticsPage, {
    user,
    initial: { dashboard, trends: trendsNow, topBrokers: top },
    today: calendarDate(Date.now(), ctx.config.timeZone),
  })
}

export const auditView = async (ctx: AppContext, user: ShellUser) =>
  createElement(AuditLogPage, { user, initial: await listAudit(ctx.db, viewerOf(user), { page: 1, per_page: 25 }) })
