import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { DealWithThread } from '../../src/modules/deals/model'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { useHydrated } from '../shared/useHydrated'
import { useLiveEvent } from '../shared/useLiveEvents'
import { describeListingError } from '../listings/listing-format'
import { DEAL_QUERY_KEYS, DEAL_TEXT, DEALS_PAGE, formatMoment, otherParty, reloadDeals, splitText, STAGE_LABELS, stageBadge } from './deal-format'
import { DealSteps } from './DealSteps'

export type DealThreadIslandProps = {
  viewerId: number
  /** One of the deal's brokers (acts in it); an admin of its city reads it. */
  canAct: boolean
  initial: DealWithThread
  /** The entry IDs of the listing and of the requester's own listing, as the viewer may see them. */
  entries: { listing: string | null; requester: string | null }
}

/**
 * One co-broke deal (issue 35): its locked split, its stage (with the site visit's date and time), the thread of
 * messages and steps, what each broker revealed, and the close both confirm (disputed when they disagree). The other
 * broker's steps arrive live on the event stream (`deal`).
 */
export default function DealThread({ viewerId, canAct, initial, entries }: DealThreadIslandProps) {
  const queryClient = useQueryClient()
  useLiveEvent('deal', reloadDeals)
  const [renderedAt] = useState(() => Date.now())
  const local = useHydrated()
  const key = DEAL_QUERY_KEYS.thread(initial.id)
  const query = useQuery({ queryKey: key, queryFn: () => fetchJson<DealWithThread>(`/api/deals/${initial.id}`), initialData: initial, initialDataUpdatedAt: renderedAt })
  const d = query.data
  const party = canAct && (d.owner_id === viewerId || d.requester_id === viewerId)
  const other = party ? otherParty(d, viewerId) : null
  const [message, setMessage] = useState('')
  const [messageError, setMessageError] = useState<string | null>(null)
  const send = useMutation({
    mutationFn: (body: string) => sendJson<DealWithThread>(`/api/deals/${d.id}/messages`, 'POST', { body }),
    onSuccess: (next) => (queryClient.setQueryData(key, next), setMessage('')),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['body'], DEAL_TEXT.stepFailed)
      setMessageError(fields.body ?? banner)
    },
  })
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    if (!message.trim()) return setMessageError('Write a message')
    setMessageError(null)
    send.mutate(message.trim())
  }

  const ownOutcome = d.owner_id === viewerId ? d.owner_outcome : d.requester_outcome
  const otherOutcome = d.owner_id === viewerId ? d.requester_outcome : d.owner_outcome
  return (
    <div className="space-y-4" data-deal-thread={d.id} data-stage={d.stage} data-fetching={query.isFetching || undefined}>
      <a href={DEALS_PAGE} className="link inline-flex min-h-11 items-center text-sm">
        ← All deals
      </a>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-bold [overflow-wrap:anywhere] sm:text-2xl">{other ? `Deal with ${other}` : `Deal: ${d.owner_name} and ${d.requester_name}`}</h1>
          <p className="mt-1 text-sm text-base-content/70 [overflow-wrap:anywhere]">
            {[entries.listing && `Listing ${entries.listing} (${d.owner_name})`, entries.requester && `for ${entries.requester} (${d.requester_name})`].filter(Boolean).join(' ') || 'Its listings are no longer shown'}
          </p>
          <p className="mt-1 text-sm" data-locked-split>{`Split, locked: ${splitText(d.split)}`}</p>
        </div>
        <span className={`badge badge-lg whitespace-nowrap ${stageBadge(d.stage)}`} data-stage-badge>
          {STAGE_LABELS[d.stage]}
        </span>
      </div>
      {query.isError && <LoadError title={DEAL_TEXT.loadFailed} message={query.error instanceof ApiError && query.error.status ? query.error.message : null} onRetry={() => void query.refetch()} />}
      {d.stage === 'DISPUTED' && (
        <div role="alert" className="alert alert-error" data-disputed>
          <span>
            {`Disputed: ${d.owner_name} confirmed ${d.owner_outcome === 'WON' ? 'won' : 'lost'}, ${d.requester_name} confirmed ${d.requester_outcome === 'WON' ? 'won' : 'lost'}. The admins of the city see this deal with its thread${party ? '; confirm again to settle it' : ''}.`}
          </span>
        </div>
      )}
      {d.stage === 'CLOSED_LOST' && d.lost_reason && (
        <p className="rounded-box border border-base-300 bg-base-200 p-3 text-sm" data-lost-reason>
          {`Lost: ${d.lost_reason}`}
        </p>
      )}
      {d.visit_at && (d.stage === 'SITE_VISIT' || d.stage === 'NEGOTIATING') && (
        <p className="rounded-box border border-info/40 bg-info/10 p-3 text-sm" data-visit>
          {'Site visit: '}
          <time dateTime={d.visit_at} className="font-semibold">
            {formatMoment(d.visit_at, local)}
          </time>
        </p>
      )}
      {party && ownOutcome && !otherOutcome && d.stage !== 'CLOSED_WON' && d.stage !== 'CLOSED_LOST' && (
        <p className="rounded-box border border-base-300 bg-base-200 p-3 text-sm" data-waiting>
          {`You confirmed ${ownOutcome === 'WON' ? 'closed won' : 'closed lost'}; waiting for ${other} to confirm.`}
        </p>
      )}
      {party && !ownOutcome && otherOutcome && d.stage !== 'DISPUTED' && (
        <p className="rounded-box border border-warning/50 bg-warning/10 p-3 text-sm" data-asked>
          {`${other} confirmed ${otherOutcome === 'WON' ? 'closed won' : 'closed lost'}: confirm it too to close the deal.`}
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section aria-labelledby="thread-title" className="min-w-0 space-y-3 rounded-box border border-base-300 bg-base-100 p-3 sm:p-4">
          <h2 id="thread-title" className="font-semibold">
            Thread
          </h2>
          <ol className="space-y-2" aria-label="Messages and steps" data-messages>
            {d.messages.map((m) => (
              <li
                key={m.id}
                data-message={m.kind}
                className={
                  m.kind === 'STEP'
                    ? 'text-center text-xs text-base-content/70'
                    : m.kind === 'REVEAL'
                      ? 'rounded-box border border-success/50 bg-success/10 p-2 text-sm'
                      : `max-w-[85%] rounded-box p-2 text-sm ${m.author_id === viewerId ? 'ml-auto bg-primary/10' : 'bg-base-200'}`
                }
              >
                {m.kind !== 'STEP' && <p className="text-xs font-semibold">{m.author_id === viewerId ? 'You' : (m.author_name ?? 'Brokernet')}</p>}
                <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.body}</p>
                <p className="text-[0.7rem] text-base-content/70">{formatMoment(m.created_at, local)}</p>
              </li>
            ))}
          </ol>
          {party && (
            <form noValidate onSubmit={submit} className="space-y-2 border-t border-base-300 pt-3" data-message-form>
              <label htmlFor="deal-message" className="label-text block font-medium">
                {`Message to ${other}`}
              </label>
              <textarea
                id="deal-message"
                name="body"
                rows={2}
                maxLength={4000}
                className={`textarea textarea-bordered w-full ${messageError ? 'textarea-error' : ''}`}
                value={message}
                aria-invalid={messageError ? true : undefined}
                aria-describedby={messageError ? 'deal-message-error' : undefined}
                onChange={(e) => setMessage(e.target.value)}
              />
              {messageError && (
                <p id="deal-message-error" className="text-sm text-error">
                  {messageError}
                </p>
              )}
              <button type="submit" className="btn btn-primary h-11 min-h-11" disabled={send.isPending}>
                {send.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                Send
              </button>
            </form>
          )}
        </section>
        {party && <DealSteps deal={d} viewerId={viewerId} onChanged={(next) => (queryClient.setQueryData(key, next), toast.success('Saved'))} />}
      </div>
    </div>
  )
}
