import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { PendingApprovals } from './model'

/** /dashboard/approvals: the pending registrations in the admin's scope, as the ApprovalsBoard island. */
export function ApprovalsPage({ user, initial }: { user: ShellUser; initial: PendingApprovals }) {
  return (
    <DashboardLayout user={user} current="/dashboard/approvals" section="User Approvals">
      {/* `now`: the server's clock, so the first paint's 'Registered 3h ago' hydrates to the same text. */}
      <Island name="ApprovalsBoard" props={{ initial, now: Date.now() }} />
    </DashboardLayout>
  )
}
