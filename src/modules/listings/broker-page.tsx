// Placeholder until the broker listings screen lands (being written now): keeps the route compiling.
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { ListingFilterState } from '../../../islands/listings/url-filters'
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import type { DashboardStats, ListingPage } from './model'

export type BrokerListingsProps = {
  user: ShellUser
  current: '/dashboard' | '/dashboard/listings'
  initial: ListingPage
  filters: ListingFilterState
  stats: DashboardStats
  rules: ObjectSchema
}

export function BrokerListingsPage({ user, current, initial }: BrokerListingsProps) {
  return (
    <DashboardLayout user={user} current={current} section={current === '/dashboard' ? 'Dashboard' : 'Listings'}>
      <p>{initial.total} listings</p>
    </DashboardLayout>
  )
}
