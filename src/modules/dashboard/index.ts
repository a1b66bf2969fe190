import { Elysia, type Cookie } from 'elysia'
import type { ReactElement } from 'react'
import { authGuard, endSession } from '../../platform/http/auth'
import type { AppContext } from '../../platform/http/context'
import { loginRedirect, pageSession, viewerOf } from '../../platform/http/page-auth'
import { notePageUser } from '../../platform/http/request-log'
import { can, type Permission } from '../../platform/policy/permissions'
import { allows } from './nav'
import type { ShellUser } from './layout'
import { countPending } from '../users/read'
import { unseenCount } from '../matches/read'
import { ErrorDetail as Detail } from '../../shared/schema'
import { DashboardVisit } from './model'
import { newSince, visitSince } from './visits'

const hidden = { detail: { hide: true } }

/** The admin's own two-factor sign-in (issue 29; src/modules/second-factor/pages.ts). */
export const SECURITY_PAGE = '/dashboard/security'

/**
 * Who may see a page (the roles holding `permission`, as for its navigation item: `guardOf(href)`), and the message of
 * the 'Access Denied' card everyone else gets in the shell.
 */
type Guard = { permission: Permission; unless?: Permission; current: string; section: string; denied: string }

/**
 * Renders a dashboard page for the signed-in, active user, in the order of SPEC section 2: signed out goes to
 * /login (remembering the page), inactive sees 'Account Inactive', a role not allowed sees the page's denial (403).
 * The API behind every page refuses the same users whatever the page shows.
 *
 * React and the page components are not loaded at start (docs/decisions/004-lazy-start.md): the shell comes from
 * ./shell and `render` imports its page's view module, both on the first page request.
 */
export const dashboardPage =
  (ctx: AppContext, title: string, render: (user: ShellUser) => Promise<ReactElement>, guard?: Guard) =>
  async ({ request, cookie }: { request: Request; cookie: Record<string, Cookie<unknown>> }) => {
    const signedIn = await pageSession(ctx, cookie)
    if (!signedIn) return loginRedirect(request)
    const found = signedIn.user
    notePageUser(request, found.id)
    const shell = await import('./shell')
    if (!found.is_active) return shell.accountInactive()
    // Issue 29: a session that may only enrol a second factor sees the enrolment page and nothing else.
    if (signedIn.enrolmentOnly) return new Response(null, { status: 302, headers: { location: SECURITY_PAGE } })
    const [pendingApprovals, unseenMatches] = await Promise.all([
      can(found.role, 'read:user:city') ? countPending(ctx.db, viewerOf(found)) : null,
      unseenCount(ctx.db, found.id),
    ])
    const user: ShellUser = { ...found, pendingApprovals, unseenMatches }
    if (guard && !allows(user.role, guard)) return shell.deniedPage(user, title, guard)
    return shell.shellPage(await render(user), title)
  }

export const dashboardRoutes = (ctx: AppContext) => {
  const app = new Elysia({ name: 'dashboard' })
    // A form post from the user menu: works without script, and always lands on /login (SPEC "Sign out").
    .post(
      '/logout',
      async ({ cookie, headers, request, redirect }) => {
        await endSession(ctx, request, headers, cookie)
        return redirect('/login', 303)
      },
      hidden,
    )
    .use(dashboardApi(ctx))
  return app
}

/** The dashboard's own figures; its statistics are the analytics API's (/api/analytics/dashboard). */
const dashboardApi = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard-api', prefix: '/api/dashboard' })
    .use(authGuard(ctx))
    .get('/visit', async ({ user }) => newSince(ctx, user, await visitSince(ctx.db, user.id)), {
      permission: 'read:listing:own',
      response: { 200: DashboardVisit, 401: Detail, 403: Detail },
      detail: {
        tags: ['Dashboard'],
        summary: '"N new since your last visit": the listings with news since the current visit began',
        description:
          'Opening the dashboard page records a visit: one ends after 30 minutes without a dashboard request, and the next counts from its end. This route only reads: `new_count` listings the caller may see, not their own, were posted, repriced or came back on the market since `since` (`GET /api/listings/?changed_since=<since>` lists them, the caller’s own too).',
      },
    })
