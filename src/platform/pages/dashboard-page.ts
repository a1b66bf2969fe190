import type { Cookie } from 'elysia'
import type { ReactElement } from 'react'
import type { AppContext } from '../context'
import { loginRedirect, pageSession } from '../http/page-auth'
import { phoneRequest } from '../http/phone'
import { notePageUser } from '../http/request-log'
import type { Permission } from '../policy/permissions'
import type { IslandElement } from './island-element'
import { allows, navFor, SECURITY_PAGE } from './nav'
import type { ShellUser } from './shell'

/**
 * Who may see a page (the roles holding `permission`, as for its navigation item: `guardOf(href)`), and the message of
 * the 'Access Denied' card everyone else gets in the shell.
 */
export type Guard = { permission: Permission; unless?: Permission; current: string; section: string; denied: string }

/**
 * Renders a dashboard page for the signed-in, active user, in the order of SPEC section 2: signed out goes to
 * /login (remembering the page), inactive sees 'Account Inactive', a role not allowed sees the page's denial (403).
 * The API behind every page refuses the same users whatever the page shows. The badges beside the navigation items
 * the user sees are the features' (src/platform/features.ts), read together.
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
    const user: ShellUser = { ...found, badges: await badgesFor(ctx, found) }
    if (guard && !allows(user.role, guard)) return shell.deniedPage(user, title, guard)
    // What a phone gets first differs (islands/shared/layout.ts): caches keep the two apart.
    const phone = phoneRequest(request)
    return shell.shellPage(await render(user), title, { phone, headers: { vary: 'Sec-CH-UA-Mobile, User-Agent' } })
  }

/** The badges of the navigation items this user sees. */
async function badgesFor(ctx: AppContext, user: ShellUser): Promise<Record<string, IslandElement>> {
  const shown = navFor(user.role).flatMap((item) => {
    const badge = ctx.features.badges.get(item.href)
    return badge ? [badge(user).then((element) => [item.href, element] as const)] : []
  })
  const badges: Record<string, IslandElement> = {}
  for (const [href, element] of await Promise.all(shown)) if (element) badges[href] = element
  return badges
}
