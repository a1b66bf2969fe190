import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { lazyDialog } from '../shared/lazy-dialog'
import { useEffect, useMemo, useState } from 'react'
import type { Inbox, InboxEntry } from '../../src/modules/matches/model'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { Pagination, showingText } from '../shared/Pagination'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { useLiveEvent, type LiveEventHandler } from '../shared/useLiveEvents'
import { listingErrorMessage, postTypeLabel } from '../listings/listing-format'
import { useDetailsDialog } from '../listings/useDetailsDialog'
import { MatchCard } from './MatchCard'
import { groupInbox, MATCH_QUERY_KEYS, MATCH_TEXT } from './match-format'
import { ToleranceControl, type CityTolerance } from './ToleranceControl'
import { ListingExpiryControl, type CityExpiry } from '../geo/ListingExpiry'
import { useDealActions } from '../deals/useDealActions'

// Closed when the page loads: dialog code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const ListingDetailsDialog = lazyDialog(() => import('../listings/ListingDetailsDialog').then((m) => m.ListingDetailsDialog), (p) => p.listing !== null)

export type MatchInboxIslandProps = {
  /** GET /api/matches, first page, as the server read it. */
  initial: Inbox
  perPage: number
  /** MATCH_RULES (src/modules/matches/rules.ts), the contract in words, for the help. */
  rules: readonly string[]
  /** A module admin's own city's tolerance, which they may set here; null for everyone else. */
  tolerance: CityTolerance | null
  /** Likewise their city's listing expiry defaults (issue 17), beside the tolerance; null for everyone else. */
  expiry: CityExpiry | null
  /** The viewer's id when they may co-broke (a broker: "I have a client for this" on a match, issue 35); else null. */
  cobrokeAs?: number | null
}

/** A match announced to this user while the screen is open: read the inbox again (unseen first, so it shows on top). */
const reloadOnNewMatch: LiveEventHandler = (data, queryClient) => {
  if ((data as { new?: number[] }).new?.length) void queryClient.invalidateQueries({ queryKey: MATCH_QUERY_KEYS.inbox })
}

/**
 * /dashboard/matches (issue 15): the user's inbox of matches, grouped by their own listing, each match with its score,
 * reasons and the other broker's contact (Call, WhatsApp), Mark seen and Not interested; the rules in a help panel; and
 * for a module admin, their city's tolerance.
 */
