import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import type { ShellUser } from '../../platform/pages/shell'
import { UserIdParams } from './model'

const hidden = { detail: { hide: true } }
const generic = "You don't have permission to access this page."

/**
 * The approvals and people screens (./approvals.page.tsx, ./management.page.tsx, loaded on their first request); first
 * views complete from the server, the API refuses the same users.
 */
export const usersPages = (ctx: AppContext) => {
  const management = (kind: 'BROKER' | 'MODULE_ADMIN') => async (user: ShellUser) => (await import('./management.page')).view(ctx, kind, user)
  // A broker's profile with their record (issue 35), for whoever sees listings (as the record's API).
  const profile = (id: number | null) => async (user: ShellUser) => (await import('./profile.page')).view(ctx, user, id)
  const profileGuard = { permission: 'read:listing:own' as const, current: '/dashboard/listings', section: 'Broker', denied: generic }
  return new Elysia({ name: 'users-pages' })
    .get('/dashboard/profile', dashboardPage(ctx, 'My profile', profile(null), profileGuard), hidden)
    .get('/dashboard/profile/:id', ({ params, request, cookie }) => dashboardPage(ctx, 'Broker', profile(params.id), profileGuard)({ request, cookie }), { ...hidden, params: UserIdParams })
    .get(
      '/dashboard/approvals',
      dashboardPage(ctx, 'User Approvals', async (user) => (await import('./approvals.page')).view(ctx, user), {
        ...guardOf('/dashboard/approvals'),
        current: '/dashboard/approvals',
        section: 'User Approvals',
        denied: generic,
      }),
      hidden,
    )
    .get(
      '/dashboard/brokers',
      dashboardPage(ctx, 'Brokers', management('BROKER'), { ...guardOf('/dashboard/brokers'), current: '/dashboard/brokers', section: 'Brokers', denied: generic }),
      hidden,
    )
    .get(
      '/dashboard/admins',
      dashboardPage(ctx, 'Module Admins', management('MODULE_ADMIN'), {
        ...guardOf('/dashboard/admins'),
        current: '/dashboard/admins',
        section: 'Module Admins',
        denied: 'Only Master Admins can manage Module Admins.',
      }),
      hidden,
    )
}
