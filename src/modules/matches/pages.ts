import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'

const hidden = { detail: { hide: true } }

/**
 * The matches screen (issue 15; ./matches.page.tsx, loaded on its first request): every role, since every role may own
 * listings; first view complete from the server.
 */
export const matchesPages = (ctx: AppContext) =>
  new Elysia({ name: 'matches-pages' }).get('/dashboard/matches', dashboardPage(ctx, 'Matches', async (user) => (await import('./matches.page')).view(ctx, user)), hidden)
