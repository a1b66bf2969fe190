// "N new since your last visit" on the broker dashboard, and the `changed_since` filter its link sets (issue 17's
// hotsheet), shown as a chip that clears it.
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DashboardVisit } from '../../src/modules/dashboard/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { useDisplayTimeZone } from '../audit/useDisplayTimeZone'
import { fetchJson } from '../shared/query'
import { serializeListingFilters } from './url-filters'

export const VISIT_URL = '/api/dashboard/visit'

/** The listings page filtered to the news since a moment. */
export const newSinceHref = (since: string) => `/dashboard/listings?${serializeListingFilters({ changed_since: since })}`

/**
 * The count of the visit the server recorded when it rendered the page, refreshed with the statistics. The API only
 * reads the visit, so refreshing never starts a new one.
 */
export function NewSinceVisit({ initial }: { initial: DashboardVisit }) {
  const [renderedAt] = useState(() => Date.now())
  const { data } = useQuery({
    queryKey: ['dashboard-visit'],
    queryFn: () => fetchJson<DashboardVisit>(VISIT_URL),
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.dashboardStats,
  })
  const n = data.new_count
  return (
    <p className="mt-1 text-sm sm:text-base" data-new-since={n}>
      {n > 0 && data.since ? (
        <a className="link font-semibold" href={newSinceHref(data.since)}>
          {`${n.toLocaleString('en-US')} new since your last visit`}
        </a>
      ) : (
        <span className="text-base-content/70">Nothing new since your last visit</span>
      )}
    </p>
  )
}

/** The `changed_since` filter as a chip: what it keeps, and a button that removes it. */
export function ChangedSinceChip({ since, onClear }: { since: string | undefined; onClear: () => void }) {
  const timeZone = useDisplayTimeZone()
  if (!since) return null
  const when = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(since))
  return (
    <div className="flex flex-wrap items-center gap-2" data-changed-since={since}>
      <span className="badge badge-lg h-auto gap-1 border-base-300 bg-base-100 py-1 pe-1">
        {`New or changed since ${when}`}
        <button type="button" className="btn btn-ghost btn-xs btn-circle" aria-label={`Remove filter: new or changed since ${when}`} onClick={onClear}>
          <span aria-hidden="true">×</span>
        </button>
      </span>
    </div>
  )
}
