import type { ObjectSchema } from '../../../islands/shared/form-rules'
import { Island } from '../../platform/pages/island'
import { AccessDenied, DashboardLayout, type ShellUser } from '../../platform/pages/shell'
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

/** SPEC: 'Access Restricted' for everyone but brokers, inside the shell. */
export function BrokersOnly({ user }: { user: ShellUser }) {
  return (
    <DashboardLayout user={user} current="/dashboard/my-listings" section="My Listings">
      <AccessDenied title="Access Restricted" message="This page is only available for brokers." />
    </DashboardLayout>
  )
}
