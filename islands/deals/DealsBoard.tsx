import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { CobrokeRequest, Deal, DealWithThread } from '../../src/modules/deals/model'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { useHydrated } from '../shared/useHydrated'
import { useLiveEvent } from '../shared/useLiveEvents'
import { listingErrorMessage } from '../listings/listing-format'
import type { Answering } from './AnswerDialog'
import { lazyDialog } from '../shared/lazy-dialog'
import { DEAL_QUERY_KEYS, DEAL_TEXT, dealHref, formatMoment, otherParty, reloadDeals, REQUEST_LABELS, splitText, STAGE_LABELS, stageBadge } from './deal-format'

// Closed when the page loads: its code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const AnswerDialog = lazyDialog(() => import('./AnswerDialog').then((m) => m.AnswerDialog), (p) => p.answering !== null)

export type DealsBoardIslandProps = {
  viewerId: number
  /** A broker acts in their requests and deals; an admin reads their city's. */
  canAct: boolean
  initialRequests: CobrokeRequest[]
  initialDeals: Deal[]
}

/**
 * /dashboard/deals (issue 35): requests for the broker's listings (accept, counter, decline with a reason), their own
 * requests (accept or decline a counter-offer), and the deals opened, each linking to its thread. Live: the other
 * broker's steps arrive on the event stream (`deal`).
 */
