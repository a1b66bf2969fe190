import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import type { PageUser } from '../../platform/http/page-auth'
import { Island } from '../../platform/pages/island'
import { renderPage } from '../../platform/pages/render'
import { AuthCard } from '../auth/auth-card'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { factorStatus } from './service'

// The Security page, imported on its first request (docs/decisions/004-lazy-start.md).

type Status = Awaited<ReturnType<typeof factorStatus>>

export function SecurityPage({ user, status }: { user: ShellUser; status: Status }) {
  return (
    <DashboardLayout user={user} current="/dashboard/security" section="Security">
      <h1 className="text-2xl font-bold">Security</h1>
      <p className="mb-6 mt-1 text-base-content/70">Two-factor sign-in: a code from an app on your phone at every sign-in, besides your password.</p>
      <Island name="SecondFactorSettings" props={{ initial: status, mode: 'settings' }} />
    </DashboardLayout>
  )
}

/** The setup a session opened for enrolment only must finish: a step of signing in, outside the dashboard. */
export function EnrolmentPage({ status }: { status: Status }) {
  return (
    <AuthCard
      current="/login"
      title="Set up two-factor sign-in"
      subtitle="Administrators prove a second factor at every sign-in. Add Brokernet to an authenticator app on your phone to continue."
    >
      <Island name="SecondFactorSettings" props={{ initial: status, mode: 'enrol' }} />
      <form method="post" action="/logout" className="mt-4 text-center">
        <button type="submit" className="btn btn-ghost btn-sm min-h-11">
          Sign out
        </button>
      </form>
    </AuthCard>
  )
}

/** The screen in the shell, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) => createElement(SecurityPage, { user, status: await factorStatus(ctx, user) })

/** The same setup as a step of signing in, for a session that may only enrol. */
export const enrolmentView = async (ctx: AppContext, user: PageUser) =>
  renderPage(createElement(EnrolmentPage, { status: await factorStatus(ctx, user) }), { title: 'Set up two-factor sign-in' })
