// A listing taken off the network by reports (issue 35): its status in a row or a card, with the reasons counted.
// Apart from ./reported-off.tsx (the details' notice and the broker's answers: a mutation and a confirmation dialog),
// because every listing table shows a status and the network list needs nothing more
// (docs/decisions/049-phone-last-kilobytes.md).
import { useQuery } from '@tanstack/react-query'
import type { Listing } from '../../src/modules/listings/model'
import { fetchJson } from '../shared/query'

export type ReportReason = 'SOLD_OR_RENTED' | 'NO_RESPONSE' | 'WRONG_DETAILS' | 'FAKE'
export type Reports = { off_network: boolean; reports: { reason: ReportReason; note: string | null; created_at: string; reporter_name: string | null }[] }

export const REPORTED_TEXT = {
  badge: 'Off the network: reported',
  stillAvailable: 'Still available',
  closeIt: 'Close it',
  notice: 'Other brokers no longer see it until its broker answers: still available puts it back on the network; or it is closed.',
  confirmTitle: 'Close this listing?',
  confirmMessage: (entry: string) => `${entry} will be closed: it stays off the network. The reports are answered “closed”.`,
  back: (entry: string) => `${entry} is back on the network`,
  closed: (entry: string) => `${entry} closed`,
  failed: 'Failed to answer the reports',
} as const

/** The reasons in the owner's words. */
const REASON_WORDS: Record<ReportReason, string> = { SOLD_OR_RENTED: 'Sold or rented', NO_RESPONSE: 'No response', WRONG_DETAILS: 'Wrong details', FAKE: 'Fake' }

export const isReportedOff = (l: Pick<Listing, 'reported_off_at'>) => l.reported_off_at !== null

/** The listing's open reports, read once for its row, card and details alike (only while they keep it off). */
export function useReports(l: Listing) {
  return useQuery({
    queryKey: ['listing-reports', l.id, l.reported_off_at],
    queryFn: () => fetchJson<Reports>(`/api/listings/${l.id}/reports`),
    enabled: isReportedOff(l),
    staleTime: 60_000,
  })
}

/** 'Sold or rented ×2 · Fake ×1': the reasons counted, most first. */
export function countReasons(reports: Reports['reports']): { reason: ReportReason; words: string; n: number }[] {
  const counts = new Map<ReportReason, number>()
  for (const r of reports) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1)
  return [...counts].map(([reason, n]) => ({ reason, words: REASON_WORDS[reason], n })).sort((a, b) => b.n - a.n || a.words.localeCompare(b.words))
}
const reasonsLine = (reports: Reports['reports']) => countReasons(reports).map((c) => `${c.words} ×${c.n}`).join(' · ')

/** A row's Status cell and a card's status: the badge, the reasons counted under it. */
export function ReportedOffStatus({ listing: l }: { listing: Listing }) {
  const { data } = useReports(l)
  const line = data ? reasonsLine(data.reports) : ''
  return (
    <div className="flex min-w-0 max-w-[8.5rem] flex-col items-start gap-1 @max-[40rem]:max-w-[16rem]" data-reported-off>
      <span className="badge badge-sm badge-warning h-auto whitespace-normal text-left">{REPORTED_TEXT.badge}</span>
      {line && (
        <span className="line-clamp-2 text-xs text-base-content/80" title={line} data-report-reasons>
          {line}
        </span>
      )}
    </div>
  )
}

