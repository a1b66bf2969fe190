import { Icon } from '../../shared/icons'
import { bannerText, suspendedText, type AdminActor } from './admin-text'

/** 'Admin Mode: ...' and how many suspended listings in the admin's scope need attention (SPEC "Admin listings"). */
export function AdminBanner({ actor, suspended, onShowSuspended }: { actor: AdminActor; suspended: number; onShowSuspended: () => void }) {
  return (
    <div role="note" className="alert alert-info alert-soft flex flex-wrap items-center gap-2 max-sm:px-3 max-sm:py-2 sm:gap-3" data-admin-banner>
      <Icon name="shield" className="h-6 w-6 shrink-0 max-sm:hidden" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold max-sm:text-sm">{bannerText(actor)}</p>
        <p className="text-sm" data-suspended-count={suspended}>
          {suspendedText(suspended)}
        </p>
      </div>
      {suspended > 0 && (
        <button type="button" className="btn btn-sm btn-warning" onClick={onShowSuspended}>
          Show suspended
        </button>
      )}
    </div>
  )
}
