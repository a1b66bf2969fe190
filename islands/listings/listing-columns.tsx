import { createContext, use, type ReactNode } from 'react'
import { CoverThumb } from './photos/CoverThumb'
import type { Listing } from '../../src/modules/listings/model'
import { formatSize, listingCurrency } from '../../src/shared/currency'
import { formatMoney, formatMoneyShort, moneyWithCode } from '../../src/shared/money'
import { MatchCount } from '../matches/MatchCount'
import type { MatchCountsState } from '../matches/useMatchCounts'
import { columnId, tableColumns, type TableColumn } from '../shared/table/DataTable'
import type { ColumnFit } from '../shared/table/column-fit'
import { HotTag } from './HotTag'
import { formatExpiry, formatListingDate, LISTING_TEXT, postTypeBadgeClass, postTypeLabel, saleOrRentLabel } from './listing-format'
import { StatusWithModeration } from './moderation-format'

// The columns a listing table may show (the broker dashboard, My Listings, the admin grid), their cells, what a card
// shows, and how wide each column may get. Formats come from listing-format.ts; the table is ListingTable.

/** Builds extra columns for ListingTable: `listingColumn.display({ id, header, cell: ({ row }) => … })`. */
export const listingColumn = tableColumns<Listing>()
export type ListingColumnDef = TableColumn<Listing>

/** What the cells need from the screen; read it in a custom column's cell with `useListingTable()`. */
export type ListingTableEnv = {
  /** The signed-in user: their rows are highlighted and tagged 'Your Listing' when `highlightOwn` is on. */
  viewerId: number | null
  highlightOwn: boolean
  actions?: (listing: Listing) => ReactNode
  /** Each listing's count of matches by id (useMatchCounts), shown under the entry ID, its place kept while it loads. */
  matchCounts?: MatchCountsState
  /** What a click on a row's "3 matches" does: open the details on their Matches tab. */
  onShowMatches?: (listing: Listing) => void
}
export const EnvContext = createContext<ListingTableEnv>({ viewerId: null, highlightOwn: false })
export const useListingTable = () => use(EnvContext)

export const isOwn = (env: ListingTableEnv, l: Listing) => env.highlightOwn && env.viewerId !== null && l.owner_user_id === env.viewerId

function EntryId({ listing }: { listing: Listing }) {
  const env = useListingTable()
  const own = env.viewerId !== null && listing.owner_user_id === env.viewerId
  return (
    <div className="flex flex-col items-start gap-1">
      <CoverThumb listing={listing} own={own} />
      <span className="font-mono text-xs font-semibold whitespace-nowrap">{listing.entry_id}</span>
      {isOwn(env, listing) && <span className="badge badge-primary badge-xs whitespace-nowrap">{LISTING_TEXT.yourListing}</span>}
      <HotTag listing={listing} />
      <MatchCount listing={listing} counts={env.matchCounts} onOpen={env.onShowMatches} />
    </div>
  )
}

/**
 * A price in the currency of the listing's country (SPEC section 3), whoever looks at it, grouped its country's way
 * (₹35,00,000); `short` where space is tight, a card (₹3.5 Cr, issue 32). The ISO code and full amount on hover.
 */
export function Budget({ listing, short = false }: { listing: Listing; short?: boolean }) {
  if (listing.budget === null) return <span className="text-base-content/70">—</span>
  const currency = listingCurrency(listing)
  return (
    <span className="whitespace-nowrap font-medium" title={moneyWithCode(listing.budget, currency)} data-currency={currency.code} data-budget={listing.budget}>
      {(short ? formatMoneyShort : formatMoney)(listing.budget, currency)}
    </span>
  )
}

/** Long text cut to one line; the whole of it in a tooltip on hover (SPEC: details cells). A card's field is its `dd`. */
export function TruncatedText({ text, width = 'max-w-[16rem]', as: Tag = 'span' }: { text: string | null; width?: string; as?: 'span' | 'dd' }) {
  if (!text) return <Tag className="text-base-content/70">—</Tag>
  return (
    <Tag className={`block truncate ${width}`} title={text}>
      {text}
    </Tag>
  )
}

