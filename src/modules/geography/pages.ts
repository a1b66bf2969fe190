import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'

/** The management screen (./geographic.page.tsx, loaded on its first request); the API refuses its data to non-masters anyway. */
export const geographyPages = (ctx: AppContext) =>
  new Elysia({ name: 'geography-pages' }).get(
    '/dashboard/geographic',
    dashboardPage(ctx, 'Geographic', async (user) => (await import('./geographic.page')).view(ctx, user), {
      ...guardOf('/dashboard/geographic'),
      current: '/dashboard/geographic',
      section: 'Geographic',
      denied: 'Only Master Administrators can manage geographic data.',
    }),
    { detail: { hide: true } },
  )
