import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { lazyDialog } from '../shared/lazy-dialog'
import type { RowMenuItem } from '../shared/table/RowMenu'
import { DEAL_ACTION_TEXT as DEAL_TEXT } from './deal-action-text'

// Closed when the page loads: their code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const CobrokeDialog = lazyDialog(() => import('./CobrokeDialog').then((m) => m.CobrokeDialog), (p) => p.listing !== null)
const ReportDialog = lazyDialog(() => import('./ReportDialog').then((m) => m.ReportDialog), (p) => p.listing !== null)

/**
 * The co-broking hooks of the listing and match screens (issue 35): "I have a client for this" (a card's button, a
 * row's menu, the details' actions, a match's actions) and "Report listing" (the details), with their two dialogs.
 * Only a broker, only on another broker's ACTIVE listing: what the server accepts (it refuses the rest).
 */
export function useDealActions(viewerId: number | null, enabled = true) {
  const [cobroke, setCobroke] = useState<{ listing: Listing; mine: Listing | null } | null>(null)
  const [reporting, setReporting] = useState<Listing | null>(null)
  const eligible = (l: Listing) => enabled && viewerId !== null && l.owner_user_id !== viewerId && l.status === 'ACTIVE'
  const request = (l: Listing, mine: Listing | null = null) => setCobroke({ listing: l, mine })
  return {
    eligible,
    /** A row's menu items. */
    menuItems: (l: Listing): RowMenuItem[] => (eligible(l) ? [{ label: DEAL_TEXT.cobroke, onSelect: () => request(l) }] : []),
    /** The button of a card or a match (`mine`: the requester's listing it matched). */
    button: (l: Listing, mine: Listing | null = null) =>
      eligible(l) ? (
        <button type="button" className="btn btn-sm btn-secondary h-11 min-h-11 px-4" aria-label={`${DEAL_TEXT.cobroke}: ${l.entry_id}`} data-cobroke={l.entry_id} onClick={() => request(l, mine)}>
          {DEAL_TEXT.cobroke}
        </button>
      ) : null,
    /** The details' action bar: the details close and the dialog opens. */
    detailsActions: (l: Listing | null, closeDetails: () => void) =>
      l && eligible(l) ? (
        <>
          <button type="button" className="btn btn-secondary h-11 min-h-11" data-cobroke={l.entry_id} onClick={() => (closeDetails(), request(l))}>
            {DEAL_TEXT.cobroke}
          </button>
          <button type="button" className="btn btn-outline btn-warning h-11 min-h-11" data-report={l.entry_id} onClick={() => (closeDetails(), setReporting(l))}>
            {DEAL_TEXT.report}
          </button>
        </>
      ) : null,
    dialogs: (
      <>
        <CobrokeDialog listing={cobroke?.listing ?? null} mine={cobroke?.mine ?? null} viewerId={viewerId} onClose={() => setCobroke(null)} />
        <ReportDialog listing={reporting} onClose={() => setReporting(null)} />
      </>
    ),
  }
}