export default function DealsBoard({ viewerId, canAct, initialRequests, initialDeals }: DealsBoardIslandProps) {
  const queryClient = useQueryClient()
  useLiveEvent('deal', reloadDeals)
  const [renderedAt] = useState(() => Date.now())
  const local = useHydrated()
  const requests = useQuery({ queryKey: DEAL_QUERY_KEYS.requests, queryFn: () => fetchJson<CobrokeRequest[]>('/api/cobroke-requests'), initialData: initialRequests, initialDataUpdatedAt: renderedAt })
  const deals = useQuery({ queryKey: DEAL_QUERY_KEYS.list, queryFn: () => fetchJson<Deal[]>('/api/deals'), initialData: initialDeals, initialDataUpdatedAt: renderedAt })
  const [answering, setAnswering] = useState<Answering | null>(null)

  const accept = useMutation({
    mutationFn: (r: CobrokeRequest) => sendJson<DealWithThread>(`/api/cobroke-requests/${r.id}/accept`, 'POST'),
    onSuccess: (deal) => {
      toast.success('Accepted: the split is locked and the deal is open')
      void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })
      window.location.assign(dealHref(deal.id))
    },
    onError: (err) => (toast.error(listingErrorMessage(err, DEAL_TEXT.answerFailed)), void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })),
  })

  const all = requests.data ?? []
  const incoming = all.filter((r) => r.owner_id === viewerId)
  const outgoing = all.filter((r) => r.requester_id === viewerId)
  const entryOf = new Map(all.map((r) => [r.id, r.listing_entry_id]))
  const loadError = requests.error ?? deals.error

  const requestItem = (r: CobrokeRequest) => {
    const mine = r.owner_id === viewerId
    const myTurn = canAct && ((r.awaiting === 'OWNER' && mine) || (r.awaiting === 'REQUESTER' && !mine))
    return (
      <li key={r.id} className="rounded-box border border-base-300 bg-base-100 p-3 sm:p-4" data-request={r.id} data-status={r.status}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="min-w-0 font-medium [overflow-wrap:anywhere]">
            <span className="font-mono">{r.listing_entry_id ?? 'A listing no longer shown'}</span>
            {` · ${mine ? `from ${r.requester_name}` : `to ${r.owner_name}`}`}
          </p>
          <span className={`badge whitespace-nowrap ${r.status === 'ACCEPTED' ? 'badge-success' : r.status === 'PENDING' || r.status === 'COUNTERED' ? 'badge-info' : 'badge-neutral'}`}>
            {r.status === 'COUNTERED' ? (mine ? 'Countered: waiting for them' : 'Counter-offer: your answer') : r.status === 'PENDING' && mine ? 'Your answer' : REQUEST_LABELS[r.status]}
          </span>
        </div>
        <p className="mt-1 text-sm" data-split-text>
          {`${r.status === 'COUNTERED' ? 'Counter-offer' : 'Split'}: ${splitText(r.split)}`}
        </p>
        {r.message && <p className="mt-1 whitespace-pre-wrap text-sm text-base-content/80 [overflow-wrap:anywhere]">{`“${r.message}”`}</p>}
        {r.decline_reason && <p className="mt-1 text-sm text-base-content/80">{`Declined: ${r.decline_reason}`}</p>}
        {(r.status === 'PENDING' || r.status === 'COUNTERED') && <p className="mt-1 text-xs text-base-content/70">{`Open until ${formatMoment(r.expires_at, local)}`}</p>}
        {(myTurn || r.deal_id !== null) && (
          <div className="mt-3 flex flex-wrap gap-2">
            {myTurn && (
              <>
                <button type="button" className="btn btn-primary btn-sm h-11 min-h-11 px-4" disabled={accept.isPending} onClick={() => accept.mutate(r)}>
                  {r.awaiting === 'REQUESTER' ? 'Accept counter-offer' : 'Accept'}
                </button>
                {r.awaiting === 'OWNER' && (
                  <button type="button" className="btn btn-outline btn-sm h-11 min-h-11 px-4" onClick={() => setAnswering({ mode: 'counter', request: r })}>
                    Counter
                  </button>
                )}
                <button type="button" className="btn btn-outline btn-error btn-sm h-11 min-h-11 px-4" onClick={() => setAnswering({ mode: 'decline', request: r })}>
                  Decline
                </button>
              </>
            )}
            {r.deal_id !== null && (
              <a className="btn btn-outline btn-sm h-11 min-h-11 px-4" href={dealHref(r.deal_id)}>
                Open deal
              </a>
            )}
          </div>
        )}
      </li>
    )
  }

  const list = deals.data ?? []
  return (
    <div className="space-y-5" data-deals-board data-fetching={requests.isFetching || deals.isFetching || undefined}>
      <div>
        <h1 className="text-xl font-bold sm:text-2xl">{DEAL_TEXT.title}</h1>
        <p className="mt-1 text-sm text-base-content/70 sm:text-base">{DEAL_TEXT.lead}</p>
      </div>
      {loadError && <LoadError title={DEAL_TEXT.loadFailed} message={loadError instanceof ApiError && loadError.status ? loadError.message : null} onRetry={() => void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })} />}

      <section aria-labelledby="deals-title" className="space-y-3" data-deals>
        <h2 id="deals-title" className="text-lg font-semibold">
          {DEAL_TEXT.deals}
        </h2>
        {list.length === 0 ? (
          <p className="text-sm text-base-content/70">{DEAL_TEXT.noDeals}</p>
        ) : (
          <ul className="space-y-2">
            {list.map((d) => (
              <li key={d.id} data-deal={d.id} data-stage={d.stage}>
                <a className="flex min-h-11 flex-wrap items-center justify-between gap-2 rounded-box border border-base-300 bg-base-100 p-3 hover:bg-base-200 sm:p-4" href={dealHref(d.id)}>
                  <span className="min-w-0 [overflow-wrap:anywhere]">
                    <span className="font-medium">{canAct ? `Deal with ${otherParty(d, viewerId)}` : `${d.owner_name} and ${d.requester_name}`}</span>
                    {entryOf.get(d.request_id) && <span className="font-mono text-sm">{` · ${entryOf.get(d.request_id)}`}</span>}
                    <span className="block text-xs text-base-content/70">{`${splitText(d.split)} · updated ${formatMoment(d.updated_at, local)}`}</span>
                  </span>
                  <span className={`badge whitespace-nowrap ${stageBadge(d.stage)}`}>{STAGE_LABELS[d.stage]}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      {canAct && (
        <div className="grid gap-5 lg:grid-cols-2">
          <section aria-labelledby="requests-in-title" className="min-w-0 space-y-3" data-requests="in">
            <h2 id="requests-in-title" className="text-lg font-semibold">
              {DEAL_TEXT.incoming}
            </h2>
            {incoming.length === 0 ? <p className="text-sm text-base-content/70">{DEAL_TEXT.noIncoming}</p> : <ul className="space-y-3">{incoming.map(requestItem)}</ul>}
          </section>
          <section aria-labelledby="requests-out-title" className="min-w-0 space-y-3" data-requests="out">
            <h2 id="requests-out-title" className="text-lg font-semibold">
              {DEAL_TEXT.outgoing}
            </h2>
            {outgoing.length === 0 ? <p className="text-sm text-base-content/70">{DEAL_TEXT.noOutgoing}</p> : <ul className="space-y-3">{outgoing.map(requestItem)}</ul>}
          </section>
        </div>
      )}
      <AnswerDialog answering={answering} onClose={() => setAnswering(null)} />
    </div>
  )
}
