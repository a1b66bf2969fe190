import { Elysia, type Cookie } from 'elysia'
import { createElement, type ReactElement } from 'react'
import { endSession } from '../../http/auth'
import type { AppContext } from '../../http/context'
import { loginRedirect, pageUser } from '../../http/page-auth'
import { renderPage } from '../../pages/render'
import type { Role } from '../../shared/constants'
import { AccessDenied, DashboardLayout, type ShellUser } from './layout'
import { AccountInactive } from './page'
import { countPending } from '../users/read'

const hidden = { detail: { hide: true } }

type Guard = { roles: readonly Role[]; current: string; section: string; denied: ReactElement }

/**
 * Renders a dashboard page for the signed-in, active user, in the order of SPEC section 2: signed out goes to
 * /login (remembering the page), inactive sees 'Account Inactive', a role not allowed sees the page's denial (403).
 * The API behind every page refuses the same users whatever the page shows.
 */
export const dashboardPage =
  (ctx: AppContext, title: string, render: (user: ShellUser) => ReactElement, guard?: Guard) =>
  ({ request, cookie }: { request: Request; cookie: Record<string, Cookie<unknown>> }) => {
    const found = pageUser(ctx, cookie)
    if (!found) return loginRedirect(request)
    if (!found.is_active) return renderPage(createElement(AccountInactive), { title: 'Account Inactive', status: 403 })
    const user: ShellUser = { ...found, pendingApprovals: found.role === 'BROKER' ? null : countPending(ctx.db, { role: found.role, cityId: found.city_id }) }
    if (guard && !guard.roles.includes(user.role))
      return renderPage(createElement(DashboardLayout, { user, current: guard.current, section: guard.section, children: guard.denied }), { title, status: 403 })
    return renderPage(render(user), { title })
  }

export const dashboardRoutes = (ctx: AppContext) => {
  const app = new Elysia({ name: 'dashboard' })
    // A form post from the user menu: works without script, and always lands on /login (SPEC "Sign out").
    .post(
      '/logout',
      ({ cookie, redirect }) => {
        endSession(ctx.db, {}, cookie)
        return redirect('/login', 303)
      },
      hidden,
    )
  return app
}
