// Calendar-date arithmetic and the custom range rules of SPEC section 5 ("Custom analytics date range").
// Dates are YYYY-MM-DD strings, as the API speaks them, computed in UTC so no time zone shifts a day.
import { ANALYTICS, ANALYTICS_RANGE_MESSAGES } from '../../src/shared/constants'

/** The server's own sentences for a refused range (src/shared/constants.ts). */
export const RANGE_MESSAGES = ANALYTICS_RANGE_MESSAGES

export type DateRange = { start: string; end: string }

const DAY_MS = 86_400_000
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`)

export const addDays = (date: string, days: number) => new Date(dayMs(date) + days * DAY_MS).toISOString().slice(0, 10)

/** Days the range covers, both ends included (a one-day range is 1), as the chart and the server count them. */
export const rangeDays = ({ start, end }: DateRange) => Math.ceil((dayMs(end) - dayMs(start)) / DAY_MS) + 1

/** What the date inputs allow: from 365 days before `today` to `today`. */
export const rangeBounds = (today: string) => ({ min: addDays(today, -ANALYTICS.maxRangeDays), max: today })

/**
 * Why a range cannot be applied, or null when it can. The span is counted inclusively, as the server does
 * (GET /api/analytics/trends answers 422 past 365 days), so a range the picker accepts is never refused there.
 */
export function rangeError(range: DateRange): string | null {
  if (range.start > range.end) return RANGE_MESSAGES.order
  if (rangeDays(range) > ANALYTICS.maxRangeDays) return RANGE_MESSAGES.tooLong
  return null
}

/** 'Mar 5, 2026': a calendar date for people, the same on every machine. */
export const formatDay = (date: string) =>
  new Date(dayMs(date)).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })

/** The trends request: `days`, plus start_date and end_date when a custom range is set (SPEC section 7). */
export function trendsUrl(days: number, range: DateRange | null): string {
  const q = new URLSearchParams({ days: String(days) })
  if (range) q.set('start_date', range.start), q.set('end_date', range.end)
  return `/api/analytics/trends?${q}`
}
