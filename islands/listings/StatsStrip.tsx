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
 * Four figures side by side from 640 px; on a phone a compact grid (two by two, or four in a row for short labels), so
 * the list itself starts on the first screen.
 */
export const STATS_LAYOUT = {
  twoByTwo:
    'stats w-full bg-base-100 shadow-sm max-sm:grid max-sm:grid-flow-row max-sm:grid-cols-2 max-sm:[&>.stat:nth-child(2n)]:border-e-0 max-sm:[&>.stat:nth-child(-n+2)]:border-b max-sm:[&>.stat:nth-child(-n+2)]:border-dashed max-sm:[&>.stat:nth-child(-n+2)]:border-base-content/10',
  fiveInARow: 'stats w-full bg-base-100 shadow-sm max-sm:grid max-sm:grid-flow-row max-sm:grid-cols-5',
  stat: { twoByTwo: 'stat max-sm:px-4 max-sm:py-2', fiveInARow: 'stat max-sm:px-1.5 max-sm:py-2' },
  value: 'stat-value text-xl sm:text-3xl',
} as const

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
    <div className={STATS_LAYOUT.twoByTwo} aria-label="Listing statistics">
      {CARDS.map((c) => (
        <div key={c.key} className={STATS_LAYOUT.stat.twoByTwo} data-stat={c.key}>
          <div className="stat-title max-sm:whitespace-normal">{c.label}</div>
          <div className={`${STATS_LAYOUT.value} ${c.tone}`}>{data[c.key].toLocaleString('en-US')}</div>
        </div>
      ))}
    </div>
  )
}
