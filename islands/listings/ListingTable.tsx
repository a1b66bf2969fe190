import { useMemo, type ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { columnId, DataTable, FlexRender, ROW_TINT, type RowProps, type TableLook, type TableRow } from '../shared/table/DataTable'
import { formatExpiry, isExpiringSoon, postTypeBadgeClass, postTypeLabel, saleOrRentLabel } from './listing-format'
import { formatSize } from '../../src/shared/currency'
import { InCard } from '../shared/ContactButtons'
import { Budget, CARD_FIELDS, TruncatedText, COLUMN_BY_ID, EnvContext, isOwn, listingFit, type CardField, type ListingColumnDef, type ListingTableEnv } from './listing-columns'
import { daysOnMarketLabel } from '../../src/shared/days-on-market'
import type { MatchCountsState } from '../matches/useMatchCounts'

// The listing table of the broker dashboard, My Listings and the admin grid: the one table (DataTable) with the
// listing columns (listing-columns.tsx). Which columns, and what each row's actions are, come from the screen.
//
// One row model, two renderings, chosen by the room the table has (a container query, so the sidebar and the phone
// both count):
// - under 40rem (a phone) every row is a card: entry ID and actions, type, deal and status, property type, size and
//   price, locality and broker;
// - from 40rem a table whose entry ID and actions columns never leave the screen (sticky at both ends). Columns are
//   shown in order of importance as long as they fit (listing-columns.tsx's FIT); the rest are in the details a row
//   click opens. The user may show or hide any column (the Columns menu in the Actions header), remembered in this
//   browser.
// A page a phone asked for holds the cards only; the table is drawn if the phone is turned sideways (DataTable's
// `cardsOnlyOnPhone`, docs/decisions/040-phone-speed.md).

export type ListingTableProps = {
  listings: Listing[]
  /** The column set: BROKER_COLUMNS, MY_LISTINGS_COLUMNS, or your own (a constant array, not a new one each render). */
  columns: ListingColumnDef[]
  viewerId?: number | null
  /** Highlight the viewer's own rows and tag them 'Your Listing' (the broker dashboard). */
  highlightOwn?: boolean
  /** A row's action buttons (shown in the 'actions' column and on the card). Clicks inside them never open the row. */
  actions?: (listing: Listing) => ReactNode
  /** How wide the actions get (rem, padding included; the header also holds the Columns button): 6.5 for a menu button (default), more for buttons. */
  actionsWidth?: number
  /** A click (or Enter) on a row or card, e.g. to open ListingDetailsDialog. */
  onRowClick?: (listing: Listing) => void
  /** A row to highlight: 'error' tints it red (e.g. SUSPENDED). */
  rowTone?: (listing: Listing) => 'error' | undefined
  /** Dims the rows while another page loads. */
  busy?: boolean
  /** The table's accessible name. */
  label: string
  /** Shown instead of the table when there is no listing (TableEmpty). */
  empty?: ReactNode
  /**
   * Classes of the table's own scrolling box, e.g. 'max-h-[700px] overflow-auto' (the header then sticks to the top of
   * that box). Without one the page scrolls the table: its header sticks under the shell's top bar, and the table
   * scrolls sideways in its box only once the user has shown more columns than fit.
   */
  scrollClassName?: string
  /** The card's fields (CARD_FIELDS by default), e.g. without the broker on the broker's own list. */
  cardFields?: readonly CardField[]
  /** Remembers the user's column choice in this browser under this name; without it the Columns menu is not offered. */
  storageKey?: string
  /** Counts of matches by listing id (useMatchCounts); with `onShowMatches`, each row shows its "3 matches". */
  matchCounts?: MatchCountsState
  onShowMatches?: (listing: Listing) => void
  /** Under a card, at full width: e.g. Call and WhatsApp for another broker's listing (issue 32). */
  cardFooter?: (listing: Listing) => ReactNode
}

const STICKY = { start: 'entry_id', end: 'actions' }
const MENU_NOTE = "Columns on screen. Entry ID and Actions always are; a row's details show every field."
const rowId = (l: Listing) => String(l.id)
const rowLabel = (l: Listing) => `Listing ${l.entry_id}`

export function ListingTable({
  listings,
  columns,
  viewerId = null,
  highlightOwn = false,
  actions,
  actionsWidth = 6.5,
  onRowClick,
  rowTone,
  busy,
  label,
  empty,
  scrollClassName,
  cardFields = CARD_FIELDS,
  storageKey,
  matchCounts,
  onShowMatches,
  cardFooter,
}: ListingTableProps) {
  // The card's fields the table lacks join the row model as hidden columns: the table skips them, the card uses them.
  const { all, hidden } = useMemo(() => {
    const tableIds = columns.map(columnId)
    const extra = cardFields.filter((f) => !tableIds.includes(f) && COLUMN_BY_ID[f]).map((f) => COLUMN_BY_ID[f]!)
    return { all: [...columns, ...extra], hidden: extra.map(columnId) }
  }, [columns, cardFields])
  const fit = useMemo(() => ({ fitOf: listingFit(actionsWidth), storageKey, note: MENU_NOTE }), [actionsWidth, storageKey])

  const env: ListingTableEnv = { viewerId, highlightOwn, actions, matchCounts, onShowMatches }
  const look: TableLook<Listing> = {
    box: '@container',
    boxData: { 'data-listing-table': true },
    scroll: scrollClassName,
    table: 'table table-sm',
    th: 'whitespace-nowrap px-2',
    tr: (l) => (rowTone?.(l) === 'error' ? ROW_TINT.error : isOwn(env, l) ? ROW_TINT.own : ROW_TINT.plain),
    td: () => 'px-2 align-top',
  }

  return (
    <EnvContext value={env}>
      <DataTable
        data={listings}
        columns={all}
        hiddenColumns={hidden}
        getRowId={rowId}
        label={label}
        busy={busy}
        empty={empty}
        look={look}
        rowData={(l) => ({ 'data-listing-id': l.id, 'data-entry-id': l.entry_id, 'data-own': isOwn(env, l) || undefined, 'data-status': l.status, 'data-tone': rowTone?.(l) })}
        onRowClick={onRowClick}
        rowLabel={rowLabel}
        card={(row, props) => <ListingCard row={row} fields={cardFields} props={props} footer={cardFooter} />}
        cardsOnlyOnPhone
        sticky={STICKY}
        fit={fit}
      />
    </EnvContext>
  )
}

/**
 * One listing as a card (a phone's row): the same row as the table, laid out to be read top to bottom and tapped; it
 * carries the row's attributes and handlers. Its entry ID, status and actions are the table's cells (a screen may
 * give them its own, e.g. the admin's entry ID with its status); its plain fields (type, deal, property type, size,
 * locality, broker, city, end) the card draws itself, each as one element: through the columns' cells they were
 * three components and a wrapper each, on every one of a page's 25 cards, parsed, styled and hydrated on every visit
 * (docs/decisions/070-slim-cards.md).
 */
function ListingCard({ row, fields, props, footer }: { row: TableRow<Listing>; fields: readonly CardField[]; props: RowProps; footer?: (l: Listing) => ReactNode }) {
  const l = row.original
  const cells = row.getAllCellsByColumnId()
  const field = (id: CardField) => (fields.includes(id) && cells[id] ? <FlexRender cell={cells[id]} /> : null)
  const has = (id: CardField) => fields.includes(id) && !!cells[id]
  return (
    <article {...props} className={`${props.className} px-3 py-3`} data-listing-card={l.entry_id}>
      {/* Its children may shrink (min-w-0): the entry ID's column, not the actions (shrink-0). */}
      <div className="flex items-start justify-between gap-2 *:min-w-0">
        {field('entry_id')}
        {/* A card draws no compact contact icons (InCard): its footer has the labelled buttons. */}
        {has('actions') && (
          <div className="-mt-1 -mr-1 ml-auto shrink-0 [&_.btn]:h-9 [&_.btn]:min-h-9 [&_.btn]:px-3">
            <InCard value>{field('actions')}</InCard>
          </div>
        )}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5" data-card-badges>
        {has('post_type') && <span className={`badge badge-sm whitespace-nowrap ${postTypeBadgeClass(l.post_type)}`}>{postTypeLabel(l.post_type)}</span>}
        {has('sale_or_rent') && <span className="badge badge-sm badge-outline whitespace-nowrap">{saleOrRentLabel(l.sale_or_rent)}</span>}
        {field('status')}
        <span className="text-xs text-base-content/70" data-days-on-market>
          {daysOnMarketLabel(l.first_posted_at)}
        </span>
      </div>
      <div className="mt-2 flex items-baseline justify-between gap-3">
        <p className="flex min-w-0 items-baseline gap-1.5 text-sm">
          {has('property_type') && <TruncatedText text={l.property_type} width="min-w-0 max-w-[11rem] font-medium" />}
          {has('size') && l.size !== null && <span className="shrink-0 whitespace-nowrap text-base-content/70">· {formatSize(l.size)}</span>}
        </p>
        {has('budget') && (
          <p className="shrink-0 text-base">
            <Budget listing={l} short />
          </p>
        )}
      </div>
      {(has('locality') || has('owner_name') || has('city_name') || has('expires_at')) && (
        <dl className="mt-1.5 grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
          {has('locality') && (
            <div className="min-w-0">
              <dt className="text-base-content/70">Locality</dt>
              <TruncatedText as="dd" text={l.locality} width="" />
            </div>
          )}
          {has('owner_name') && (
            <div className="min-w-0">
              <dt className="text-base-content/70">Broker</dt>
              <TruncatedText as="dd" text={l.owner_name} width="" />
            </div>
          )}
          {has('city_name') && (
            <div className="min-w-0" data-card-city>
              <dt className="text-base-content/70">City</dt>
              <dd className="truncate">{l.city_name}</dd>
            </div>
          )}
          {has('expires_at') && l.expires_at && (
            <div className="min-w-0" data-card-expires>
              <dt className="text-base-content/70">Ends</dt>
              <dd className={isExpiringSoon(l) ? 'font-semibold' : undefined}>
                {formatExpiry(l.expires_at)}
                {isExpiringSoon(l) && <span className="badge badge-warning badge-xs ml-1 align-middle">soon</span>}
              </dd>
            </div>
          )}
        </dl>
      )}
      {footer && <CardFooter content={footer(l)} />}
    </article>
  )
}

/** A card's footer: its buttons share the width (a tap on a link or button never opens the row: DataTable). */
function CardFooter({ content }: { content: ReactNode }) {
  if (!content) return null
  return (
    <div className="mt-2 flex gap-2 [&>*]:flex-1" data-card-footer>
      {content}
    </div>
  )
}
