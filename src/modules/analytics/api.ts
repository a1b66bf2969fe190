import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail } from '../../shared/schema'
import { Message } from '../auth/model'
import { DashboardStats } from '../listings/model'
import { AnalyticsHealth, TopBrokers, TopBrokersQuery, Trends, TrendsQuery } from './model'
import { dashboardStats } from './service'
import { listingCount, topBrokers, trends } from './trends'

const tags = ['Analytics']
const errors = { 401: Detail, 403: Detail }

/**
 * Figures for the analytics screen and the stats strip (SPEC section 7 "Analytics"). Answers are cached until the
 * database changes, so repeated reads at a million listings stay cheap and never stale.
 */
export const analyticsApi = (ctx: AppContext) =>
  new Elysia({ name: 'analytics-api', prefix: '/api/analytics' })
    .use(authGuard(ctx))
    // The strip counts listings in the caller's listing scope: anyone who reads listings may ask.
    .get('/dashboard', async ({ user }) => dashboardStats(ctx, user), {
      permission: 'read:listing:own',
      response: { 200: DashboardStats, ...errors },
      detail: { tags, summary: 'Stats strip: requirements, availabilities, active brokers, new today', description: 'Master admin: global; module admin: their city; broker: the network as they may see it.' },
    })
    .get('/trends', async ({ user, query }) => trends(ctx, user, query), {
      permission: 'read:analytics:city',
      query: TrendsQuery,
      response: { 200: Trends, ...errors },
      detail: {
        tags,
        summary: 'Listings per day by type',
        description: '`days` (default 30, at most 365) back from today in the TZ setting, or `start_date` and `end_date` (inclusive, at most 365 days, start not after end; 422 otherwise). Every day is present, zeros included.',
      },
    })
    .get('/top-brokers', async ({ user, query }) => topBrokers(ctx, user, query.limit ?? 10), {
      permission: 'read:analytics:city',
      query: TopBrokersQuery,
      response: { 200: TopBrokers, ...errors },
      detail: { tags, summary: 'Brokers with the most listings (ties: earlier account first)' },
    })
    .post(
      '/cache/invalidate',
      () => {
        ctx.counts.clear()
        return { message: 'Analytics cache cleared' }
      },
      { permission: 'read:analytics:city', response: { 200: Message, ...errors }, detail: { tags, summary: 'Forget cached figures (they are also dropped at every change)' } },
    )
    .get('/health', async () => ({ status: 'ok' as const, cache_entries: ctx.counts.size, listings: await listingCount(ctx), time_zone: ctx.config.timeZone }), {
      permission: 'read:analytics:city',
      response: { 200: AnalyticsHealth, ...errors },
      detail: { tags, summary: 'Analytics health: cache size, listing count, time zone' },
    })
