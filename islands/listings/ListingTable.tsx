import { createColumnHelper, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table'
import { createContext, use, useEffect, useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { formatMoney, formatSize, listingCurrency, moneyWithCode } from './currency'
import {
  formatListingDate,
  LISTING_TEXT,
  postTypeBadgeClass,
  postTypeLabel,
  saleOrRentLabel,
  STATUS_LABELS,
  statusBadgeClass,
} from './listing-format'

// The listing table of the broker dashboard, My Listings and the admin grid. Which columns, and what each row's
// actions are, come from the screen; formats come from listing-format.ts. Paging, filtering and sorting are the
// server's (or the screen's), so the table needs only the core features.

const features = tableFeatures({})
export type ListingTableFeatures = typeof features
/** Builds extra columns for ListingTable: `listingColumn.display({ id, header, cell: ({ row }) => … })`. */
export const listingColumn = createColumnHelper<typeof features, Listing>()
export type ListingColumnDef = ColumnDef<typeof features, Listing, any>

/** What the cells need from the screen; read it in a custom column's cell with `useListingTable()`. */
export type ListingTableEnv = {
  /** The signed-in user: their rows are highlighted and tagged 'Your Listing' when `highlightOwn` is on. */
  viewerId: number | null
  highlightOwn: boolean
  actions?: (listing: Listing) => ReactNode
}
const EnvContext = createContext<ListingTableEnv>({ viewerId: null, highlightOwn: false })
export const useListingTable = () => use(EnvContext)

const isOwn = (env: ListingTableEnv, l: Listing) => env.highlightOwn && env.viewerId !== null && l.owner_user_id === env.viewerId

function EntryId({ listing }: { listing: Listing }) {
  const env = useListingTable()
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="font-mono text-xs font-semibold whitespace-nowrap">{listing.entry_id}</span>
      {isOwn(env, listing) && <span className="badge badge-primary badge-xs whitespace-nowrap">{LISTING_TEXT.yourListing}</span>}
    </div>
  )
}

/** A price in the currency of the listing's country (SPEC section 3), whoever looks at it; the ISO code on hover. */
export function Budget({ listing }: { listing: Listing }) {
  if (listing.budget === null) return <span className="text-base-content/40">—</span>
  const currency = listingCurrency(listing)
  return (
    <span className="whitespace-nowrap font-medium" title={moneyWithCode(listing.budget, currency)} data-currency={currency.code}>
      {formatMoney(listing.budget, currency)}
    </span>
  )
}

/** Long text cut to one line; the whole of it in a tooltip on hover (SPEC: details cells). */
export function TruncatedText({ text, width = 'max-w-[16rem]' }: { text: string | null; width?: string }) {
  if (!text) return <span className="text-base-content/40">—</span>
  return (
    <span className={`block truncate ${width}`} title={text}>
      {text}
    </span>
  )
}

const dash = (v: string | null | undefined) => (v ? v : <span className="text-base-content/40">—</span>)

/** Every column a listing table may show, by name; screens pick theirs (see BROKER_COLUMNS, MY_LISTINGS_COLUMNS). */
export const LISTING_COLUMNS = {
  entryId: listingColumn.accessor('entry_id', { header: 'Entry ID', cell: ({ row }) => <EntryId listing={row.original} /> }),
  type: listingColumn.accessor('post_type', {
    header: 'Type',
    cell: ({ getValue }) => <span className={`badge badge-sm whitespace-nowrap ${postTypeBadgeClass(getValue())}`}>{postTypeLabel(getValue())}</span>,
  }),
  date: listingColumn.accessor('date', { header: 'Date', cell: ({ getValue }) => <span className="whitespace-nowrap">{formatListingDate(getValue())}</span> }),
  contact: listingColumn.accessor('contact_name', {
    header: 'Contact',
    cell: ({ row }) => (
      <div className="min-w-0">
        <p className="whitespace-nowrap font-medium">{row.original.contact_name}</p>
        <p className="text-xs whitespace-nowrap text-base-content/60">{row.original.contact_value}</p>
      </div>
    ),
  }),
  saleOrRent: listingColumn.accessor('sale_or_rent', { header: 'Sale/Rent', cell: ({ getValue }) => saleOrRentLabel(getValue()) }),
  propertyType: listingColumn.accessor('property_type', { header: 'Property Type', cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
  budget: listingColumn.accessor('budget', { header: 'Budget', cell: ({ row }) => <Budget listing={row.original} /> }),
  size: listingColumn.accessor('size', { header: 'Size', cell: ({ getValue }) => <span className="whitespace-nowrap">{dash(formatSize(getValue()))}</span> }),
  zone: listingColumn.accessor('location', { header: 'Location Zone', cell: ({ getValue }) => dash(getValue()) }),
  locality: listingColumn.accessor('locality', { header: 'Locality', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[10rem]" /> }),
  /** Zone and locality in one cell (My Listings' 'Location'). */
  location: listingColumn.accessor('location', {
    id: 'location_summary',
    header: 'Location',
    cell: ({ row }) => (
      <div className="min-w-0">
        <p className="whitespace-nowrap">{dash(row.original.location)}</p>
        {row.original.locality && <TruncatedText text={row.original.locality} width="max-w-[10rem] text-xs text-base-content/60" />}
      </div>
    ),
  }),
  /** City and state (the admin grid's place column). */
  city: listingColumn.accessor('city_name', {
    header: 'City',
    cell: ({ row }) => (
      <div className="min-w-0 whitespace-nowrap">
        <p>{row.original.city_name}</p>
        <p className="text-xs text-base-content/60">{row.original.state_name}</p>
      </div>
    ),
  }),
  broker: listingColumn.accessor('owner_name', { header: 'Broker', cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
  reference: listingColumn.accessor('reference', { header: 'Reference', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[8rem]" /> }),
  details: listingColumn.accessor('details', { header: 'Details', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[13rem]" /> }),
  status: listingColumn.accessor('status', {
    header: 'Status',
    cell: ({ row }) => <span className={`badge badge-sm whitespace-nowrap ${statusBadgeClass(row.original.status)}`}>{STATUS_LABELS[row.original.status]}</span>,
  }),
  /** The screen's `actions(listing)`; nothing when it has none. */
  actions: listingColumn.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <RowActions listing={row.original} /> }),
} satisfies Record<string, ListingColumnDef>

function RowActions({ listing }: { listing: Listing }) {
  const env = useListingTable()
  const content = env.actions?.(listing)
  return content ? <div className="flex items-center gap-1 whitespace-nowrap">{content}</div> : null
}

const C = LISTING_COLUMNS
/** The broker dashboard's 14 columns (SPEC "Broker dashboard"); the admin grid shows the same set. */
export const BROKER_COLUMNS: ListingColumnDef[] = [
  C.entryId,
  C.type,
  C.date,
  C.contact,
  C.saleOrRent,
  C.propertyType,
  C.budget,
  C.size,
  C.zone,
  C.locality,
  C.broker,
  C.reference,
  C.details,
  C.actions,
]
/** My Listings' 9 columns (SPEC "My Listings"). */
export const MY_LISTINGS_COLUMNS: ListingColumnDef[] = [C.entryId, C.status, C.type, C.date, C.propertyType, C.budget, C.location, C.details, C.actions]

export type ListingTableProps = {
  listings: Listing[]
  /** The column set: BROKER_COLUMNS, MY_LISTINGS_COLUMNS, or your own (a constant array, not a new one each render). */
  columns: ListingColumnDef[]
  viewerId?: number | null
  /** Highlight the viewer's own rows and tag them 'Your Listing' (the broker dashboard). */
  highlightOwn?: boolean
  /** A row's action buttons (shown in the 'actions' column). Clicks inside them never open the row. */
  actions?: (listing: Listing) => ReactNode
  /** A click (or Enter) on a row, e.g. to open ListingDetailsDialog. */
  onRowClick?: (listing: Listing) => void
  /** Extra classes of a row, e.g. red for SUSPENDED. */
  rowClassName?: (listing: Listing) => string
  /** Dims the rows while another page loads. */
  busy?: boolean
  /** The table's accessible name. */
  label: string
  /** Classes of the scrolling wrapper (default: horizontal scroll only), e.g. 'max-h-[700px] overflow-auto'. */
  scrollClassName?: string
}

/** Clicks on controls inside a row are theirs, not the row's. */
const fromControl = (target: EventTarget | null) => target instanceof Element && !!target.closest('button, a, input, select, textarea, label, [popover], [data-row-control]')

export function ListingTable({
  listings,
  columns,
  viewerId = null,
  highlightOwn = false,
  actions,
  onRowClick,
  rowClassName,
  busy,
  label,
  scrollClassName = 'overflow-x-auto',
}: ListingTableProps) {
  const table = useTable({ features, columns, data: listings, getRowId: (l) => String(l.id) })
  const env: ListingTableEnv = { viewerId, highlightOwn, actions }
  const open = (l: Listing) => (e: MouseEvent | KeyboardEvent) => {
    if (!onRowClick || fromControl(e.target)) return
    if ('key' in e) {
      if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return
      e.preventDefault()
    }
    onRowClick(l)
  }
  return (
    <EnvContext value={env}>
      <div className={`${scrollClassName} transition-opacity ${busy ? 'opacity-60' : ''}`}>
        <table className="table table-sm table-pin-rows" aria-label={label} aria-busy={busy || undefined}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} className="whitespace-nowrap">
                    {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => {
              const l = row.original
              const own = isOwn(env, l)
              return (
                <tr
                  key={row.id}
                  data-listing-id={l.id}
                  data-entry-id={l.entry_id}
                  data-own={own || undefined}
                  data-status={l.status}
                  tabIndex={onRowClick ? 0 : undefined}
                  aria-label={onRowClick ? `Listing ${l.entry_id}` : undefined}
                  className={`${onRowClick ? 'cursor-pointer' : ''} ${own ? 'bg-primary/5 hover:bg-primary/10' : 'hover:bg-base-200/60'} ${rowClassName?.(l) ?? ''}`}
                  onClick={open(l)}
                  onKeyDown={open(l)}
                >
                  {row.getAllCells().map((cell) => (
                    <td key={cell.id} className="align-top">
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </EnvContext>
  )
}

export type RowMenuItem = { label: string; onSelect: () => void; tone?: 'error' | 'warning' | 'success' }
const TONES = { error: 'text-error', warning: 'text-warning', success: 'text-success' } as const

/**
 * A row's action menu: a button and a popover list in the top layer (so a scrolling table never clips it),
 * anchored to the button; Escape or a click elsewhere closes it.
 */
export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const raw = useId()
  const id = `row-menu-${raw.replace(/[^a-zA-Z0-9_-]/g, '')}`
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLUListElement>(null)
  // The anchor is set through the CSSOM, not a style attribute: the Content-Security-Policy forbids inline styles.
  useEffect(() => {
    button.current?.style.setProperty('anchor-name', `--${id}`)
    menu.current?.style.setProperty('position-anchor', `--${id}`)
  }, [id])
  if (items.length === 0) return null
  return (
    <>
      <button ref={button} type="button" className="btn btn-ghost btn-xs" popoverTarget={id} aria-label={label}>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor" className="h-4 w-4" aria-hidden="true">
          <circle cx="12" cy="5" r="1.8" />
          <circle cx="12" cy="12" r="1.8" />
          <circle cx="12" cy="19" r="1.8" />
        </svg>
      </button>
      <ul ref={menu} id={id} popover="auto" role="menu" aria-label={label} className="dropdown dropdown-end menu w-44 rounded-box bg-base-100 p-1 shadow-lg [position-try-fallbacks:flip-block]">
        {items.map((item) => (
          <li key={item.label} role="none">
            <button
              type="button"
              role="menuitem"
              className={item.tone ? TONES[item.tone] : undefined}
              onClick={() => {
                menu.current?.hidePopover()
                item.onSelect()
              }}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </>
  )
}
