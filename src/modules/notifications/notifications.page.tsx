import { createElement } from 'react'
import { NOTIFICATIONS_PAGE } from '../../../islands/notifications/push-text'
import type { AppContext } from '../../platform/context'
import { Island } from '../../platform/pages/island'
import { DashboardLayout, type ShellUser } from '../../platform/pages/shell'
import { can } from '../../platform/policy/permissions'
import { vapidPublicKey } from '../../platform/push'
import type { Device, Settings } from './model'
import { myDevices, mySettings } from './service'

export type NotificationsPageProps = {
  user: ShellUser
  publicKey: string
  devices: Device[]
  settings: Settings
  /** Admins may take the "registration to review" kind. */
  approves: boolean
  timeZones: string[]
}

/** /dashboard/notifications (issue 33): this device's alerts, the user's devices, which kinds and when. */
export function NotificationsPage({ user, ...props }: NotificationsPageProps) {
  return (
    <DashboardLayout user={user} current={NOTIFICATIONS_PAGE} section="Notifications">
      <Island name="PushSettings" props={props} />
    </DashboardLayout>
  )
}

export const view = async (ctx: AppContext, user: ShellUser) =>
  createElement(NotificationsPage, {
    user,
    publicKey: await vapidPublicKey(ctx.db),
    devices: await myDevices(ctx, user),
    settings: await mySettings(ctx, user),
    approves: can(user.role, 'manage:user:city'),
    timeZones: Intl.supportedValuesOf('timeZone'),
  })
