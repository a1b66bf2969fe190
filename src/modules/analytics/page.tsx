import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { DashboardStats } from '../listings/model'
import type { TopBrokers, Trends } from './model'

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
