import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { ToleranceBody } from '../matches/model'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { CityBody, CountryBody, ListingExpiryBody, StateBody, type CountryTree } from './model'

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
