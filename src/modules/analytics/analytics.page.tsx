import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { DashboardStats } from '../listings/model'
import { calendarDate } from '../../shared/dates'
import type { TopBrokers, Trends } from './model'
import { dashboardStats } from './service'
import { topBrokers, trends } from './trends'

export type AnalyticsProps = { user: ShellUser; initial: { dashboard: DashboardStats; trends: Trends; topBrokers: TopBrokers }; today: string }

/**
 * /dashboard/analytics (SPEC "Analytics & Reports"), admins only: the AnalyticsBoard island, complete in the server's
 * HTML (stat cards, pie, top brokers; the trends chart's box at its final size, the chart drawn on hydration).
 */
export function AnalyticsPage({ user, initial, today }: AnalyticsProps) {
  // Only what the screen and its report use travels to the browser.
  const reportUser = { full_name: user.full_name, role: user.role, city_name: user.city_name }
  return (
    <DashboardLayout user={user} current="/dashboard/analytics" section="Analytics">
      <Island name="AnalyticsBoard" props={{ user: reportUser, initial, today }} />
    </DashboardLayout>
  )
}

/** The screen with its data, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) => {
  const v = viewerOf(user)
  const [dashboard, trendsNow, top] = await Promise.all([dashboardStats(ctx, v), trends(ctx, v, {}), topBrokers(ctx, v, 10)])
  return createElement(AnalyticsPage, {
    user,
    initial: { dashboard, trends: trendsNow, topBrokers: top },
    today: calendarDate(Date.now(), ctx.config.timeZone),
  })
}
