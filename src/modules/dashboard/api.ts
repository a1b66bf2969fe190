import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail } from '../../shared/schema'
import { DashboardVisit } from './model'
import { newSince, visitSince } from './visits'

/** The dashboard's own figures; its statistics are the analytics API's (/api/analytics/dashboard). */
export const dashboardApi = (ctx: AppContext) =>
  new Elysia({ name: 'dashboard-api', prefix: '/api/dashboard' })
    .use(authGuard(ctx))
    .get('/visit', async ({ user }) => newSince(ctx, user, await visitSince(ctx.db, user.id)), {
      permission: 'read:listing:own',
      response: { 200: DashboardVisit, 401: Detail, 403: Detail },
      detail: {
        tags: ['Dashboard'],
        summary: '"N new since your last visit": the listings with news since the current visit began',
        description:
          'Opening the dashboard page records a visit: one ends after 30 minutes without a dashboard request, and the next counts from its end. This route only reads: `new_count` listings the caller may see, not their own, were posted, repriced or came back on the market since `since` (`GET /api/listings/?changed_since=<since>` lists them, the caller’s own too).',
      },
    })
