import { useQueryClient } from '@tanstack/react-query'
import { lazyDialog } from '../shared/lazy-dialog'
import { useState } from 'react'
import type { DashboardStats, Listing, ListingPage } from '../../src/modules/listings/model'
import type { DashboardVisit } from '../../src/modules/dashboard/model'
import { CITY_SCOPE_COOKIE, DEFAULT_PAGE_SIZE } from '../../src/shared/constants'
import type { ObjectSchema } from '../shared/form-rules'
import { ContactButtons } from '../shared/ContactButtons'
import { Icon } from '../shared/icons'
import { PageSizeSelect, Pagination } from '../shared/Pagination'
import { toast } from '../shared/toast'
import { userCurrency } from '../../src/shared/currency'
import { FilterBar } from './FilterBar'
import { SavedSearches } from '../saved-searches/SavedSearches'
import type { SavedSearchList } from '../../src/modules/saved-searches/model'
import { exportFileName, exportUrl, invalidateListingQueries, LISTING_TEXT, showingResults, type ListingViewer } from './listing-format'
import { RowMenu, type RowMenuItem } from '../shared/table/RowMenu'
import { TableEmpty } from '../shared/table/DataTable'
import { BROKER_COLUMNS, CARD_FIELDS, type CardField } from './listing-columns'
import { ListingTable } from './ListingTable'
import { StatsStrip } from './StatsStrip'
import type { ListingFilterState } from './url-filters'
import { LoadError } from '../shared/LoadError'
import { useListingPage, type PageSize } from './useListingPage'
import { useDetailsDialog } from './useDetailsDialog'
import { useMatchCounts } from '../matches/useMatchCounts'
import { ChangedSinceChip, NewSinceVisit } from './new-since'
import { INTAKE_LINK_TEXT, PASTE_PAGE_PATH } from '../intake/intake-links'
import { useDealActions } from '../deals/useDealActions'

// Closed when the page loads: dialog code comes when first opened, or once the page is idle (shared/lazy-dialog.tsx).
const DeleteListingDialog = lazyDialog(() => import('./DeleteListingDialog').then((m) => m.DeleteListingDialog), (p) => p.listing !== null)
const ListingDetailsDialog = lazyDialog(() => import('./ListingDetailsDialog').then((m) => m.ListingDetailsDialog), (p) => p.listing !== null)
const ListingFormDialog = lazyDialog(() => import('./ListingFormDialog').then((m) => m.ListingFormDialog), (p) => p.open)
const ShareListingDialog = lazyDialog(() => import('../intake/ShareListingDialog').then((m) => m.ShareListingDialog), (p) => p.listing !== null)

const NO_LISTINGS: Listing[] = []
/** A card of a list that may mix cities names its city (issue 32). */
const CITY_CARD_FIELDS: readonly CardField[] = [...CARD_FIELDS.slice(0, -1), 'city_name', 'actions']

export type BrokerListingsIslandProps = {
  user: ListingViewer
  /** The page the server rendered for `filters` (its page and per_page included). */
  initial: ListingPage
  /** parseListingFilters of the request's query. */
  filters: ListingFilterState
  stats: DashboardStats
  /** formRules(CreateListingBody). */
  rules: ObjectSchema
  /** On the dashboard: what is new since the last visit; null on the listings page. */
  visit: DashboardVisit | null
  /** The broker's saved searches, with their new counts (issue 17). */
  savedSearches: SavedSearchList
}

/**
 * SPEC "Broker dashboard (listings)": header, filters mirrored in the URL, statistics, the 14-column table with the
 * broker's own rows highlighted, paging, and the details, create, edit and delete dialogs.
 */
