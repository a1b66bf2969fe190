import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { PendingApprovals } from './model'
import { listPending } from './store/read'

/** /dashboard/approvals: the pending registrations in the admin's scope, as the ApprovalsBoard island. */
export function ApprovalsPage({ user, initial }: { user: ShellUser; initial: PendingApprovals }) {
  return (
    <DashboardLayout user={user} current="/dashboard/approvals" section="User Approvals">
      {/* `now`: the server's clock, so the first paint's 'Registered 3h ago' hydrates to the same text. */}
      <Island name="ApprovalsBoard" props={{ initial, now: Date.now() }} />
    </DashboardLayout>
  )
}

/** The screen with the registrations pending in the admin's scope, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) => createElement(ApprovalsPage, { user, initial: await listPending(ctx.db, viewerOf(user)) })
