import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { scopeOf } from '../../platform/policy/scope'
import { formRules } from '../../platform/pages/form-rules'
import type { ShellUser } from '../../platform/pages/shell'
import { ListingExpiryBody } from '../geography/model'
import { getCity } from '../geography/service'
import { ToleranceBody } from './model'
import { MatchesPage } from './page'
import { inbox } from './read'
import { MATCH_RULES } from './rules'

// Page views, imported by the page route on its first request (docs/decisions/004-lazy-start.md).

/** The inbox's page size on screen: the API's default, so most inboxes are one page and "unseen first" holds across it. */
export const INBOX_PER_PAGE = 50

export const matchesView = async (ctx: AppContext, user: ShellUser) =>
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
