import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { ToleranceBody } from '../matches/model'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { CityBody, CountryBody, ListingExpiryBody, StateBody, type CountryTree } from './model'
import { getHierarchy } from './service'

/** The Geographic screen (SPEC section 7): the tree of places, to manage. */

export function GeographicPage({ user, hierarchy }: { user: ShellUser; hierarchy: CountryTree[] }) {
  return (
    <DashboardLayout user={user} current="/dashboard/geographic" section="Geographic">
      {
        <>
          <h1 className="text-2xl font-bold">Geographic Management</h1>
          <p className="mb-6 mt-1 text-base-content/70">Countries, states and cities of the network.</p>
          <Island
            name="GeoTree"
            props={{ hierarchy, rules: { country: formRules(CountryBody), state: formRules(StateBody), city: formRules(CityBody) }, toleranceRules: formRules(ToleranceBody), expiryRules: formRules(ListingExpiryBody) }}
          />
        </>
      }
    </DashboardLayout>
  )
}

/** The screen with its data, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) => createElement(GeographicPage, { user, hierarchy: await getHierarchy(ctx.db) })
