import type { CityExpiry } from '../../../islands/geo/ListingExpiry'
import type { CityTolerance } from '../../../islands/matches/ToleranceControl'
import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { scopeOf } from '../../platform/policy/scope'
import { can } from '../../shared/permissions'
import { ListingExpiryBody } from '../geography/model'
import { getCity } from '../geography/service'
import { ToleranceBody, type Inbox } from './model'
import { inbox } from './read'
import { MATCH_RULES } from './rules'

export type MatchesPageProps = { user: ShellUser; initial: Inbox; rules: readonly string[]; tolerance: CityTolerance | null; expiry: CityExpiry | null }

/**
 * /dashboard/matches (issue 15): the MatchInbox island, its first page complete in the server's HTML. The matching
 * rules travel as props (they live in server code, ./rules.ts, which islands do not import).
 */
export function MatchesPage({ user, initial, rules, tolerance, expiry }: MatchesPageProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/matches" section="Matches">
      <Island name="MatchInbox" props={{ initial, rules, tolerance, expiry, perPage: initial.per_page, cobrokeAs: can(user.role, 'manage:deal:own') ? user.id : null }} />
    </DashboardLayout>
  )
}

/** The inbox's page size on screen: the API's default, so most inboxes are one page and "unseen first" holds across it. */
export const INBOX_PER_PAGE = 50

/** The screen with its first page of the inbox, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) =>
  createElement(MatchesPage, {
    user,
    initial: await inbox(ctx.db, viewerOf(user), { page: 1, per_page: INBOX_PER_PAGE, order: 'unseen_first' }),
    rules: MATCH_RULES,
    // A module admin sets their own city's tolerance and listing expiry here; a master admin does it per city in the
    // Geographic screen.
    ...(await citySettingsOf(ctx, user)),
  })

/**
 * A module admin's city settings: the tolerance form when their `manage:matching` scope is their city, the listing
 * expiry form when their `manage:listing` scope is; else nothing.
 */
async function citySettingsOf(ctx: AppContext, user: ShellUser) {
  const viewer = viewerOf(user)
  const [tolerance, expiry] = [scopeOf(viewer, 'matching', 'manage').kind === 'city', scopeOf(viewer, 'listing', 'manage').kind === 'city']
  if (user.city_id === null || !(tolerance || expiry)) return { tolerance: null, expiry: null }
  const city = await getCity(ctx.db, user.city_id)
  const named = { city_id: city.id, city_name: city.name }
  return {
    tolerance: tolerance ? { ...named, match_tolerance: city.match_tolerance, rules: formRules(ToleranceBody) } : null,
    expiry: expiry ? { ...named, rent_days: city.rent_days, sale_days: city.sale_days, rules: formRules(ListingExpiryBody) } : null,
  }
}
