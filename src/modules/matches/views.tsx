import { createElement } from 'react'
import type { AppContext } from '../../http/context'
import { viewerOf } from '../../http/page-auth'
import { formRules } from '../../pages/form-rules'
import type { ShellUser } from '../dashboard/layout'
import { getCity } from '../geography/service'
import { ToleranceBody } from './model'
import { MatchesPage } from './page'
import { inbox } from './read'
import { MATCH_RULES } from './rules'

// Page views, imported by the page route on its first request (docs/decisions/004-lazy-start.md).

/** The inbox's page size on screen: the API's default, so most inboxes are one page and "unseen first" holds across it. */
export const INBOX_PER_PAGE = 50

export const matchesView = (ctx: AppContext, user: ShellUser) =>
  createElement(MatchesPage, {
    user,
    initial: inbox(ctx.db, viewerOf(user), { page: 1, per_page: INBOX_PER_PAGE, order: 'unseen_first' }),
    rules: MATCH_RULES,
    // A module admin sets their own city's tolerance here; a master admin does it per city in the Geographic screen.
    tolerance:
      user.role === 'MODULE_ADMIN' && user.city_id !== null
        ? { city_id: user.city_id, city_name: user.city_name ?? 'your city', match_tolerance: getCity(ctx.db, user.city_id).match_tolerance, rules: formRules(ToleranceBody) }
        : null,
  })
