import { createElement } from 'react'
import type { ObjectSchema } from '../../../islands/shared/form-rules'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { allows, guardOf } from '../../platform/pages/nav'
import { AccessDenied, DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { CreateListingBody, type Listing } from './model'
import { myListings } from './store/read'
import { getUser } from '../users/store/read'

/** `phone`: the broker's own, a new listing's first contact (issue 32). */
export type MyListingsProps = { user: ShellUser; phone: string | null; initial: Listing[]; rules: ObjectSchema }

/** SPEC "My Listings (BROKER)": the shell and the MyListings island, its first view complete in the server's HTML. */
export function MyListingsPage({ user, phone, initial, rules }: MyListingsProps) {
  const viewer = { id: user.id, full_name: user.full_name, phone, city_name: user.city_name, state_name: user.state_name, country_name: user.country_name }
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

/** SPEC: 'Access Restricted' for everyone but brokers, inside the shell; the screen with its listings for the page route. */
export const view = async (ctx: AppContext, user: ShellUser) =>
  allows(user.role, guardOf('/dashboard/my-listings'))
    ? createElement(MyListingsPage, {
        user,
        phone: (await getUser(ctx.db, viewerOf(user), user.id)).phone,
        initial: await myListings(ctx.db, viewerOf(user), ctx.pages),
        rules: formRules(CreateListingBody),
      })
    : createElement(BrokersOnly, { user })
