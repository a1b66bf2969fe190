import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Listing, ListingPage, ZoneCounts } from '../../../src/modules/listings/model'
import { DEFAULT_PAGE_SIZE, REFRESH_MS, type ListingStatus } from '../../../src/shared/constants'
import type { GeoOption } from '../../geo/GeoSelect'
import type { ObjectSchema } from '../../shared/form-rules'
import { ConfirmDialog } from '../../shared/Modal'
import { PageSizeSelect, Pagination } from '../../shared/Pagination'
import { fetchJson, sendJson } from '../../shared/query'
import { toast } from '../../shared/toast'
import { userCurrency } from '../../../src/shared/currency'
import { FilterBar } from '../FilterBar'
import { SavedSearches } from '../../saved-searches/SavedSearches'
import type { SavedSearchList } from '../../../src/modules/saved-searches/model'
import { ChangedSinceChip } from '../new-since'
import { invalidateListingQueries, listingsUrl, showingResults, zonesUrl } from '../listing-format'
import { ListingDetailsDialog } from '../ListingDetailsDialog'
import { RowMenu, type RowMenuItem } from '../../shared/table/RowMenu'
import { TableEmpty } from '../../shared/table/DataTable'
import { ListingTable } from '../ListingTable'
import type { ListingFilterState } from '../url-filters'
import { ADMIN_CARD_FIELDS, ADMIN_COLUMNS } from './admin-columns'
import { deleteMessage, failureMessage, seesEveryCity, TEXT, type AdminActor } from './admin-text'
import { AdminBanner } from './AdminBanner'
import { AdminCreateDialog } from './AdminCreateDialog'
import { AdminEditDialog } from './AdminEditDialog'
import { SuspendDialog, type SuspendMode } from './SuspendDialog'
import { isModerated, MODERATION_TEXT, reviewPending } from '../moderation-format'
import { ZoneChips } from './ZoneChips'
import { REPORTERS_TEXT, ReportersDialog } from './ReportersDialog'
import { LoadError } from '../../shared/LoadError'
import { retryOnce, useListingPage, type PageSize } from '../useListingPage'
import { useDetailsDialog } from '../useDetailsDialog'
import { useMatchCounts } from '../../matches/useMatchCounts'
import { INTAKE_LINK_TEXT } from '../../intake/intake-links'
import { ShareListingDialog } from '../../intake/ShareListingDialog'

const NO_LISTINGS: Listing[] = []

export type AdminListingsIslandProps = {
  actor: AdminActor
  /** The page the server rendered for `filters` (its page and per_page included). */
  initial: ListingPage
  /** parseListingFilters of the request's query. */
  filters: ListingFilterState
  /** Suspended listings in the admin's scope, as the server counted them. */
  suspended: number
  /** Of those, the ones suspended by an admin whose owner asks for a review (issue 29). */
  reviewRequested: number
  /** The zone chips' counts for `filters`, as the server counted them. */
  zones: ZoneCounts
  countries: GeoOption[]
  /** create: formRules(AdminListingForm); edit: formRules(UpdateListingBody). */
  rules: { create: ObjectSchema; edit: ObjectSchema }
  /** The admin's saved searches, with their new counts (issue 17). */
  savedSearches: SavedSearchList
  /** The grid's title is the page's h1 on /dashboard/listings, an h2 under the welcome on /dashboard. */
  headingLevel?: 1 | 2
}

/** The banner's count: the total of the smallest page (10) of SUSPENDED listings in the admin's scope. */
const suspendedUrl = listingsUrl({ status: 'SUSPENDED', page: 1, per_page: 10 })
/** The banner's review requests (issue 29): the same, of the `review_requested` filter. */
const reviewRequestedUrl = listingsUrl({ review_requested: true, page: 1, per_page: 10 })

/**
 * SPEC "Admin listings": the Admin Mode banner, then 'Listings Management' with Add Listing, zone chips, the filters
 * (country, state and city for a master admin), the 14-column table with Edit / Suspend / Unsuspend / Delete,
 * paging, and the admin create, edit and delete dialogs. The server scopes the rows (a module admin: their city).
 */
