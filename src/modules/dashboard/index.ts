import { Elysia, type Cookie } from 'elysia'
import { createElement, type ReactElement } from 'react'
import { endSession } from '../../http/auth'
import type { AppContext } from '../../http/context'
import { loginRedirect, pageUser, type PageUser } from '../../http/page-auth'
import { renderPage } from '../../pages/render'
import { AccountInactive, DashboardHome } from './page'

const hidden = { detail: { hide: true } }

/**
 * Renders a dashboard page for the signed-in, active user: signed out goes to /login (remembering the page),
 * inactive sees 'Account Inactive'. Role checks are the page's own, and the API behind it refuses regardless.
 */
export const dashboardPage =
  (ctx: AppContext, title: string, render: (user: PageUser) => ReactElement) =>
  ({ request, cookie }: { request: Request; cookie: Record<string, Cookie<unknown>> }) => {
    const user = pageUser(ctx, cookie)
    if (!user) return loginRedirect(request)
    if (!user.is_active) return renderPage(createElement(AccountInactive), { title: 'Account Inactive', status: 403 })
    return renderPage(render(user), { title })
  }

export const dashboardRoutes = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard' })
    .get('/dashboard', dashboardPage(ctx, 'Dashboard', (user) => createElement(DashboardHome, { user })), hidden)
    // A form post from the user menu: works without script, and always lands on /login (SPEC "Sign out").
    .post(
      '/logout',
      ({ cookie, redirect }) => {
        endSession(ctx.db, {}, cookie)
        return redirect('/login', 303)
      },
      hidden,
    )
