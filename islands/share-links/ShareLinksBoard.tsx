import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createContext, use, useState } from 'react'
import type { MyShareLink } from '../../src/modules/share-links/model'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { ConfirmDialog } from '../shared/Modal'
import { fetchJson, sendJson } from '../shared/query'
import { DataTable, TableEmpty, tableColumns, type TableLook } from '../shared/table/DataTable'
import { toast } from '../shared/toast'
import { useHydrated } from '../shared/useHydrated'
import { formatMoment } from '../deals/deal-format'
import { postTypeLabel } from '../listings/listing-format'
import { onwardText, SHARE_LINKS_TEXT as T, stateText } from './share-link-text'

export type ShareLinksBoardProps = { initialLinks: MyShareLink[] }

const QUERY_KEY = ['share-links']
const entryOf = (l: MyShareLink) => l.listing?.entry_id ?? `listing ${l.listing_id}`

/** What a row's Revoke does and whether times are local yet; given by the island, so the columns stay constant. */
const RowContext = createContext<{ revoke: (l: MyShareLink) => void; local: boolean } | null>(null)

const column = tableColumns<MyShareLink>()
const COLUMNS = [
  column.accessor('listing', {
    header: 'Listing',
    cell: ({ row }) => {
      const l = row.original.listing
      if (!l) return <span className="text-base-content/70">{`${T.gone} (${entryOf(row.original)})`}</span>
      return (
        <span className="block min-w-0">
          <span className="block font-mono font-semibold">{l.entry_id}</span>
          <span className="block text-sm text-base-content/70 [overflow-wrap:anywhere]">{[postTypeLabel(l.post_type), l.property_type, l.locality].filter(Boolean).join(' · ')}</span>
        </span>
      )
    },
  }),
  column.display({ id: 'sharing', header: 'Sharing', cell: ({ row }) => <span className="text-sm">{row.original.listing ? onwardText(row.original.listing) : '—'}</span> }),
  column.accessor('created_at', { header: 'Created', cell: ({ getValue }) => <Moment iso={getValue()} /> }),
  column.accessor('views', { header: 'Views', cell: ({ getValue }) => <span data-views>{getValue()}</span> }),
  column.display({
    id: 'state',
    header: 'State',
    cell: ({ row }) => {
      const l = row.original
      return (
        <span className="flex flex-col items-start gap-0.5">
          <span className={`badge badge-sm whitespace-nowrap ${l.live ? 'badge-success' : 'badge-ghost'}`} data-link-state={stateText(l)}>
            {stateText(l)}
          </span>
          {l.revoked_at && (
            <span className="text-xs text-base-content/70">
              <Moment iso={l.revoked_at} />
            </span>
          )}
        </span>
      )
    },
  }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <Actions link={row.original} /> }),
]

function Moment({ iso }: { iso: string }) {
  return <span className="whitespace-nowrap">{formatMoment(iso, use(RowContext)!.local)}</span>
}

function Actions({ link }: { link: MyShareLink }) {
  const { revoke } = use(RowContext)!
  const entry = entryOf(link)
  return (
    <div className="flex flex-wrap gap-2 @min-[48rem]:flex-nowrap">
      {link.live && (
        <a className="btn btn-ghost btn-sm" href={link.url} target="_blank" rel="noopener noreferrer" aria-label={`${T.open} of ${entry}`}>
          {T.open}
        </a>
      )}
      {link.revoked_at === null && (
        <button type="button" className="btn btn-outline btn-error btn-sm" aria-label={`${T.revoke} the link to ${entry}`} onClick={() => revoke(link)}>
          {T.revoke}
        </button>
      )}
    </div>
  )
}

/*
  From 48rem of the box a table; below, each link is a card of labelled fields (the listing across the top, the
  actions across the bottom), so a phone scrolls nothing sideways.
*/
const LABELLED = '@max-[48rem]:p-0 @max-[48rem]:before:block @max-[48rem]:before:text-xs @max-[48rem]:before:text-base-content/70 @max-[48rem]:before:content-[attr(data-label)]'
const LOOK: TableLook<MyShareLink> = {
  box: '@container card bg-base-100 shadow-sm',
  scroll: 'overflow-x-auto',
  table: 'table @max-[48rem]:block',
  thead: '@max-[48rem]:sr-only',
  tbody: '@max-[48rem]:block',
  th: 'whitespace-nowrap',
  tr: () => '@max-[48rem]:grid @max-[48rem]:grid-cols-2 @max-[48rem]:gap-x-4 @max-[48rem]:gap-y-2 @max-[48rem]:border-b @max-[48rem]:border-base-content/5 @max-[48rem]:px-4 @max-[48rem]:py-3',
  td: (id) => (id === 'listing' || id === 'actions' || id === 'sharing' ? `@max-[48rem]:col-span-2 ${id === 'listing' ? '@max-[48rem]:p-0' : LABELLED}` : LABELLED),
  labelCells: true,
}

/**
 * /dashboard/share-links (issue 34): the caller's public links (GET /api/share-links), each with its listing, whose it
 * is and what its owner allows, when it was made, how often it was opened and whether it opens now; Revoke after a
 * confirmation (DELETE /api/share-links/{id}).
 */
export default function ShareLinksBoard({ initialLinks }: ShareLinksBoardProps) {
  const queryClient = useQueryClient()
  const [renderedAt] = useState(() => Date.now())
  const local = useHydrated()
  const links = useQuery({ queryKey: QUERY_KEY, queryFn: async () => (await fetchJson<{ links: MyShareLink[] }>('/api/share-links')).links, initialData: initialLinks, initialDataUpdatedAt: renderedAt })
  const [revoking, setRevoking] = useState<MyShareLink | null>(null)
  const [error, setError] = useState<string | null>(null)
  const revoke = useMutation({
    mutationFn: (l: MyShareLink) => sendJson<void>(`/api/share-links/${l.id}`, 'DELETE'),
    meta: { handled: true },
    onError: (err) => setError(err instanceof ApiError && err.status ? err.message : T.revokeFailed),
    onSuccess: () => {
      toast.success(T.revoked)
      setRevoking(null)
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY })
    },
  })
  const ask = (l: MyShareLink) => (setError(null), setRevoking(l))

  return (
    <div className="space-y-5" data-share-links data-fetching={links.isFetching || undefined}>
      <div>
        <h1 className="text-xl font-bold sm:text-2xl">{T.title}</h1>
        <p className="mt-1 text-sm text-base-content/70 sm:text-base">{T.lead}</p>
      </div>
      {links.isError && <LoadError title={T.loadFailed} message={links.error instanceof ApiError && links.error.status ? links.error.message : null} onRetry={() => void links.refetch()} />}
      <RowContext value={{ revoke: ask, local }}>
        <DataTable
          data={links.data ?? []}
          columns={COLUMNS}
          getRowId={(l) => String(l.id)}
          label={T.table}
          busy={links.isFetching}
          empty={
            <div className="card bg-base-100 shadow-sm">
              <TableEmpty title={T.emptyTitle} text={T.emptyText} />
            </div>
          }
          look={LOOK}
          rowData={(l) => ({ 'data-share-link': l.id, 'data-entry-id': l.listing?.entry_id })}
        />
      </RowContext>
      <ConfirmDialog
        open={revoking !== null}
        title={T.revokeTitle}
        message={revoking ? T.revokeMessage(entryOf(revoking)) : ''}
        confirmLabel={T.revoke}
        tone="error"
        busy={revoke.isPending}
        error={error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => setRevoking(null)}
      />
    </div>
  )
}
