import { createElement } from 'react'
import type { AppContext } from '../../platform/http/context'
import { viewerOf } from '../../platform/http/page-auth'
import { scopeOf } from '../../platform/policy/scope'
import { formRules } from '../../platform/pages/form-rules'
import type { ShellUser } from '../dashboard/layout'
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
    // A module admin sets their own city's tolerance here; a master admin does it per city in the Geographic screen.
    tolerance: await toleranceOf(ctx, user),
  })

/** The tolerance form when the user's `manage:matching` scope is one city (a module admin's); else nothing. */
async function toleranceOf(ctx: AppContext, user: ShellUser) {
  const scope = scopeOf(viewerOf(user), 'matching', 'manage')
  if (scope.kind !== 'city') return null
  const city = await getCity(ctx.db, scope.cityId)
  return { city_id: scope.cityId, city_name: user.city_name ?? 'your city', match_tolerance: city.match_tolerance, rules: formRules(ToleranceBody) }
}
