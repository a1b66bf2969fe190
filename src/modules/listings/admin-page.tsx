// Placeholder until the admin listings grid lands (being written now): keeps the route compiling.
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { ListingFilterState } from '../../../islands/listings/url-filters'
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import { AdminWelcome } from '../dashboard/page'
import type { AdminStats } from '../dashboard/service'
import type { ListingPage } from './model'

export type AdminListingsProps = {
  user: ShellUser
  current: '/dashboard' | '/dashboard/listings'
  initial: ListingPage
  filters: ListingFilterState
  stats: AdminStats
  /** Suspended listings in the admin's scope, for the banner's "needing attention". */
  suspended: number
  countries: { id: number; name: string }[]
  rules: { create: ObjectSchema; edit: ObjectSchema }
}

export function AdminListingsPage({ user, current, initial, stats }: AdminListingsProps) {
  return (
    <DashboardLayout user={user} current={current} section={current === '/dashboard' ? 'Dashboard' : 'Listings'}>
      {current === '/dashboard' && <AdminWelcome user={user} stats={stats} />}
      <h2 className="text-xl font-bold">Listings Management</h2>
      <p>{initial.total}</p>
    </DashboardLayout>
  )
}
