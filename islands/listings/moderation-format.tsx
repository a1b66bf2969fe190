// How a listing suspended by an admin reads on every listing screen (issue 29): the owner's row and card, the admin
// grid's tags, and the notice in the details and edit dialogs. The rules are the server's (src/modules/listings/
// moderation.ts); `listing.moderation` is set exactly while an admin's suspension holds.
import type { Listing } from '../../src/modules/listings/model'
import { SUSPENSION_REASON_REQUIRED } from '../../src/shared/constants'
import { formatListingDate, STATUS_LABELS, statusBadgeClass } from './listing-format'
import { isReportedOff, ReportedOffStatus } from './reported-off-status'

export const MODERATION_TEXT = {
  badge: 'Suspended by an admin',
  reviewRequested: 'Review requested',
  onlyAdmins: 'Only an admin of its city can reactivate it.',
  askReview: 'Ask for a review',
  keepSuspended: 'Keep suspended',
  reasonLabel: 'Reason for suspending',
  reasonHint: 'The broker sees this reason and cannot reactivate the listing; they may ask for a review.',
  reasonRequired: SUSPENSION_REASON_REQUIRED,
  reviewSent: (admins: number) => `Review requested: ${admins === 1 ? '1 admin was' : `${admins} admins were`} told.`,
  reviewFailed: 'Failed to ask for a review',
} as const

/** Suspended by an admin (not by its owner), with their reason. */
export const isModerated = (l: Pick<Listing, 'moderation'>): l is Listing & { moderation: NonNullable<Listing['moderation']> } => !!l.moderation
/** Its owner asked for a review no admin has answered yet. */
export const reviewPending = (l: Pick<Listing, 'moderation'>) => !!l.moderation?.review_requested_at

/** 'Mar 3, 2026': when, in the listing tables' calendar. */
const day = (iso: string) => formatListingDate(iso.slice(0, 10))

/**
 * The status as My Listings shows it (a row's Status cell, a card's badges): an admin's suspension reads 'Suspended by
 * an admin', its reason under it (the whole of it on hover and in the details), then 'Review requested' once asked.
 */
export function StatusWithModeration({ listing: l }: { listing: Listing }) {
  // Issue 35: taken off the network by brokers' reports, until its broker answers (./reported-off.tsx).
  if (isReportedOff(l)) return <ReportedOffStatus listing={l} />
  if (!isModerated(l)) return <span className={`badge badge-sm whitespace-nowrap ${statusBadgeClass(l.status)}`}>{STATUS_LABELS[l.status]}</span>
  return (
    <div className="flex min-w-0 max-w-[8.5rem] flex-col items-start gap-1 @max-[40rem]:max-w-[16rem]" data-moderation>
      <span className="badge badge-sm badge-error h-auto whitespace-normal text-left">{MODERATION_TEXT.badge}</span>
      <span className="line-clamp-2 text-xs text-base-content/80 [overflow-wrap:anywhere]" title={l.moderation.reason} data-moderation-reason>
        {l.moderation.reason}
      </span>
      {reviewPending(l) && <ReviewTag />}
    </div>
  )
}

/** The admin grid's tags under the status: who suspended it, and whether its owner waits for a review. */
export function ModerationTags({ listing: l }: { listing: Listing }) {
  // Issue 35: off the network by brokers' reports until its broker answers.
  if (isReportedOff(l))
    return (
      <span className="badge badge-xs badge-outline badge-warning whitespace-nowrap" data-reported-off>
        reported
      </span>
    )
  if (!isModerated(l)) return null
  return (
    <>
      <span className="badge badge-xs badge-outline badge-error whitespace-nowrap" title={l.moderation.reason}>
        by an admin
      </span>
      {reviewPending(l) && <ReviewTag size="xs" />}
    </>
  )
}

function ReviewTag({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  return (
    <span className={`badge ${size === 'xs' ? 'badge-xs' : 'badge-sm'} badge-warning whitespace-nowrap`} data-review-requested>
      {MODERATION_TEXT.reviewRequested}
    </span>
  )
}

/**
 * The notice at the top of a listing's details (and of its owner's edit form): suspended by an admin on a day, why,
 * and the review asked for with its note. `owner`: the reader is its owner, told who may reactivate it.
 */
export function ModerationNotice({ listing: l, owner = false }: { listing: Listing; owner?: boolean }) {
  if (!isModerated(l)) return null
  const m = l.moderation
  return (
    <div role="note" className="alert alert-error alert-soft items-start text-sm" data-moderation-notice>
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">
          {MODERATION_TEXT.badge} on {day(m.suspended_at)}
        </p>
        <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">
          <span className="font-medium">Reason:</span> {m.reason}
        </p>
        {owner && <p>{MODERATION_TEXT.onlyAdmins}</p>}
        {m.review_requested_at && (
          <p>
            <span className="font-medium">
              {MODERATION_TEXT.reviewRequested} on {day(m.review_requested_at)}
              {m.review_note ? ':' : '.'}
            </span>{' '}
            {m.review_note && <span className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.review_note}</span>}
          </p>
        )}
      </div>
    </div>
  )
}
