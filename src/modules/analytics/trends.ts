import { touches } from '../../../db/change-feed'
import type { AppContext } from '../../platform/context'
import { fieldError } from '../../platform/errors'
import { ANALYTICS } from '../../shared/constants'
import { calendarDate } from '../../shared/dates'
import type { Viewer } from '../listings/store/read'
import { scopeCity, scopeOf } from '../../platform/policy/scope'
import { RANGE_ORDER, RANGE_TOO_LONG, type TopBrokers, type Trends, type TrendsQuery } from './model'
import { listingTotal } from '../listings/store'
import { dailyCounts, topOwners } from './store'

const DAY_MS = 86_400_000
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)

/** Admin analytics follow the `read:analytics` scope: per city for a module admin (-1: none yet), network-wide for a master admin. */
const cityScope = (v: Viewer) => scopeCity(scopeOf(v, 'analytics'))
export const scopeName = (v: Viewer) => (scopeOf(v, 'analytics').kind === 'all' ? 'global' : 'city')

/** The day range asked for: a custom start/end (both, or one filling the other), else the last `days` days to today. */
export function resolveRange(q: TrendsQuery, today: string): { start: string; end: string; days: number } {
  if (q.start_date || q.end_date) {
    const start = q.start_date ?? q.end_date!
    const end = q.end_date ?? q.start_date!
    if (Number.isNaN(Date.parse(start)) || Number.isNaN(Date.parse(end))) throw fieldError('start_date', 'Dates are YYYY-MM-DD', 'query')
    if (start > end) throw fieldError('start_date', RANGE_ORDER, 'query')
    const days = daysBetween(start, end) + 1
    if (days > ANALYTICS.maxRangeDays) throw fieldError('end_date', RANGE_TOO_LONG, 'query')
    return { start, end, days }
  }
  const days = q.days ?? ANALYTICS.defaultPeriodDays
  return { start: addDays(today, -(days - 1)), end: today, days }
}

/** Listings per day by type, every day of the range present (zeros included), from the daily counts kept by triggers. */
export async function trends(ctx: AppContext, viewer: Viewer, q: TrendsQuery): Promise<Trends> {
  const { start, end, days } = resolveRange(q, calendarDate(Date.now(), ctx.config.timeZone))
  const city = cityScope(viewer)
  const rows = await ctx.counts.get(
    `trends|${city}|${start}|${end}`,
    // City 0 holds the network's days (migration 0007).
    () => dailyCounts(ctx.db, start, end, city ?? 0),
    (c) => touches(c, 'listing', ['date', 'city_id', 'post_type']),
  )
  const daily: Trends['daily_stats'] = {}
  for (let d = start; d <= end; d = addDays(d, 1)) daily[d] = { requirements: 0, availabilities: 0, total: 0 }
  for (const r of rows) {
    const day = daily[r.date]!
    if (r.postType === 'REQ') day.requirements += r.n
    else day.availabilities += r.n
    day.total += r.n
  }
  return { period_days: days, start_date: start, end_date: end, scope: scopeName(viewer), daily_stats: daily }
}

type TopBroker = TopBrokers['top_brokers'][number]

/** Brokers by number of listings in scope; ties go to the earlier account (lower id), so the order is stable. */
export async function topBrokers(ctx: AppContext, viewer: Viewer, limit: number): Promise<TopBrokers> {
  const city = cityScope(viewer)
  const top = await ctx.counts.get(
    `top|${city}|${limit}`,
    (): Promise<TopBroker[]> => topOwners(ctx.db, city, limit),
    // Listings per owner and city, and the brokers' names, emails and roles.
    (c) => touches(c, 'listing', ['owner_user_id', 'city_id']) || c.topic === 'user',
  )
  return { scope: scopeName(viewer), top_brokers: top }
}

export const listingCount = (ctx: AppContext): Promise<number> =>
  ctx.counts.get(
    'health|listings',
    () => listingTotal(ctx.db),
    (c) => touches(c, 'listing', []),
  )
