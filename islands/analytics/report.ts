// The Export Report file (SPEC "Analytics & Reports"): pure functions, so the island and the unit test build the same file.
import type { TopBrokers, Trends } from '../../src/modules/analytics/model'
import type { DashboardStats } from '../../src/modules/listings/model'
import type { Role } from '../../src/shared/constants'
import { calendarDate } from '../../src/shared/dates'

export type ReportUser = { full_name: string; role: Role; city_name: string | null }

export type TrendPoint = { date: string; requirements: number; availabilities: number; total: number }

export type AnalyticsReport = {
  generated_at: string
  /** Days of the period shown (a custom range's length when one is set). */
  period_days: number
  /** The days the report covers; custom_range tells whether they were picked by hand. */
  start_date: string
  end_date: string
  custom_range: boolean
  scope: string
  user: { name: string; role: Role; city: string | null }
  dashboard_stats: DashboardStats
  trends_summary: { period_days: number; total_listings: number; average_daily_listings: number }
  top_brokers: TopBrokers['top_brokers']
}

/** The days of a trends answer in date order (the API's keys are not promised to be sorted). */
export const trendPoints = (daily: Trends['daily_stats']): TrendPoint[] =>
  Object.entries(daily)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, d]) => ({ date, requirements: d.requirements, availabilities: d.availabilities, total: d.total }))

/** Listings in the period, and the daily average to one decimal (0 for an empty period). */
export function trendsSummary(trends: Trends): AnalyticsReport['trends_summary'] {
  const total = Object.values(trends.daily_stats).reduce((sum, d) => sum + d.total, 0)
  const average = trends.period_days > 0 ? Math.round((total / trends.period_days) * 10) / 10 : 0
  return { period_days: trends.period_days, total_listings: total, average_daily_listings: average }
}

type ReportInput = {
  now: Date
  user: ReportUser
  dashboard: DashboardStats
  trends: Trends
  topBrokers: TopBrokers
  customRange: boolean
}

export function buildAnalyticsReport({ now, user, dashboard, trends, topBrokers, customRange }: ReportInput): AnalyticsReport {
  return {
    generated_at: now.toISOString(),
    period_days: trends.period_days,
    start_date: trends.start_date,
    end_date: trends.end_date,
    custom_range: customRange,
    scope: dashboard.scope,
    user: { name: user.full_name, role: user.role, city: user.city_name },
    dashboard_stats: { ...dashboard },
    trends_summary: trendsSummary(trends),
    top_brokers: topBrokers.top_brokers.map((b) => ({ ...b })),
  }
}

/** analytics-report-{YYYY-MM-DD}.json, dated in the given time zone (the browser's own by default). */
export const reportFileName = (now: Date, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone) => `analytics-report-${calendarDate(now, timeZone)}.json`
