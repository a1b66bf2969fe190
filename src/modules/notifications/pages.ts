import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import { NOTIFICATIONS_PAGE } from '../../../islands/notifications/push-text'

const hidden = { detail: { hide: true } }

/** The notifications screen (issue 33; ./notifications.page.tsx, loaded on its first request): every role. */
export const notificationsPages = (ctx: AppContext) =>
  new Elysia({ name: 'notifications-pages' }).get(
    NOTIFICATIONS_PAGE,
    dashboardPage(ctx, 'Notifications', async (user) => (await import('./notifications.page')).view(ctx, user), {
      ...guardOf(NOTIFICATIONS_PAGE),
      current: NOTIFICATIONS_PAGE,
      section: 'Notifications',
      denied: 'Push alerts are for signed-in users.',
    }),
    hidden,
  )