export default function MatchInbox({ initial, perPage, rules, tolerance, expiry, cobrokeAs = null }: MatchInboxIslandProps) {
  const queryClient = useQueryClient()
  useLiveEvent('matches', reloadOnNewMatch)
  const [page, setPage] = useState(1)
  const [renderedAt] = useState(() => Date.now())
  const key = [...MATCH_QUERY_KEYS.inbox, page] as const
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchJson<Inbox>(`/api/matches?page=${page}&per_page=${perPage}&order=unseen_first`),
    initialData: page === 1 ? initial : undefined,
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
  })
  const inbox = query.data
  const totalPages = inbox ? Math.ceil(inbox.total / inbox.per_page) : 0
  // A dismissal can empty the last page: step back to the new last one.
  useEffect(() => {
    if (totalPages > 0 && page > totalPages) setPage(totalPages)
  }, [page, totalPages])
  const groups = useMemo(() => groupInbox(inbox?.matches ?? []), [inbox])
  const details = useDetailsDialog()
  const deals = useDealActions(cobrokeAs)

  const reload = () => Promise.all(Object.values(MATCH_QUERY_KEYS).map((queryKey) => queryClient.invalidateQueries({ queryKey })))
  /** Changes this page's copy at once (the entry reads seen, or leaves), then reloads from the server. */
  const patchEntry = (id: number, change: (e: InboxEntry) => InboxEntry | null) =>
    queryClient.setQueryData<Inbox>(key, (old) => {
      if (!old) return old
      const before = old.matches.find((e) => e.id === id)
      const after = before ? change(before) : null
      const matches = old.matches.flatMap((e) => (e.id !== id ? [e] : after ? [after] : []))
      const unseenDrop = before && !before.seen && (!after || after.seen) ? 1 : 0
      return { ...old, matches, unseen: old.unseen - unseenDrop, total: old.total - (after ? 0 : 1) }
    })
  const markSeen = useMutation({
    mutationFn: (e: InboxEntry) => sendJson<void>(`/api/matches/${e.id}/seen`, 'POST'),
    onSuccess: (_r, e) => (patchEntry(e.id, (x) => ({ ...x, seen: true })), void reload()),
    onError: (err) => toast.error(listingErrorMessage(err, MATCH_TEXT.seenFailed)),
  })
  const dismiss = useMutation({
    mutationFn: (e: InboxEntry) => sendJson<void>(`/api/matches/${e.id}/dismiss`, 'POST'),
    // Undoable for 10 s (issue 32): the toast's Undo takes the dismissal back on the server.
    onSuccess: (_r, e) => (patchEntry(e.id, () => null), toast.undoable(MATCH_TEXT.dismissed, () => restore.mutate(e)), void reload()),
    onError: (err) => toast.error(listingErrorMessage(err, MATCH_TEXT.dismissFailed)),
  })
  const restore = useMutation({
    mutationFn: (e: InboxEntry) => sendJson<void>(`/api/matches/${e.id}/dismiss`, 'DELETE'),
    onSuccess: () => void reload(),
    onError: (err) => toast.error(listingErrorMessage(err, MATCH_TEXT.restoreFailed)),
  })

  return (
    <div className="space-y-4 sm:space-y-5" data-match-inbox data-fetching={query.isFetching || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-bold sm:text-2xl">{MATCH_TEXT.title}</h1>
          <p className="mt-1 text-sm text-base-content/70 sm:text-base">{MATCH_TEXT.lead}</p>
        </div>
        {inbox && (
          <p className="badge badge-lg badge-outline whitespace-nowrap" data-unseen={inbox.unseen}>
            {`${inbox.unseen} unseen`}
          </p>
        )}
      </div>

      <details className="collapse collapse-arrow border border-base-300 bg-base-100" data-match-rules>
        <summary className="collapse-title font-medium">{MATCH_TEXT.rulesTitle}</summary>
        <div className="collapse-content text-sm">
          <ul className="list-disc space-y-1 pl-5">
            {rules.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      </details>

      {(tolerance || expiry) && (
        <div className="grid gap-3 lg:grid-cols-2 lg:gap-5">
          {tolerance && <ToleranceControl tolerance={tolerance} />}
          {expiry && <ListingExpiryControl expiry={expiry} />}
        </div>
      )}

      {query.isError && (
        <LoadError
          title={MATCH_TEXT.loadFailed}
          message={query.error instanceof ApiError && query.error.status ? query.error.message : null}
          onRetry={() => void query.refetch()}
        />
      )}

      {inbox && groups.length === 0 && (
        <div className="card bg-base-100 shadow-sm">
          <div className="card-body items-center text-center" data-empty>
            <h2 className="card-title">{MATCH_TEXT.emptyTitle}</h2>
            <p className="max-w-prose text-base-content/70">{MATCH_TEXT.emptyText}</p>
          </div>
        </div>
      )}

      {groups.map((g) => (
        <section key={g.listing.id} className="space-y-3" aria-labelledby={`match-group-${g.listing.id}`} data-match-group={g.listing.entry_id}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id={`match-group-${g.listing.id}`} className="min-w-0 text-base font-semibold [overflow-wrap:anywhere]">
              <span className="font-normal text-base-content/70">Your listing </span>
              <span className="font-mono">{g.listing.entry_id}</span>
              {` · ${postTypeLabel(g.listing.post_type)} · ${g.listing.property_type}`}
            </h2>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => details.openMatches(g.listing)} aria-label={`All matches of ${g.listing.entry_id}`}>
              All matches
            </button>
          </div>
          <ul className="space-y-3">
            {g.entries.map((e) => (
              <li key={e.id} data-inbox-entry={e.id} data-seen={e.seen || undefined}>
                <MatchCard
                  listing={e.match}
                  score={e.score}
                  reasons={e.reasons}
                  badge={!e.seen && <span className="badge badge-sm badge-secondary whitespace-nowrap">New</span>}
                  actions={
                    <>
                      {deals.button(e.match, g.listing)}
                      {!e.seen && (
                        <button type="button" className="btn btn-sm btn-ghost" disabled={markSeen.isPending} onClick={() => markSeen.mutate(e)} aria-label={`Mark seen ${e.match.entry_id}`}>
                          Mark seen
                        </button>
                      )}
                    </>
                  }
                  // Apart from Mark seen, not its equal: a quieter link on a line of its own (issue 32).
                  aside={
                    <button
                      type="button"
                      className="btn btn-link btn-sm text-error"
                      disabled={dismiss.isPending}
                      onClick={() => dismiss.mutate(e)}
                      aria-label={`Not interested in ${e.match.entry_id}`}
                      data-dismiss
                    >
                      Not interested
                    </button>
                  }
                />
              </li>
            ))}
          </ul>
        </section>
      ))}

      {inbox && inbox.total > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-base-content/70">{showingText(inbox.page, inbox.per_page, inbox.total, inbox.total === 1 ? 'match' : 'matches')}</p>
          <Pagination page={inbox.page} totalPages={totalPages} onPage={(p) => (setPage(p), window.scrollTo({ top: 0 }))} label="Match pages" />
        </div>
      )}

      <ListingDetailsDialog listing={details.viewing} tab={details.tab} title="My Listing" onClose={details.close} cobrokeAs={cobrokeAs} />
      {deals.dialogs}
    </div>
  )
}