const dash = (v: string | null | undefined) => (v ? v : <span className="text-base-content/70">—</span>)

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
      <div className="min-w-0 max-w-[14rem]">
        <TruncatedText text={row.original.contact_name} width="max-w-[14rem] font-medium" />
        <TruncatedText text={row.original.contact_value} width="max-w-[14rem] text-xs text-base-content/60" />
      </div>
    ),
  }),
  saleOrRent: listingColumn.accessor('sale_or_rent', { header: 'Sale/Rent', cell: ({ getValue }) => saleOrRentLabel(getValue()) }),
  propertyType: listingColumn.accessor('property_type', { header: 'Property Type', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[7rem]" /> }),
  budget: listingColumn.accessor('budget', { header: 'Budget', cell: ({ row }) => <Budget listing={row.original} /> }),
  size: listingColumn.accessor('size', { header: 'Size', cell: ({ getValue }) => <span className="whitespace-nowrap">{dash(formatSize(getValue()))}</span> }),
  zone: listingColumn.accessor('location', { header: 'Location Zone', cell: ({ getValue }) => dash(getValue()) }),
  locality: listingColumn.accessor('locality', { header: 'Locality', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[7rem]" /> }),
  /** Zone and locality in one cell (My Listings' 'Location'). */
  location: listingColumn.accessor('location', {
    id: 'location_summary',
    header: 'Location',
    cell: ({ row }) => (
      <div className="min-w-0">
        <p className="whitespace-nowrap">{dash(row.original.location)}</p>
        {row.original.locality && <TruncatedText text={row.original.locality} width="max-w-[7rem] text-xs text-base-content/60" />}
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
  broker: listingColumn.accessor('owner_name', { header: 'Broker', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[7rem]" /> }),
  reference: listingColumn.accessor('reference', { header: 'Reference', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[8rem]" /> }),
  details: listingColumn.accessor('details', { header: 'Details', cell: ({ getValue }) => <TruncatedText text={getValue()} width="max-w-[12rem]" /> }),
  /** The status; an admin's suspension (issue 29) reads 'Suspended by an admin', with its reason. */
  status: listingColumn.accessor('status', { header: 'Status', cell: ({ row }) => <StatusWithModeration listing={row.original} /> }),
  /** When the listing leaves the network (issue 17): the day, in UTC as every date here. */
  expires: listingColumn.accessor('expires_at', { header: 'Expires', cell: ({ getValue }) => <span className="whitespace-nowrap">{formatExpiry(getValue())}</span> }),
  /** The screen's `actions(listing)`; nothing when it has none. */
  actions: listingColumn.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <RowActions listing={row.original} /> }),
} satisfies Record<string, ListingColumnDef>

function RowActions({ listing }: { listing: Listing }) {
  const env = useListingTable()
  const content = env.actions?.(listing)
  return content ? <div className="flex items-center gap-1 whitespace-nowrap">{content}</div> : null
}

const C = LISTING_COLUMNS
/** The broker dashboard's 14 columns (SPEC "Broker dashboard") and Expires (issue 17); the admin grid shows the same set. */
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
  C.expires,
  C.actions,
]
/** My Listings' 9 columns (SPEC "My Listings"), and when each expires (issue 17). */
export const MY_LISTINGS_COLUMNS: ListingColumnDef[] = [C.entryId, C.status, C.type, C.date, C.propertyType, C.budget, C.location, C.details, C.expires, C.actions]

/** Every column of LISTING_COLUMNS by its id (a card's field the screen's table lacks is drawn by these). */
export const COLUMN_BY_ID: Record<string, ListingColumnDef> = Object.fromEntries(Object.values(LISTING_COLUMNS).map((c) => [columnId(c), c]))

/**
 * What a listing card shows, by column id: entry ID and actions, type, deal and status, property type, size and price,
 * locality and broker, its end (issue 32) and, where a list mixes cities, its city. A field the screen's table has is drawn by that table's column (e.g. the admin's entry ID with
 * its status); one it has not comes from LISTING_COLUMNS, so the card is complete on every screen.
 */
export type CardField = 'entry_id' | 'post_type' | 'sale_or_rent' | 'status' | 'property_type' | 'size' | 'budget' | 'locality' | 'owner_name' | 'city_name' | 'expires_at' | 'actions'
export const CARD_FIELDS: readonly CardField[] = ['entry_id', 'post_type', 'sale_or_rent', 'status', 'property_type', 'size', 'budget', 'locality', 'owner_name', 'expires_at', 'actions']

/**
 * How wide a column may get (rem, padding included: its cells are cut to these widths) and how long it stays when
 * room runs out: rank 0 always, then 1, 2, … as the table widens. Entry ID and actions are rank 0 and sticky.
 */
const FIT: Record<string, ColumnFit> = {
  entry_id: { width: 7.5, rank: 0 },
  post_type: { width: 7.25, rank: 0 },
  property_type: { width: 8, rank: 0 },
  budget: { width: 7, rank: 0 },
  actions: { width: 6.5, rank: 0 },
  // Room for an admin's suspension (issue 29): 'Suspended by an admin' and two lines of its reason.
  status: { width: 9, rank: 1 },
  sale_or_rent: { width: 6, rank: 1 },
  locality: { width: 8, rank: 2 },
  location_summary: { width: 8, rank: 2 },
  owner_name: { width: 8, rank: 3 },
  city_name: { width: 8, rank: 3 },
  date: { width: 6.25, rank: 4 },
  size: { width: 5.75, rank: 5 },
  location: { width: 8, rank: 6 },
  contact_name: { width: 15, rank: 7 },
  reference: { width: 9, rank: 8 },
  details: { width: 13, rank: 9 },
  expires_at: { width: 6.75, rank: 5 },
}
const DEFAULT_FIT: ColumnFit = { width: 8, rank: 10 }

/** Each column's fit; the actions get the width the screen's buttons need (`actionsWidth`, rem). */
export const listingFit =
  (actionsWidth: number) =>
  (id: string): ColumnFit =>
    id === 'actions' ? { width: actionsWidth, rank: 0 } : (FIT[id] ?? DEFAULT_FIT)
