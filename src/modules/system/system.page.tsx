import { createElement } from 'react'
import type { AppContext } from '../../platform/context'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import type { SystemStatus } from './model'
import { systemStatus } from './service'

export type SystemPageProps = { user: ShellUser; initial: SystemStatus }

export function SystemPage({ user, initial }: SystemPageProps) {
  return (
    <DashboardLayout user={user} current="/dashboard/system" section="System">
      <h1 className="text-2xl font-bold">System</h1>
      <p className="mb-6 mt-1 text-base-content/70">This installation: its health, its backups and its mail.</p>
      <Island name="SystemScreen" props={{ initial }} />
    </DashboardLayout>
  )
}

/** The screen with its data, for the page route (./pages.ts). */
export const view = async (ctx: AppContext, user: ShellUser) => createElement(SystemPage, { user, initial: await systemStatus(ctx) })
