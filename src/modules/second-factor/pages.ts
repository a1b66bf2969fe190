import { Elysia, type Cookie } from 'elysia'
import type { AppContext } from '../../platform/context'
import { pageSession } from '../../platform/http/page-auth'
import { notePageUser } from '../../platform/http/request-log'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { SECURITY_PAGE } from '../../platform/pages/nav'
import { guardOf } from '../../platform/pages/nav'

const hidden = { detail: { hide: true } }
const screen = () => import('./security.page')

/**
 * The admin's Security page (issue 29): two-factor sign-in in the dashboard shell; for a session that may only enrol,
 * the same setup as a step of signing in, outside the shell (every other dashboard page sends such a session here).
 */
export const securityPages = (ctx: AppContext) => {
  const inShell = dashboardPage(ctx, 'Security', async (user) => (await screen()).view(ctx, user), {
    ...guardOf(SECURITY_PAGE),
    current: SECURITY_PAGE,
    section: 'Security',
    denied: 'Two-factor sign-in is for administrators.',
  })
  return new Elysia({ name: 'security-pages' }).get(
    SECURITY_PAGE,
    async (c: { request: Request; cookie: Record<string, Cookie<unknown>> }) => {
      const signedIn = await pageSession(ctx, c.cookie)
      if (signedIn?.enrolmentOnly && signedIn.user.is_active) {
        notePageUser(c.request, signedIn.user.id)
        return (await screen()).enrolmentView(ctx, signedIn.user)
      }
      return inShell(c)
    },
    hidden,
  )
}
