import { describe, expect, test } from 'bun:test'
import { rangeBounds, rangeDays, rangeError, RANGE_MESSAGES, trendsUrl } from '../../islands/analytics/range'
import { buildAnalyticsReport, reportFileName, trendPoints, trendsSummary } from '../../islands/analytics/report'
import { PERIODS } from '../../islands/analytics/text'
import { percentages } from '../../islands/analytics/DistributionPie'
import { RANGE_ORDER, RANGE_TOO_LONG, type TopBrokers, type Trends } from '../../src/modules/analytics/model'
import type { DashboardStats } from '../../src/modules/listings/model'
import { ANALYTICS } from '../../src/shared/constants'

const dashboard: DashboardStats = { total_requirements: 1234, total_availabilities: 987, active_brokers: 42, new_posts_today: 7, scope: 'city' }
// Keys out of order on purpose: the API does not promise an order.
const trends: Trends = {
  period_days: 3,
  start_date: '2026-03-01',
  end_date: '2026-03-03',
  scope: 'city',
  daily_stats: {
    '2026-03-03': { requirements: 2, availabilities: 1, total: 3 },
    '2026-03-01': { requirements: 1, availabilities: 0, total: 1 },
    '2026-03-02': { requirements: 0, availabilities: 0, total: 0 },
  },
}
const topBrokers: TopBrokers = { scope: 'city', top_brokers: [{ user_id: 9, full_name: 'Asha Verma', email: 'asha@example.com', listing_count: 12 }] }
const user = { full_name: 'Meera Iyer', role: 'MODULE_ADMIN' as const, city_name: 'Mumbai' }

describe('the analytics report', () => {
  test('holds generated_at, the period, scope, the user, the statistics, a trends summary and the top brokers', () => {
    const now = new Date('2026-03-03T10:15:00.000Z')
    const report = buildAnalyticsReport({ now, user, dashboard, trends, topBrokers, customRange: true })
    expect(report).toEqual({
      generated_at: '2026-03-03T10:15:00.000Z',
      period_days: 3,
      start_date: '2026-03-01',
      end_date: '2026-03-03',
      custom_range: true,
      scope: 'city',
      user: { name: 'Meera Iyer', role: 'MODULE_ADMIN', city: 'Mumbai' },
      dashboard_stats: dashboard,
      trends_summary: { period_days: 3, total_listings: 4, average_daily_listings: 1.3 },
      top_brokers: topBrokers.top_brokers,
    })
    // A copy: changing the screen's cached data later cannot change a report already built.
    expect(report.dashboard_stats).not.toBe(dashboard)
    expect(JSON.parse(JSON.stringify(report))).toEqual(report)
  })

  test('a master admin without a city: city null, global scope', () => {
    const report = buildAnalyticsReport({
      now: new Date(),
      user: { full_name: 'Maya', role: 'MASTER_ADMIN', city_name: null },
      dashboard: { ...dashboard, scope: 'global' },
      trends,
      topBrokers: { scope: 'global', top_brokers: [] },
      customRange: false,
    })
    expect(report.user).toEqual({ name: 'Maya', role: 'MASTER_ADMIN', city: null })
    expect(report.scope).toBe('global')
    expect(report.top_brokers).toEqual([])
    expect(report.custom_range).toBe(false)
  })

  test('the daily average is rounded to one decimal; an empty or zero-day period averages 0', () => {
    const days = (n: number, each: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`2026-01-${String(i + 1).padStart(2, '0')}`, { requirements: each, availabilities: 0, total: each }]))
    expect(trendsSummary({ ...trends, period_days: 7, daily_stats: { ...days(6, 0), '2026-01-07': { requirements: 5, availabilities: 5, total: 10 } } })).toEqual({
      period_days: 7,
      total_listings: 10,
      average_daily_listings: 1.4,
    })
    expect(trendsSummary({ ...trends, period_days: 30, daily_stats: days(30, 0) }).average_daily_listings).toBe(0)
    expect(trendsSummary({ ...trends, period_days: 3, daily_stats: days(3, 1) }).average_daily_listings).toBe(1)
    expect(trendsSummary({ ...trends, period_days: 0, daily_stats: {} })).toEqual({ period_days: 0, total_listings: 0, average_daily_listings: 0 })
  })

  test('file name: analytics-report-{YYYY-MM-DD}.json in the given time zone', () => {
    const now = new Date('2026-03-03T20:00:00.000Z')
    expect(reportFileName(now, 'UTC')).toBe('analytics-report-2026-03-03.json')
    expect(reportFileName(now, 'Asia/Kolkata')).toBe('analytics-report-2026-03-04.json')
    expect(reportFileName(now)).toMatch(/^analytics-report-\d{4}-\d{2}-\d{2}\.json$/)
  })

  test('trend points come sorted by date', () => {
    expect(trendPoints(trends.daily_stats).map((p) => p.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03'])
    expect(trendPoints(trends.daily_stats)[2]).toEqual({ date: '2026-03-03', requirements: 2, availabilities: 1, total: 3 })
  })
})

describe('the custom date range', () => {
  test('start after end, and more than 365 days, are refused with the server’s own sentences', () => {
    expect(RANGE_MESSAGES.order).toBe(RANGE_ORDER)
    expect(RANGE_MESSAGES.tooLong).toBe(RANGE_TOO_LONG)
    expect(rangeError({ start: '2026-03-02', end: '2026-03-01' })).toBe(RANGE_ORDER)
    expect(rangeError({ start: '2026-03-01', end: '2026-03-01' })).toBeNull()
    // 365 days counted inclusively, as the server counts them.
    expect(rangeError({ start: '2025-03-02', end: '2026-03-01' })).toBeNull()
    expect(rangeDays({ start: '2025-03-02', end: '2026-03-01' })).toBe(365)
    expect(rangeError({ start: '2025-03-01', end: '2026-03-01' })).toBe(RANGE_TOO_LONG)
  })

  test('the inputs allow 365 days back to today; the request carries days and the range', () => {
    expect(rangeBounds('2026-03-01')).toEqual({ min: '2025-03-01', max: '2026-03-01' })
    expect(rangeBounds('2024-12-31')).toEqual({ min: '2024-01-01', max: '2024-12-31' })
    expect(trendsUrl(7, null)).toBe('/api/analytics/trends?days=7')
    expect(trendsUrl(30, { start: '2026-01-01', end: '2026-01-31' })).toBe('/api/analytics/trends?days=30&start_date=2026-01-01&end_date=2026-01-31')
  })

  test('the period presets are SPEC section 9’s', () => {
    expect(PERIODS.map((p) => p.days)).toEqual([...ANALYTICS.presets])
  })
})

test('pie percentages are whole numbers', () => {
  const slice = (value: number) => ({ key: String(value), label: '', color: '', value })
  expect(percentages([slice(1234), slice(987)])).toEqual([56, 44])
  expect(percentages([slice(1), slice(2)])).toEqual([33, 67])
  expect(percentages([slice(5), slice(0)])).toEqual([100, 0])
  expect(percentages([slice(0), slice(0)])).toEqual([0, 0])
})
