// Placeholder until the audit log screen lands (being written now): keeps the route compiling.
import { DashboardLayout, type ShellUser } from '../dashboard/layout'
import type { AuditPage } from './model'

export type AuditLogProps = { user: ShellUser; initial: AuditPage }

export function AuditLogPage({ user, initial }: AuditLogProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/audit" section="Audit Logs">
      <h1 className="text-2xl font-bold">Audit Logs</h1>
      <p>{initial.total}</p>
    </DashboardLayout>
  )
}
