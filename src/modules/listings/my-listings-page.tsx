import type { ObjectSchema } from '../../../islands/shared/form-rules'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import type { Listing } from './model'

export type MyListingsProps = { user: ShellUser; initial: Listing[]; rules: ObjectSchema }

/** SPEC "My Listings (BROKER)": the shell and the MyListings island, its first view complete in the server's HTML. */
export function MyListingsPage({ user, initial, rules }: MyListingsProps) {
  const viewer = { id: user.id, full_name: user.full_name, city_name: user.city_name, state_name: user.state_name, country_name: user.country_name }
  return (
    <DashboardLayout user={user} current="/dashboard/my-listings" section="My Listings">
      <Island name="MyListings" props={{ user: viewer, initial, rules }} />
    </DashboardLayout>
  )
}