export default function BrokerListings({ user, initial, filters, stats, rules, visit, savedSearches }: BrokerListingsIslandProps) {
  const queryClient = useQueryClient()
  const { f, query, list, rows, loadError } = useListingPage({ queryKey: 'listings', initial, filters })
  const matchCounts = useMatchCounts(rows?.listings ?? NO_LISTINGS)

  const details = useDetailsDialog()
  const viewing = details.viewing
  // Co-broking (issue 35): "I have a client for this" and "Report listing" on another broker's listing.
  const deals = useDealActions(user.id)
  const [form, setForm] = useState<{ listing: Listing | null } | null>(null)
  const [deleting, setDeleting] = useState<Listing | null>(null)
  const [sharing, setSharing] = useState<Listing | null>(null)
  const [exporting, setExporting] = useState(false)
  const refreshAll = () => void invalidateListingQueries(queryClient)

  async function exportXlsx() {
    setExporting(true)
    try {
      const res = await fetch(exportUrl(f.applied), { credentials: 'same-origin' })
      if (!res.ok) throw new Error('Export failed')
      const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? exportFileName()
      const url = URL.createObjectURL(await res.blob())
      const a = Object.assign(document.createElement('a'), { href: url, download: name })
      document.body.append(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 1000)
    } catch (err) {
      // SPEC section 8: dashboard export failures are only logged.
      console.error('[listings] export failed', err)
    } finally {
      setExporting(false)
    }
  }

  const place = [user.city_name, user.state_name].filter(Boolean).join(', ')
  // My city first (issue 32): the list opens on the broker's city; a chip widens it to every city, remembered.
  const homeCity = user.city_id ?? null
  const ownCityOnly = homeCity !== null && f.applied.city_id === homeCity
  const scopeTo = (own: boolean) => {
    document.cookie = `${CITY_SCOPE_COOKIE}=${own ? 'own' : 'all'}; path=/dashboard; max-age=${365 * 86_400}; samesite=lax`
    f.change({ city_id: own ? homeCity! : undefined })
  }
  const clearFilters = () => {
    f.clear()
    if (ownCityOnly) f.change({ city_id: homeCity! })
  }
  // Where a list may hold several cities, each card says its city.
  const cardFields = f.applied.city_id === undefined ? CITY_CARD_FIELDS : CARD_FIELDS
  // Every row: Share (issue 18) in its menu; the broker's own also Edit, at hand, and Delete in the menu.
  const rowActions = (l: Listing) => {
    const items: RowMenuItem[] = [{ label: INTAKE_LINK_TEXT.share, onSelect: () => setSharing(l) }, ...deals.menuItems(l)]
    if (l.is_editable) items.push({ label: 'Delete', tone: 'error', onSelect: () => setDeleting(l) })
    return (
      <>
        {/* Another broker's listing: Call and WhatsApp at hand (issue 32). */}
        {l.owner_user_id !== user.id && <ContactButtons listing={l} compact />}
        {l.is_editable && (
          <button type="button" className="btn btn-ghost btn-xs" aria-label={`Edit ${l.entry_id}`} onClick={() => setForm({ listing: l })}>
            Edit
          </button>
        )}
        <RowMenu label={`Actions for ${l.entry_id}`} items={items} />
      </>
    )
  }

  return (
    <div className="space-y-3 sm:space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3 sm:gap-4">
        <div>
          <h1 className="text-xl font-bold sm:text-2xl">{`Welcome back, ${user.full_name}!`}</h1>
          <p className="mt-1 text-sm text-base-content/70 sm:text-base">
            {place ? `Listings across the network · you post from ${place}` : 'Listings across the network'}
          </p>
          {visit && <NewSinceVisit initial={visit} />}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline btn-sm" onClick={refreshAll} disabled={query.isFetching}>
            {query.isFetching && !query.isPlaceholderData ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
            Refresh
          </button>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void exportXlsx()} disabled={exporting}>
            <Icon name="download" className="h-4 w-4" />
            {exporting ? 'Exporting...' : 'Export'}
          </button>
          <a href={PASTE_PAGE_PATH} className="btn btn-outline btn-sm">
            <Icon name="chat" className="h-4 w-4" />
            {INTAKE_LINK_TEXT.title}
          </a>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setForm({ listing: null })}>
            New Listing
          </button>
        </div>
      </div>

      <FilterBar
        value={f.view}
        onChange={f.change}
        onClear={clearFilters}
        active={ownCityOnly ? Object.entries(f.view).some(([k, v]) => !['page', 'per_page', 'city_id'].includes(k) && v !== undefined) : f.active}
        currency={userCurrency(user.country_name)}
        saved={<SavedSearches initial={savedSearches} filters={f} idPrefix="listing-filter" />}
      />
      {homeCity !== null && user.city_name && (
        <div className="flex flex-wrap items-center gap-2" data-city-scope={ownCityOnly ? 'own' : 'all'}>
          <span className="text-sm text-base-content/70" id="city-scope-label">
            Showing
          </span>
          <div className="join" role="group" aria-labelledby="city-scope-label">
            <button type="button" className={`btn join-item h-11 min-h-11 ${ownCityOnly ? 'btn-primary' : 'btn-outline'}`} aria-pressed={ownCityOnly} onClick={() => scopeTo(true)}>
              {`${user.city_name} only`}
            </button>
            <button type="button" className={`btn join-item h-11 min-h-11 ${!ownCityOnly ? 'btn-primary' : 'btn-outline'}`} aria-pressed={!ownCityOnly} onClick={() => scopeTo(false)}>
              All cities
            </button>
          </div>
        </div>
      )}
      <ChangedSinceChip since={f.applied.changed_since} onClear={() => f.change({ changed_since: undefined })} />
      <StatsStrip initial={stats} />

      {loadError && (
        <LoadError title={LISTING_TEXT.loadErrorTitle} message={loadError} onRetry={() => void query.refetch()} />
      )}

      {rows && (
        <div className="card bg-base-100 shadow-sm">
          <ListingTable
            label="Listings"
            listings={rows.listings}
            empty={<TableEmpty title={LISTING_TEXT.emptyTitle} text={LISTING_TEXT.emptyText} />}
            columns={BROKER_COLUMNS}
            viewerId={user.id}
            highlightOwn
            actions={rowActions}
            storageKey="broker"
            onRowClick={details.open}
            matchCounts={matchCounts}
            onShowMatches={details.openMatches}
            cardFields={cardFields}
            cardFooter={(l) =>
              l.owner_user_id !== user.id ? (
                <>
                  <ContactButtons listing={l} />
                  {deals.button(l)}
                </>
              ) : null
            }
            actionsWidth={9}
            busy={query.isPlaceholderData && query.isFetching}
          />
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-base-300 px-4 py-3">
            <p className="text-sm text-base-content/70">{rows.total > 0 ? showingResults(rows.page, rows.per_page, rows.total) : ''}</p>
            <div className="flex flex-wrap items-center gap-3">
              <Pagination page={rows.page} totalPages={rows.total_pages} onPage={f.setPage} label="Listing pages" />
              <PageSizeSelect id="listing-per-page" value={f.applied.per_page ?? DEFAULT_PAGE_SIZE.dashboard} onChange={(n) => f.setPerPage(n as PageSize)} />
            </div>
          </div>
        </div>
      )}

      <ListingDetailsDialog
        listing={viewing}
        tab={details.tab}
        viewerId={user.id}
        cobrokeAs={user.id}
        onClose={details.close}
        onShare={(l) => (details.close(), setSharing(l))}
        actions={
          viewing?.is_editable ? (
            <>
              <button type="button" className="btn btn-outline" onClick={() => (details.close(), setForm({ listing: viewing }))}>
                Edit
              </button>
              <button type="button" className="btn btn-outline btn-error" onClick={() => (details.close(), setDeleting(viewing))}>
                Delete
              </button>
            </>
          ) : (
            deals.detailsActions(viewing, details.close)
          )
        }
      />
      {deals.dialogs}
      <ListingFormDialog
        open={form !== null}
        listing={form?.listing}
        rules={rules}
        currency={userCurrency(user.country_name)}
        ownPhone={user.phone}
        note={form?.listing ? null : `Posted as ${user.full_name}${place ? ` in ${place}` : ''}.`}
        onClose={() => setForm(null)}
        onSaved={(_saved, mode) => {
          setForm(null)
          toast.success(mode === 'create' ? LISTING_TEXT.my.created : LISTING_TEXT.my.updated)
          // A new listing is the newest: show it at the top of the first page.
          if (mode === 'create') f.setPage(1)
          refreshAll()
        }}
      />
      <DeleteListingDialog
        listing={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={() => (toast.success(LISTING_TEXT.my.deleted), refreshAll())}
      />
      <ShareListingDialog listing={sharing} onClose={() => setSharing(null)} />
    </div>
  )
}
