import { t } from 'elysia'
import { ANALYTICS, ANALYTICS_RANGE_MESSAGES } from '../../shared/constants'

// SPEC section 3 "Trends response", "Top brokers response"; section 5 "Custom analytics date range".
export const RANGE_ORDER = ANALYTICS_RANGE_MESSAGES.order
export const RANGE_TOO_LONG = ANALYTICS_RANGE_MESSAGES.tooLong

const date = t.Optional(t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: { pattern: 'Dates are YYYY-MM-DD' } }))
export const TrendsQuery = t.Object({
  days: t.Optional(t.Integer({ minimum: 1, maximum: ANALYTICS.maxRangeDays, default: ANALYTICS.defaultPeriodDays, errorMessage: { minimum: RANGE_TOO_LONG, maximum: RANGE_TOO_LONG, type: 'days must be a whole number from 1 to 365' } })),
  start_date: date,
  end_date: date,
})
export type TrendsQuery = typeof TrendsQuery.static

const DayStats = t.Object({ requirements: t.Integer(), availabilities: t.Integer(), total: t.Integer() })
export const Trends = t.Object({
  period_days: t.Integer(),
  start_date: t.String({ format: 'date' }),
  end_date: t.String({ format: 'date' }),
  scope: t.String(),
  daily_stats: t.Record(t.String(), DayStats, { description: 'Every day of the range, keyed YYYY-MM-DD, zeros included' }),
})
export type Trends = typeof Trends.static

export const TopBrokersQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: ANALYTICS.topBrokersLimit })),
})
export const TopBrokers = t.Object({
  scope: t.String(),
  top_brokers: t.Array(t.Object({ user_id: t.Integer(), full_name: t.String(), email: t.String(), listing_count: t.Integer() })),
})
export type TopBrokers = typeof TopBrokers.static

export const AnalyticsHealth = t.Object({ status: t.Literal('ok'), cache_entries: t.Integer(), listings: t.Integer(), time_zone: t.String() })
