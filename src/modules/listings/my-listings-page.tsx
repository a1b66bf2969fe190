// Placeholder until the My Listings screen lands (being written now): keeps the route compiling.
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import type { Listing } from './model'

export type MyListingsProps = { user: ShellUser; initial: Listing[]; rules: ObjectSchema }

export function MyListingsPage({ user, initial }: MyListingsProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/my-listings" section="My Listings">
      <h1 className="text-2xl font-bold">My Listings</h1>
      <p>{initial.length}</p>
    </DashboardLayout>
  )
}
