import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { lazyDialog } from '../shared/lazy-dialog'
import { useEffect, useMemo, useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { REFRESH_MS, type ListingStatus } from '../../src/shared/constants'
import type { ObjectSchema } from '../shared/form-rules'
import { Icon } from '../shared/icons'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { userCurrency } from '../../src/shared/currency'
import { formatExpiry, invalidateListingQueries, isExpiringSoon, LISTING_TEXT, listingErrorMessage, STATUS_LABELS, type ListingViewer } from './listing-format'
import { RowMenu, type RowMenuItem } from '../shared/table/RowMenu'
import { TableEmpty } from '../shared/table/DataTable'
import { CARD_FIELDS, MY_LISTINGS_COLUMNS } from './listing-columns'
import { ListingTable } from './ListingTable'
import { LoadError } from '../shared/LoadError'
import { STATS_LAYOUT } from './StatsStrip'
import { useDetailsDialog } from './useDetailsDialog'
import { useMatchCounts } from '../matches/useMatchCounts'
import { INTAKE_LINK_TEXT, PASTE_PAGE_PATH } from '../intake/intake-links'
import { isModerated, MODERATION_TEXT, reviewPending } from './moderation-format'
import { isReportedOff, useReportAnswers } from './reported-off'

// Closed when the page loads: dialog code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const DeleteListingDialog = lazyDialog(() => import('./DeleteListingDialog').then((m) => m.DeleteListingDialog), (p) => p.listing !== null)
const ListingDetailsDialog = lazyDialog(() => import('./ListingDetailsDialog').then((m) => m.ListingDetailsDialog), (p) => p.listing !== null)
const ListingFormDialog = lazyDialog(() => import('./ListingFormDialog').then((m) => m.ListingFormDialog), (p) => p.open)
const ShareListingDialog = lazyDialog(() => import('../intake/ShareListingDialog').then((m) => m.ShareListingDialog), (p) => p.listing !== null)
const ReviewRequestDialog = lazyDialog(() => import('./ReviewRequestDialog').then((m) => m.ReviewRequestDialog), (p) => p.listing !== null)

export type MyListingsIslandProps = {
  user: ListingViewer
  /** GET /api/listings/my as the server read it: every status, newest first. */
  initial: Listing[]
  /** formRules(CreateListingBody). */
  rules: ObjectSchema
}

export const MY_LISTINGS_URL = '/api/listings/my'
const FILTER_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED', 'EXPIRED'] as const satisfies readonly ListingStatus[]
/** A status, or the listings ending within 3 days (issue 32; `?expiring=soon` opens on it, as the alert bell links). */
type StatusFilter = '' | (typeof FILTER_STATUSES)[number] | 'EXPIRING_SOON'
const SOON: StatusFilter = 'EXPIRING_SOON'

/** What may be renewed (issue 17): an expired listing, or one still on offer, early. */
const RENEWABLE: ReadonlySet<ListingStatus> = new Set(['ACTIVE', 'ON_HOLD', 'EXPIRED'])

/** A card of one's own listing does not name its broker. */
const MY_CARD_FIELDS = CARD_FIELDS.filter((f) => f !== 'owner_name')

/** SPEC section 9: entry_id, property_type, locality or details contain the text, in any case. */
export function matchesSearch(l: Listing, search: string): boolean {
  const q = search.trim().toLowerCase()
  if (!q) return true
  return [l.entry_id, l.property_type, l.locality, l.details].some((v) => v?.toLowerCase().includes(q))
}

/** Counts by status for the cards and the status filter. */
export function countByStatus(listings: Listing[]) {
  const counts = { total: listings.length, ACTIVE: 0, SUSPENDED: 0, CLOSED: 0, ON_HOLD: 0, EXPIRED: 0, EXPIRING_SOON: 0 }
  for (const l of listings) {
    counts[l.status]++
    if (isExpiringSoon(l)) counts.EXPIRING_SOON++
  }
  return counts
}

/**
 * SPEC "My Listings (BROKER)": the broker's own listings of every status, searched and filtered in the browser,
 * with create, edit, suspend or reactivate, and delete.
 */
export default function MyListings({ user, initial, rules }: MyListingsIslandProps) {
  const queryClient = useQueryClient()
  const [renderedAt] = useState(() => Date.now())
  const query = useQuery({
    queryKey: ['my-listings'],
    queryFn: () => fetchJson<Listing[]>(MY_LISTINGS_URL),
    initialData: initial,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.myListings,
  })
  const all = query.data
  const counts = useMemo(() => countByStatus(all), [all])

  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('')
  // The server renders every listing; a link's `?expiring=soon` narrows them once the page is live.
  useEffect(() => {
    if (new URLSearchParams(window.location.search).get('expiring') === 'soon') setStatus(SOON)
  }, [])
  const shown = useMemo(
    () => all.filter((l) => (!status || (status === SOON ? isExpiringSoon(l) : l.status === status)) && matchesSearch(l, search)),
    [all, status, search],
  )
  // Counted for every listing of the broker at once, so typing a search or picking a status asks nothing more.
  const matchCounts = useMatchCounts(all)

  const details = useDetailsDialog()
  const viewing = details.viewing
  const [form, setForm] = useState<{ listing: Listing | null } | null>(null)
  const [deleting, setDeleting] = useState<Listing | null>(null)
  const [sharing, setSharing] = useState<Listing | null>(null)
  const [reviewing, setReviewing] = useState<Listing | null>(null)
  const refreshAll = () => void invalidateListingQueries(queryClient)
  // Issue 35: a listing taken off the network by reports is its broker's to answer (./reported-off.tsx).
  const reports = useReportAnswers()

  const changeStatus = useMutation({
    mutationFn: ({ listing, to }: { listing: Listing; to: 'ACTIVE' | 'SUSPENDED' }) => sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', { status: to }),
    onSuccess: (_saved, { to }) => (toast.success(to === 'SUSPENDED' ? LISTING_TEXT.my.suspended : LISTING_TEXT.my.reactivated), refreshAll()),
    onError: (err) => toast.error(listingErrorMessage(err, LISTING_TEXT.my.statusFailed)),
  })

  const renew = useMutation({
    mutationFn: (listing: Listing) => sendJson<{ listing: Listing }>(`/api/listings/${listing.id}/renew`, 'POST', {}),
    onSuccess: ({ listing }) => (toast.success(`${listing.entry_id} renewed until ${formatExpiry(listing.expires_at)}`), refreshAll()),
    onError: (err) => toast.error(listingErrorMessage(err, LISTING_TEXT.my.renewFailed)),
  })

  /**
   * Suspended by the broker themself: theirs to reactivate. Suspended by an admin (issue 29): an admin's, so not offered;
   * off the network by reports (issue 35): answered instead.
   */
  const reactivatable = (l: Listing) => l.status === 'SUSPENDED' && !isModerated(l) && !isReportedOff(l)
  /** An admin's suspension the broker has not yet asked to be reviewed. */
  const reviewable = (l: Listing) => isModerated(l) && !reviewPending(l)

  /**
   * Edit, Share (issue 18), Renew (issue 17), Suspend (from ACTIVE) or Reactivate (from their own suspension), Ask for a
   * review (of an admin's suspension, issue 29), Delete: SPEC section 4.
   */
  const menuItems = (l: Listing): RowMenuItem[] => {
    const items: RowMenuItem[] = [
      ...reports.menuItems(l),
      { label: 'Edit', onSelect: () => setForm({ listing: l }) },
      { label: INTAKE_LINK_TEXT.share, onSelect: () => setSharing(l) },
    ]
    if (RENEWABLE.has(l.status)) items.push({ label: 'Renew', tone: 'success', onSelect: () => renew.mutate(l) })
    if (l.status === 'ACTIVE') items.push({ label: 'Suspend', onSelect: () => changeStatus.mutate({ listing: l, to: 'SUSPENDED' }) })
    if (reactivatable(l)) items.push({ label: 'Reactivate', tone: 'success', onSelect: () => changeStatus.mutate({ listing: l, to: 'ACTIVE' }) })
    if (reviewable(l)) items.push({ label: MODERATION_TEXT.askReview, onSelect: () => setReviewing(l) })
    items.push({ label: 'Delete', tone: 'error', onSelect: () => setDeleting(l) })
    return items
  }

  const cards = [
    { label: 'Total', value: counts.total, tone: 'text-primary' },
    { label: 'Active', value: counts.ACTIVE, tone: 'text-success' },
    { label: 'Suspended', value: counts.SUSPENDED, tone: 'text-error' },
    { label: 'Closed', value: counts.CLOSED, tone: 'text-base-content/70' },
    { label: 'Expired', value: counts.EXPIRED, tone: 'text-warning' },
  ]

  return (
    <div className="space-y-3 sm:space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3 sm:gap-4">
        <div>
          <h1 className="text-xl font-bold sm:text-2xl">{LISTING_TEXT.my.title}</h1>
          <p className="mt-1 text-sm text-base-content/70 sm:text-base">The requirements and availabilities you posted, in every status.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={PASTE_PAGE_PATH} className="btn btn-outline btn-sm">
            <Icon name="chat" className="h-4 w-4" />
            {INTAKE_LINK_TEXT.title}
          </a>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setForm({ listing: null })}>
            Add New Listing
          </button>
        </div>
      </div>

      <div className={STATS_LAYOUT.fiveInARow} aria-label="My listing counts">
        {cards.map((c) => (
          <div key={c.label} className={STATS_LAYOUT.stat.fiveInARow} data-count={c.label}>
            <div className="stat-title max-sm:text-[0.6875rem]">{c.label}</div>
            <div className={`${STATS_LAYOUT.value} ${c.tone}`}>{c.value.toLocaleString('en-US')}</div>
          </div>
        ))}
      </div>

      <div className="flex flex-wrap items-center gap-2 sm:gap-3">
        <label className="input input-bordered input-sm flex w-full min-w-0 items-center gap-2 sm:w-auto sm:min-w-64 sm:flex-1">
          <span className="sr-only">Search my listings</span>
          <Icon name="search" className="h-4 w-4 opacity-60" />
          <input type="search" className="grow" placeholder="Search by Entry ID, property type, locality or details..." value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <select id="my-listings-status" aria-label="Status" className="select select-bordered select-sm min-w-0 flex-1 sm:w-48 sm:flex-none" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
          <option value="">{`All statuses (${counts.total})`}</option>
          {FILTER_STATUSES.map((s) => (
            <option key={s} value={s}>{`${STATUS_LABELS[s]} (${counts[s]})`}</option>
          ))}
          <option value={SOON}>{`Expiring soon (${counts.EXPIRING_SOON})`}</option>
        </select>
        <button type="button" className="btn btn-outline btn-sm" onClick={refreshAll} disabled={query.isFetching}>
          {query.isFetching && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Refresh
        </button>
      </div>

      {query.isError && (
        <LoadError title={LISTING_TEXT.my.loadFailed} onRetry={() => void query.refetch()} retryLabel="Try Again" />
      )}

      <div className="card bg-base-100 shadow-sm">
        <ListingTable
          label="My listings"
          listings={shown}
          empty={<TableEmpty title="No listings" text={LISTING_TEXT.my.empty} />}
          columns={MY_LISTINGS_COLUMNS}
          viewerId={user.id}
          scrollClassName="max-h-[700px] overflow-auto"
          rowTone={(l) => (l.status === 'SUSPENDED' || l.status === 'EXPIRED' ? 'error' : undefined)}
          cardFields={MY_CARD_FIELDS}
          storageKey="my-listings"
          actions={(l) => <RowMenu label={`Actions for ${l.entry_id}`} items={menuItems(l)} />}
          onRowClick={details.open}
          matchCounts={matchCounts}
          onShowMatches={details.openMatches}
          cardFooter={(l) => reports.buttons(l)}
        />
      </div>

      <ListingDetailsDialog
        title="My Listing"
        listing={viewing}
        tab={details.tab}
        cobrokeAs={user.id}
        onClose={details.close}
        onShare={(l) => (details.close(), setSharing(l))}
        actions={
          viewing && (
            <>
              {reports.buttons(viewing, details.close)}
              <button type="button" className="btn btn-outline" onClick={() => (details.close(), setForm({ listing: viewing }))}>
                Edit
              </button>
              {RENEWABLE.has(viewing.status) && (
                <button type="button" className="btn btn-outline btn-success" onClick={() => (details.close(), renew.mutate(viewing))}>
                  Renew
                </button>
              )}
              {viewing.status === 'ACTIVE' && (
                <button type="button" className="btn btn-outline" onClick={() => (details.close(), changeStatus.mutate({ listing: viewing, to: 'SUSPENDED' }))}>
                  Suspend
                </button>
              )}
              {reactivatable(viewing) && (
                <button type="button" className="btn btn-outline btn-success" onClick={() => (details.close(), changeStatus.mutate({ listing: viewing, to: 'ACTIVE' }))}>
                  Reactivate
                </button>
              )}
              {reviewable(viewing) && (
                <button type="button" className="btn btn-outline" onClick={() => (details.close(), setReviewing(viewing))}>
                  {MODERATION_TEXT.askReview}
                </button>
              )}
              <button type="button" className="btn btn-outline btn-error" onClick={() => (details.close(), setDeleting(viewing))}>
                Delete
              </button>
            </>
          )
        }
      />
      <ListingFormDialog
        open={form !== null}
        listing={form?.listing}
        rules={rules}
        currency={userCurrency(user.country_name)}
        ownPhone={user.phone}
        onClose={() => setForm(null)}
        onSaved={(_saved, mode) => (setForm(null), toast.success(mode === 'create' ? LISTING_TEXT.my.created : LISTING_TEXT.my.updated), refreshAll())}
        onFailed={(err, mode) => toast.error(listingErrorMessage(err, mode === 'create' ? LISTING_TEXT.my.createFailed : LISTING_TEXT.my.updateFailed))}
      />
      <DeleteListingDialog
        listing={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => (toast.success(LISTING_TEXT.my.deleted), refreshAll())}
        onFailed={(err) => toast.error(listingErrorMessage(err, LISTING_TEXT.my.deleteFailed))}
      />
      <ShareListingDialog listing={sharing} onClose={() => setSharing(null)} />
      {reports.dialog}
      <ReviewRequestDialog
        listing={reviewing}
        onClose={() => setReviewing(null)}
        onSent={(_l, admins) => (setReviewing(null), toast.success(MODERATION_TEXT.reviewSent(admins)), refreshAll())}
      />
    </div>
  )
}