export default function AdminListings({ actor, initial, filters, suspended, reviewRequested, zones, countries, rules, savedSearches, headingLevel = 2 }: AdminListingsIslandProps) {
  const queryClient = useQueryClient()
  const master = seesEveryCity(actor)
  const { f, query, list, rows, loadError, renderedAt } = useListingPage({ queryKey: 'admin-listings', initial, filters })
  const matchCounts = useMatchCounts(rows?.listings ?? NO_LISTINGS)
  const suspendedCount = useQuery({
    queryKey: ['admin-status-counts', 'SUSPENDED'],
    queryFn: () => fetchJson<ListingPage>(suspendedUrl).then((p) => p.total),
    initialData: suspended,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.dashboardListings,
    retry: retryOnce,
  })
  const reviewCount = useQuery({
    queryKey: ['admin-status-counts', 'REVIEW_REQUESTED'],
    queryFn: () => fetchJson<ListingPage>(reviewRequestedUrl).then((p) => p.total),
    initialData: reviewRequested,
    initialDataUpdatedAt: renderedAt,
    refetchInterval: REFRESH_MS.dashboardListings,
    retry: retryOnce,
  })

  // The chips count the whole filtered list by zone (any zone filter set aside), kept with the other status counts.
  const { page: _page, per_page: _perPage, location: _zone, ...zoneFilters } = f.applied
  const [firstZoneFilters] = useState(() => JSON.stringify(zoneFilters))
  const zoneCounts = useQuery({
    queryKey: ['admin-status-counts', 'zones', zoneFilters],
    queryFn: () => fetchJson<ZoneCounts>(zonesUrl(zoneFilters)),
    initialData: JSON.stringify(zoneFilters) === firstZoneFilters ? zones : undefined,
    initialDataUpdatedAt: renderedAt,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS.dashboardListings,
    retry: retryOnce,
  })

  const details = useDetailsDialog()
  const viewing = details.viewing
  const [adding, setAdding] = useState(false)
  // Issue 35: the brokers whose reports keep being answered "still available", read when asked.
  const [reporters, setReporters] = useState(false)
  const [editing, setEditing] = useState<Listing | null>(null)
  const [deleting, setDeleting] = useState<Listing | null>(null)
  const [sharing, setSharing] = useState<Listing | null>(null)
  const [suspending, setSuspending] = useState<{ listing: Listing; mode: SuspendMode } | null>(null)
  const refreshAll = () => void invalidateListingQueries(queryClient)

  const changeStatus = useMutation({
    mutationFn: ({ listing, status }: { listing: Listing; status: ListingStatus }) => sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', { status }),
    onSuccess: (_saved, { status }) => (toast.success(status === 'SUSPENDED' ? TEXT.suspended : TEXT.reactivated), refreshAll()),
    onError: (err) => toast.error(failureMessage(err, TEXT.updateFailed)),
  })
  const remove = useMutation({
    mutationFn: (listing: Listing) => sendJson<void>(`/api/listings/${listing.id}`, 'DELETE'),
    // One toast from start to end: 'Deleting listing...' is replaced by the outcome.
    onMutate: () => ({ toastId: toast.loading(TEXT.deleting) }),
    onSuccess: (_r, _l, started) => (toast.success(TEXT.deleted, started.toastId), refreshAll()),
    onError: (err, _l, started) => toast.error(failureMessage(err, TEXT.deleteFailed), started?.toastId),
  })

  // Suspending another broker's listing is moderation (issue 29): the dialog asks the reason. One's own needs none.
  const suspend = (l: Listing) => (l.owner_user_id === actor.id ? changeStatus.mutate({ listing: l, status: 'SUSPENDED' }) : setSuspending({ listing: l, mode: 'suspend' }))
  const unsuspend = (l: Listing) => changeStatus.mutate({ listing: l, status: 'ACTIVE' })
  const keepSuspended = (l: Listing) => setSuspending({ listing: l, mode: 'uphold' })

  const menu = (l: Listing) => {
    const items: RowMenuItem[] = [
      { label: 'Edit', onSelect: () => setEditing(l) },
      { label: INTAKE_LINK_TEXT.share, onSelect: () => setSharing(l) },
    ]
    if (l.status === 'ACTIVE') items.push({ label: 'Suspend', tone: 'warning', onSelect: () => suspend(l) })
    if (l.status === 'SUSPENDED') items.push({ label: 'Unsuspend', tone: 'success', onSelect: () => unsuspend(l) })
    if (reviewPending(l)) items.push({ label: MODERATION_TEXT.keepSuspended, tone: 'warning', onSelect: () => keepSuspended(l) })
    items.push({ label: 'Delete', tone: 'error', onSelect: () => setDeleting(l) })
    return <RowMenu label={`Actions for ${l.entry_id}`} items={items} />
  }

  // To the top at once: a smooth scroll is cut short when the new page's rows change the page's height under it (a
  // full run's browser test at 1440 px stayed mid-page for a minute), and an admin paging wants the first row now.
  const goToPage = (page: number) => {
    f.setPage(page)
    window.scrollTo({ top: 0 })
  }

  // Budgets typed in the filters are in the currency of the country filtered by, else the admin's own.
  const filterCurrency = userCurrency(countries.find((c) => c.id === f.view.country_id)?.name ?? actor.country_name)

  const Heading = headingLevel === 1 ? 'h1' : 'h2'

  return (
    <div
      className={`${headingLevel === 2 ? 'mt-8' : ''} space-y-3 sm:space-y-4`}
      data-admin-listings
      data-fetching={query.isFetching || suspendedCount.isFetching || reviewCount.isFetching || zoneCounts.isFetching || undefined}
    >
      <AdminBanner
        actor={actor}
        suspended={suspendedCount.data}
        reviewRequested={reviewCount.data}
        onShowSuspended={() => f.change({ status: 'SUSPENDED', review_requested: undefined })}
        onShowReviewRequests={() => f.change({ status: undefined, review_requested: true })}
      />

      <section className="space-y-3 sm:space-y-4" aria-labelledby="admin-listings-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <Heading id="admin-listings-title" className="text-xl font-bold sm:text-2xl">
              {TEXT.title}
            </Heading>
            <p className="text-sm text-base-content/70">{master ? 'Every listing of the network, in every status.' : `Every listing of ${actor.city_name ?? 'your city'}, in every status.`}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn btn-outline btn-sm" onClick={refreshAll} disabled={query.isFetching}>
              Refresh
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setReporters(true)} data-open-reporters>
              {REPORTERS_TEXT.button}
            </button>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setAdding(true)}>
              {TEXT.add}
            </button>
          </div>
        </div>

        <ZoneChips counts={zoneCounts.data ?? zones} active={f.applied.location} onPick={(zone) => f.change({ location: zone })} />

        <FilterBar
          idPrefix="admin-filter"
          value={f.view}
          onChange={f.change}
          onClear={f.clear}
          active={f.active}
          showGeo={master}
          showDuplicates
          showReviewRequested
          countries={countries}
          currency={filterCurrency}
          saved={<SavedSearches initial={savedSearches} filters={f} idPrefix="admin-filter" />}
        />
        <ChangedSinceChip since={f.applied.changed_since} onClear={() => f.change({ changed_since: undefined })} />

        {loadError && (
          <LoadError title={TEXT.loadError} message={loadError} onRetry={() => void query.refetch()} heading="h3" />
        )}

        {rows && (
          <div className="card bg-base-100 shadow-sm">
            <ListingTable
              label={TEXT.title}
              listings={rows.listings}
              empty={<TableEmpty title={TEXT.empty} text={TEXT.emptyHint} heading="h3" />}
              columns={ADMIN_COLUMNS}
              viewerId={actor.id}
              actions={menu}
              onRowClick={details.open}
              matchCounts={matchCounts}
              onShowMatches={details.openMatches}
              rowTone={(l) => (l.status === 'SUSPENDED' ? 'error' : undefined)}
              cardFields={ADMIN_CARD_FIELDS}
              storageKey="admin"
              busy={query.isPlaceholderData && query.isFetching}
            />
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 px-4 py-3">
              <p className="text-sm text-base-content/70" data-showing>
                {rows.total > 0 ? showingResults(rows.page, rows.per_page, rows.total) : ''}
              </p>
              <div className="flex flex-wrap items-center gap-3">
                <Pagination page={rows.page} totalPages={rows.total_pages} onPage={goToPage} label="Listing pages" />
                <PageSizeSelect id="admin-per-page" value={f.applied.per_page ?? DEFAULT_PAGE_SIZE.dashboard} onChange={(n) => f.setPerPage(n as PageSize)} />
              </div>
            </div>
          </div>
        )}
      </section>

      <ListingDetailsDialog
        listing={viewing}
        tab={details.tab}
        onClose={details.close}
        onShare={(l) => (details.close(), setSharing(l))}
        actions={
          viewing ? (
            <>
              <button type="button" className="btn btn-outline" onClick={() => (details.close(), setEditing(viewing))}>
                Edit
              </button>
              {isModerated(viewing) && (
                <button type="button" className="btn btn-outline btn-success" onClick={() => (details.close(), unsuspend(viewing))}>
                  Unsuspend
                </button>
              )}
              {reviewPending(viewing) && (
                <button type="button" className="btn btn-outline btn-warning" onClick={() => (details.close(), keepSuspended(viewing))}>
                  {MODERATION_TEXT.keepSuspended}
                </button>
              )}
              <button type="button" className="btn btn-outline btn-error" onClick={() => (details.close(), setDeleting(viewing))}>
                Delete
              </button>
            </>
          ) : null
        }
      />
      <AdminCreateDialog
        open={adding}
        actor={actor}
        countries={countries}
        rules={rules.create}
        fieldRules={rules.edit}
        onClose={() => setAdding(false)}
        onCreated={() => {
          setAdding(false)
          toast.success(TEXT.created)
          // The new listing is the newest: show it at the top of the first page.
          f.setPage(1)
          refreshAll()
        }}
      />
      <SuspendDialog
        target={suspending}
        onClose={() => setSuspending(null)}
        onDone={(_saved, mode) => (setSuspending(null), toast.success(mode === 'suspend' ? TEXT.suspended : TEXT.keptSuspended), refreshAll())}
      />
      <AdminEditDialog
        actorId={actor.id}
        listing={editing}
        rules={rules.edit}
        onClose={() => setEditing(null)}
        onSaved={() => (setEditing(null), toast.success(TEXT.updated), refreshAll())}
      />
      <ReportersDialog open={reporters} onClose={() => setReporters(false)} />
      <ShareListingDialog listing={sharing} onClose={() => setSharing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Listing"
        message={deleting ? deleteMessage(deleting.entry_id) : ''}
        confirmLabel="Delete Listing"
        tone="error"
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting)
          setDeleting(null)
        }}
      />
    </div>
  )
}
