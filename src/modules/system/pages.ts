import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'

const hidden = { detail: { hide: true } }
const screen = () => import('./system.page')

/** The system screen (issue 19): the master admin's view of the installation, first view complete from the server. */
export const systemPages = (ctx: AppContext) =>
  new Elysia({ name: 'system-pages' }).get(
    '/dashboard/system',
    dashboardPage(ctx, 'System', async (user) => (await screen()).view(ctx, user), {
      ...guardOf('/dashboard/system'),
      current: '/dashboard/system',
      section: 'System',
      denied: "You don't have permission to access this page.",
    }),
    hidden,
  )
