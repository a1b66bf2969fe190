import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DashboardStats } from '../../src/modules/listings/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { fetchJson } from '../shared/query'

export const STATS_URL = '/api/analytics/dashboard'

const CARDS: { key: Exclude<keyof DashboardStats, 'scope'>; label: string; tone: string }[] = [
  { key: 'total_requirements', label: 'Total Requirements', tone: 'text-info' },
  { key: 'total_availabilities', label: 'Total Availabilities', tone: 'text-accent' },
  { key: 'active_brokers', label: 'Active Brokers', tone: 'text-primary' },
  { key: 'new_posts_today', label: 'New Posts Today', tone: 'text-success' },
]

/**
 * The dashboard's four statistics (SPEC "Broker dashboard"), refreshed every 300 s and after any listing change
 * (key ['dashboard-stats']). The server's numbers are the first view; a failed refresh keeps the last ones.
 */
export function StatsStrip({ initial }: { initial: DashboardStats }) {
  const [renderedAt] = useState(() => Date.now())
  const { data } = useQuery({
    queryKey: ['dashboard-stats'],
    queryFn: () => fetchJson<DashboardStats>(STATS_URL),
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.dashboardStats,
  })
  return (
    <div className="stats stats-vertical w-full bg-base-100 shadow-sm sm:stats-horizontal" aria-label="Listing statistics">
      {CARDS.map((c) => (
        <div key={c.key} className="stat" data-stat={c.key}>
          <div className="stat-title">{c.label}</div>
          <div className={`stat-value text-3xl ${c.tone}`}>{data[c.key].toLocaleString('en-US')}</div>
        </div>
      ))}
    </div>
  )
}
