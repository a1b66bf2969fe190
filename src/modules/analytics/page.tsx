// Placeholder until the analytics screen lands (being written now): keeps the route compiling.
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import type { DashboardStats } from '../listings/model'
import type { TopBrokers, Trends } from './model'

export type AnalyticsProps = { user: ShellUser; initial: { dashboard: DashboardStats; trends: Trends; topBrokers: TopBrokers }; today: string }

export function AnalyticsPage({ user }: AnalyticsProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/analytics" section="Analytics">
      <h1 className="text-2xl font-bold">Analytics &amp; Reports</h1>
    </DashboardLayout>
  )
}
