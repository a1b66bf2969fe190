// A broker's record (issue 35): verified since, deals closed through Brokernet, how fast and how often they answer
// co-broke requests. Shown in a listing's details (its broker's) and on a broker's profile page; read from
// GET /api/brokers/{id}/record.
import { useQuery } from '@tanstack/react-query'
import type { BrokerRecord } from '../../src/modules/deals/model'
import { ApiError } from '../shared/api'
import { fetchJson } from '../shared/query'

/** A broker's profile page (src/modules/users/profile.page.tsx). */
export const profileUrl = (brokerId: number) => `/dashboard/profile/${brokerId}`

const MONTH = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** "45 min", "3 h", "2 days": a median answer time as a broker reads it. */
export function answerTime(minutes: number): string {
  if (minutes < 60) return `${Math.max(1, minutes)} min`
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h`
  return `${Math.round(minutes / 1440)} days`
}

/** The record's four lines, as label and value. */
export function recordLines(r: BrokerRecord): { label: string; value: string }[] {
  const answered = r.answered_share === null ? 0 : Math.round(r.answered_share * r.requests_received)
  return [
    { label: 'Verified', value: r.verified_since ? `Since ${MONTH.format(new Date(r.verified_since))}` : 'Not verified' },
    { label: 'Deals closed', value: r.deals_closed === 0 ? 'None through Brokernet yet' : `${r.deals_closed} through Brokernet` },
    { label: 'Answers requests in', value: r.median_answer_minutes === null ? 'No request answered yet' : `${answerTime(r.median_answer_minutes)} (median)` },
    {
      label: 'Requests answered',
      value: r.answered_share === null ? 'No requests yet' : `${Math.round(r.answered_share * 100)}% (${answered} of ${r.requests_received})`,
    },
  ]
}

/** The record as a list of label and value, one line each. */
export function BrokerRecordList({ record }: { record: BrokerRecord }) {
  return (
    <dl className="text-sm" data-broker-record={record.user_id}>
      {recordLines(record).map((line) => (
        <div key={line.label} className="flex justify-between gap-4 py-1">
          <dt className="shrink-0 text-base-content/70">{line.label}</dt>
          <dd className="min-w-0 text-right font-medium">{line.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The record of a listing's broker, read when the details open; a link to their profile. */
export function ListingBrokerRecord({ brokerId }: { brokerId: number }) {
  const query = useQuery({ queryKey: ['broker-record', brokerId], queryFn: () => fetchJson<BrokerRecord>(`/api/brokers/${brokerId}/record`), staleTime: 60_000 })
  // An admin's listing: admins have no record (the API's 404 for someone who is not a broker).
  if (query.error instanceof ApiError && query.error.status === 404) return <p className="py-1 text-sm text-base-content/70">Posted by an administrator: no broker’s record.</p>
  return (
    <div className="min-w-0">
      {query.data ? (
        <BrokerRecordList record={query.data} />
      ) : query.isError ? (
        <p className="py-1 text-sm text-base-content/70">The broker’s record could not be read.</p>
      ) : (
        <p className="flex items-center gap-2 py-1 text-sm text-base-content/70" role="status">
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          Reading the broker’s record…
        </p>
      )}
      <a href={profileUrl(brokerId)} className="link link-primary mt-1 inline-flex min-h-11 items-center text-sm">
        Broker’s profile
      </a>
    </div>
  )
}
