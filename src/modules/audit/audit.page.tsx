import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { viewerOf } from '../../platform/http/page-auth'
import { Island } from '../../platform/pages/island'
import { can } from '../../platform/policy/permissions'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { AuditPage } from './model'
import { listAudit } from './read'

export type AuditLogProps = { user: ShellUser; initial: AuditPage }

/** Who changed what, and when: a module admin reads their city's trail, a master admin everyone's. */
const lead = (user: ShellUser) =>
  !can(user.role, 'read:audit:any')
    ? `Every recorded change in ${user.city_name ?? 'your city'}: who did what, when, and what it changed.`
    : 'Every recorded change across all cities: who did what, when, and what it changed.'

/** The audit log screen: the shell, a heading, and the AuditLog island (first page rendered by the server). */
export function AuditLogPage({ user, initial }: AuditLogProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/audit" section="Audit Logs">
      <h1 className="text-2xl font-bold">Audit Logs</h1>
      <p className="mb-6 mt-1 text-base-content/70">{lead(user)}</p>
      <Island name="AuditLog" props={{ initial }} />
    </DashboardLayout>
  )
}

/** The screen with its first page of the trail, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) =>
  createElement(AuditLogPage, { user, initial: await listAudit(ctx.db, viewerOf(user), { page: 1, per_page: 25 }) })
