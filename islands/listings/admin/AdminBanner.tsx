import { Icon } from '../../shared/icons'
import { bannerText, reviewRequestedText, suspendedText, type AdminActor } from './admin-text'

type Props = {
  actor: AdminActor
  suspended: number
  /** Suspensions by an admin whose owner asks for a review (issue 29): a line and a button of their own when any. */
  reviewRequested: number
  onShowSuspended: () => void
  onShowReviewRequests: () => void
}

/** 'Admin Mode: ...' and how many suspended listings in the admin's scope need attention (SPEC "Admin listings"). */
export function AdminBanner({ actor, suspended, reviewRequested, onShowSuspended, onShowReviewRequests }: Props) {
  return (
    <div role="note" className="alert alert-info alert-soft flex flex-wrap items-center gap-2 max-sm:px-3 max-sm:py-2 sm:gap-3" data-admin-banner>
      <Icon name="shield" className="h-6 w-6 shrink-0 max-sm:hidden" />
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-semibold max-sm:text-sm">{bannerText(actor)}</p>
        <p className="text-sm" data-suspended-count={suspended}>
          {suspendedText(suspended)}
        </p>
        {reviewRequested > 0 && (
          <p className="text-sm font-medium" data-review-count={reviewRequested}>
            {reviewRequestedText(reviewRequested)}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        {reviewRequested > 0 && (
          <button type="button" className="btn btn-sm btn-warning" onClick={onShowReviewRequests}>
            Show review requests
          </button>
        )}
        {suspended > 0 && (
          <button type="button" className="btn btn-sm btn-warning" onClick={onShowSuspended}>
            Show suspended
          </button>
        )}
      </div>
    </div>
  )
}
