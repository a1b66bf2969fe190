import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { TopBrokers, Trends } from '../../src/modules/analytics/model'
import type { DashboardStats } from '../../src/modules/listings/model'
import { ANALYTICS, REFRESH_MS } from '../../src/shared/constants'
import { Icon } from '../shared/icons'
import { fetchJson, retryUpTo } from '../shared/query'
import { DateRangeDialog } from './DateRangeDialog'
import { DistributionPie } from './DistributionPie'
import { formatDay, rangeDays, trendsUrl, type DateRange } from './range'
import { buildAnalyticsReport, reportFileName, trendPoints, type ReportUser } from './report'
import { SeriesMarker } from './SeriesMarker'
import { TrendsChart } from './TrendsChart'
import { PERIODS, SERIES, STAT_CARDS, TEXT } from './text'

export type AnalyticsBoardProps = {
  user: ReportUser
  /** The three answers as the server computed them for the page: the first view, with no request. */
  initial: { dashboard: DashboardStats; trends: Trends; topBrokers: TopBrokers }
  /** Today in the server's time zone (YYYY-MM-DD): the custom range's latest day. */
  today: string
}

/** SPEC section 9: analytics queries refetch every 300 s and retry 2 times (network failures and 5xx only, as every query). */
const ANALYTICS_QUERY = {
  refetchInterval: REFRESH_MS.analytics,
  retry: retryUpTo(ANALYTICS.queryRetries),
} as const

const KEYS = {
  dashboard: ['analytics', 'dashboard'] as const,
  trends: (days: number, range: DateRange | null) => ['analytics', 'trends', days, range?.start ?? null, range?.end ?? null] as const,
  topBrokers: ['analytics', 'top-brokers', ANALYTICS.topBrokersLimit] as const,
}

