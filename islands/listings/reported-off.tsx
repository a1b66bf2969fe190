// A listing taken off the network by reports (issue 35) as its broker sees it on My Listings: the row's and card's
// status, the notice in its details with the reasons counted, and the broker's two answers, "Still available" (back on
// the network) and "Close it" (confirmed first: the listing is closed). The rules are the server's
// (src/modules/listings/reports.ts); `listing.reported_off_at` is set exactly while the reports keep it off.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { ConfirmDialog } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { formatListingDate, invalidateListingQueries, listingErrorMessage } from './listing-format'
import { countReasons, isReportedOff, REPORTED_TEXT, useReports } from './reported-off-status'

export { isReportedOff, REPORTED_TEXT, ReportedOffStatus } from './reported-off-status'

type Answer = 'STILL_AVAILABLE' | 'CLOSED'

/** The notice at the top of the details: why it is off the network, each reason counted, the reporters' notes. */
export function ReportedOffNotice({ listing: l }: { listing: Listing }) {
  const { data } = useReports(l)
  if (!isReportedOff(l)) return null
  const notes = (data?.reports ?? []).filter((r) => r.note)
  return (
    <div role="note" className="alert alert-warning alert-soft items-start text-sm" data-reported-notice>
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">
          {`Off the network since ${formatListingDate(l.reported_off_at!.slice(0, 10))}: reported by ${data ? data.reports.length : 'three'} brokers`}
        </p>
        <p>{REPORTED_TEXT.notice}</p>
        {data && (
          <ul className="list-inside list-disc" aria-label="Reasons reported" data-report-reasons>
            {countReasons(data.reports).map((c) => (
              <li key={c.reason}>{`${c.words}: ${c.n}`}</li>
            ))}
          </ul>
        )}
        {notes.length > 0 && (
          <ul className="space-y-0.5" aria-label="Notes from the reports">
            {notes.map((r, i) => (
              <li key={i} className="whitespace-pre-wrap [overflow-wrap:anywhere]">{`“${r.note}”`}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

/**
 * The broker's two answers: `buttons(l, …)` for a card or the details, `menuItems(l)` for a row, and the confirmation
 * that closing asks for (`dialog`). "Still available" is one tap; "Close it" one tap and a confirmation.
 */
export function useReportAnswers(onDone?: () => void) {
  const queryClient = useQueryClient()
  const [closing, setClosing] = useState<Listing | null>(null)
  const answer = useMutation({
    mutationFn: ({ listing, to }: { listing: Listing; to: Answer }) => sendJson<Listing>(`/api/listings/${listing.id}/reports/answer`, 'POST', { answer: to }),
    onSuccess: (saved, { to }) => {
      toast.success(to === 'CLOSED' ? REPORTED_TEXT.closed(saved.entry_id) : REPORTED_TEXT.back(saved.entry_id))
      setClosing(null)
      void queryClient.invalidateQueries({ queryKey: ['listing-reports'] })
      void invalidateListingQueries(queryClient)
      onDone?.()
    },
    onError: (err) => toast.error(listingErrorMessage(err, REPORTED_TEXT.failed)),
  })
  const stillAvailable = (l: Listing) => answer.mutate({ listing: l, to: 'STILL_AVAILABLE' })
  return {
    menuItems: (l: Listing) =>
      isReportedOff(l)
        ? [
            { label: REPORTED_TEXT.stillAvailable, tone: 'success' as const, onSelect: () => stillAvailable(l) },
            { label: REPORTED_TEXT.closeIt, tone: 'error' as const, onSelect: () => setClosing(l) },
          ]
        : [],
    /** `before`: what the buttons do first (the details close). */
    buttons: (l: Listing, before: () => void = () => {}) =>
      isReportedOff(l) ? (
        <>
          <button type="button" className="btn btn-sm btn-success h-11 min-h-11" data-still-available={l.entry_id} disabled={answer.isPending} onClick={() => (before(), stillAvailable(l))}>
            {REPORTED_TEXT.stillAvailable}
          </button>
          <button type="button" className="btn btn-sm btn-outline btn-error h-11 min-h-11" data-close-reported={l.entry_id} disabled={answer.isPending} onClick={() => (before(), setClosing(l))}>
            {REPORTED_TEXT.closeIt}
          </button>
        </>
      ) : null,
    dialog: (
      <ConfirmDialog
        open={closing !== null}
        title={REPORTED_TEXT.confirmTitle}
        message={closing ? REPORTED_TEXT.confirmMessage(closing.entry_id) : ''}
        confirmLabel={REPORTED_TEXT.closeIt}
        tone="error"
        busy={answer.isPending}
        onConfirm={() => closing && answer.mutate({ listing: closing, to: 'CLOSED' })}
        onClose={() => setClosing(null)}
      />
    ),
  }
}