/** The admin's analytics screen (SPEC "Analytics & Reports"): stats, trends, distribution, top brokers, JSON report. */
export default function AnalyticsBoard({ user, initial, today }: AnalyticsBoardProps) {
  const [renderedAt] = useState(() => Date.now())
  const [days, setDays] = useState<number>(ANALYTICS.defaultPeriodDays)
  const [range, setRange] = useState<DateRange | null>(null)
  const [picking, setPicking] = useState(false)
  const [exporting, setExporting] = useState(false)

  const dashboard = useQuery({
    queryKey: KEYS.dashboard,
    queryFn: () => fetchJson<DashboardStats>('/api/analytics/dashboard'),
    initialData: initial.dashboard,
    initialDataUpdatedAt: renderedAt,
    ...ANALYTICS_QUERY,
  })
  const isInitialPeriod = days === initial.trends.period_days && !range
  const trends = useQuery({
    queryKey: KEYS.trends(days, range),
    queryFn: () => fetchJson<Trends>(trendsUrl(days, range)),
    initialData: isInitialPeriod ? initial.trends : undefined,
    initialDataUpdatedAt: renderedAt,
    // The last period stays on screen while the next one loads.
    placeholderData: keepPreviousData,
    ...ANALYTICS_QUERY,
  })
  const brokers = useQuery({
    queryKey: KEYS.topBrokers,
    queryFn: () => fetchJson<TopBrokers>(`/api/analytics/top-brokers?limit=${ANALYTICS.topBrokersLimit}`),
    initialData: initial.topBrokers,
    initialDataUpdatedAt: renderedAt,
    ...ANALYTICS_QUERY,
  })

  const queries = [dashboard, trends, brokers]
  const loading = queries.some((q) => q.isFetching)
  const failed = queries.some((q) => q.isError)
  const reloadAll = () => void Promise.all(queries.map((q) => q.refetch()))

  const stats = dashboard.data
  const points = useMemo(() => (trends.data ? trendPoints(trends.data.daily_stats) : []), [trends.data])
  const hasTrends = points.some((p) => p.total > 0)
  const scope = stats?.scope ?? initial.dashboard.scope

  /** A preset clears the custom range; applying a custom range puts the period back to 30 (SPEC section 4). */
  const choosePeriod = (value: number) => (setRange(null), setDays(value))
  const applyRange = (next: DateRange | null) => (setRange(next), next && setDays(ANALYTICS.defaultPeriodDays), setPicking(false))

  async function exportReport() {
    if (!stats || !trends.data || !brokers.data) return
    setExporting(true)
    try {
      // Lets 'Exporting...' show before the file is built.
      await new Promise((resolve) => setTimeout(resolve, 0))
      const now = new Date()
      const report = buildAnalyticsReport({ now, user, dashboard: stats, trends: trends.data, topBrokers: brokers.data, customRange: range !== null })
      const url = URL.createObjectURL(new Blob([JSON.stringify(report, null, 2)], { type: 'application/json' }))
      const a = Object.assign(document.createElement('a'), { href: url, download: reportFileName(now) })
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 1000)
    } catch (err) {
      // SPEC section 8: an export failure is only logged.
      console.error('[analytics] export failed', err)
    } finally {
      setExporting(false)
    }
  }

  return (
    <div className="space-y-6" data-analytics data-fetching={loading || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{TEXT.title}</h1>
          <p className="mt-1 text-base-content/70" data-analytics-scope={scope}>
            {scope === 'global' ? TEXT.globalScope : TEXT.cityScope(user.city_name)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline btn-sm" onClick={reloadAll} disabled={loading}>
            {loading ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : <RefreshIcon />}
            {TEXT.refresh}
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void exportReport()} disabled={exporting || !stats}>
            <Icon name="download" className="h-4 w-4" />
            {exporting ? TEXT.exporting : TEXT.export}
          </button>
        </div>
      </div>

      {failed ? (
        <div role="alert" className="card border border-error/30 bg-base-100 shadow-sm" data-analytics-error>
          <div className="card-body items-center py-12 text-center">
            <Icon name="warning" className="h-10 w-10 text-error" />
            <h2 className="card-title">{TEXT.failedTitle}</h2>
            <p className="text-base-content/70">{TEXT.failed}</p>
            <button type="button" className="btn btn-primary btn-sm mt-2" onClick={reloadAll} disabled={loading}>
              {TEXT.retry}
            </button>
          </div>
        </div>
      ) : (
        <>
          {stats && (
            <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4" aria-label="Analytics statistics">
              {STAT_CARDS.map((c) => (
                <div key={c.key} className="card bg-base-100 shadow-sm" data-stat={c.key}>
                  <div className="card-body gap-1 p-4 sm:p-5">
                    <h2 className="flex items-center gap-2 text-sm font-medium text-base-content/70">
                      {c.series && <SeriesMarker color={SERIES[c.series].color} />}
                      {c.label}
                    </h2>
                    <p className="text-2xl font-bold sm:text-3xl">{stats[c.key].toLocaleString('en-US')}</p>
                  </div>
                </div>
              ))}
            </div>
          )}

          <div className="grid gap-6 lg:grid-cols-3">
            <section className="card bg-base-100 shadow-sm lg:col-span-2" aria-labelledby="trends-title" data-trends data-fetching={trends.isFetching || undefined}>
              <div className="card-body gap-4 p-4 sm:p-6">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 id="trends-title" className="card-title">
                    {TEXT.trendsTitle}
                    {trends.isFetching && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
                  </h2>
                  <div className="flex flex-wrap items-center gap-2">
                    <select
                      className="select select-bordered select-sm w-auto"
                      aria-label="Period"
                      value={range ? 'custom' : days}
                      onChange={(e) => choosePeriod(Number(e.target.value))}
                    >
                      {range && (
                        <option value="custom" disabled>
                          Custom range
                        </option>
                      )}
                      {PERIODS.map((p) => (
                        <option key={p.days} value={p.days}>
                          {p.label}
                        </option>
                      ))}
                    </select>
                    <button type="button" className={`btn btn-sm ${range ? 'btn-primary' : 'btn-outline'}`} onClick={() => setPicking(true)}>
                      {TEXT.customRange}
                    </button>
                  </div>
                </div>
                {range && (
                  <p className="text-sm text-base-content/70" data-custom-range={`${range.start}..${range.end}`}>
                    {`${formatDay(range.start)} – ${formatDay(range.end)} (${rangeDays(range)} ${rangeDays(range) === 1 ? 'day' : 'days'})`}
                  </p>
                )}
                {hasTrends ? (
                  <TrendsChart points={points} />
                ) : (
                  <div className="flex h-80 items-center justify-center text-base-content/60" data-trends-empty>
                    {TEXT.trendsEmpty}
                  </div>
                )}
              </div>
            </section>

            <section className="card bg-base-100 shadow-sm" aria-labelledby="distribution-title">
              <div className="card-body gap-4 p-4 sm:p-6">
                <h2 id="distribution-title" className="card-title">
                  {TEXT.distributionTitle}
                </h2>
                <DistributionPie requirements={stats?.total_requirements ?? 0} availabilities={stats?.total_availabilities ?? 0} />
              </div>
            </section>
          </div>

          {brokers.data && brokers.data.top_brokers.length > 0 && (
            <section className="card bg-base-100 shadow-sm" aria-labelledby="top-brokers-title">
              <div className="card-body gap-4 p-4 sm:p-6">
                <h2 id="top-brokers-title" className="card-title">
                  {TEXT.topBrokersTitle}
                </h2>
                <ol className="divide-y divide-base-200" data-top-brokers>
                  {brokers.data.top_brokers.map((b, i) => (
                    <li key={b.user_id} className="flex items-center gap-4 py-3" data-broker={b.email}>
                      <span className="badge badge-primary badge-lg w-10 shrink-0 font-semibold">{i + 1}</span>
                      <div className="min-w-0 flex-1">
                        <p className="truncate font-medium">{b.full_name}</p>
                        <p className="truncate text-sm text-base-content/70">{b.email}</p>
                      </div>
                      <span className="shrink-0 text-sm font-semibold" data-listing-count={b.listing_count}>
                        {TEXT.listings(b.listing_count)}
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            </section>
          )}
        </>
      )}

      <DateRangeDialog open={picking} today={today} value={range} onApply={applyRange} onClose={() => setPicking(false)} />
    </div>
  )
}

function RefreshIcon() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className="h-4 w-4" aria-hidden="true">
      <path d="M20 11a8 8 0 10-2.3 5.7M20 4v7h-7" />
    </svg>
  )
}
