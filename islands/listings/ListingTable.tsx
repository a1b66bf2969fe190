import { createContext, use, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { HotTag } from './HotTag'
import { FlexRender, listingColumn, useListingRows, type ListingColumnDef, type Row } from './listing-columns'
import { PhoneLayout } from '../shared/layout'
import { StatusWithModeration } from './moderation-format'
import { MatchCount } from '../matches/MatchCount'
import { formatMoney, formatSize, listingCurrency, moneyWithCode } from '../../src/shared/currency'
import {
  formatExpiry,
  formatListingDate,
  LISTING_TEXT,
  postTypeBadgeClass,
  postTypeLabel,
  saleOrRentLabel,
} from './listing-format'

// The listing table of the broker dashboard, My Listings and the admin grid. Which columns, and what each row's
// actions are, come from the screen; formats come from listing-format.ts. Paging, filtering and sorting are the
// server's (or the screen's): rows and columns are ./listing-columns.tsx (what the table took from TanStack Table).
//
// One row model, two renderings, chosen by the room the table has (a container query, so the sidebar and the phone
// both count):
// - under 40rem (a phone) every row is a card: entry ID and actions, type, deal and status, property type, size and
//   price, locality and broker;
// - from 40rem a table whose entry ID and actions columns never leave the screen (sticky at both ends). Columns are
//   shown in order of importance as long as they fit (FIT below); the rest are in the details a row click opens. The
//   user may show or hide any column (the Columns menu in the Actions header), remembered in this browser.

/** Builds extra columns for ListingTable: `listingColumn.display({ id, header, cell: ({ row }) => … })`. */
export { listingColumn, type ListingColumnDef }

/** What the cells need from the screen; read it in a custom column's cell with `useListingTable()`. */
export type ListingTableEnv = {
  /** The signed-in user: their rows are highlighted and tagged 'Your Listing' when `highlightOwn` is on. */
  viewerId: number | null
  highlightOwn: boolean
  actions?: (listing: Listing) => ReactNode
  /** Each listing's count of matches by id (useMatchCounts), shown under the entry ID once known. */
  matchCounts?: Readonly<Record<string, number>>
  /** What a click on a row's "3 matches" does: open the details on their Matches tab. */
  onShowMatches?: (listing: Listing) => void
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
      <HotTag listing={listing} />
      <MatchCount listing={listing} counts={env.matchCounts} onOpen={env.onShowMatches} />
    </div>
  )
}

/** A price in the currency of the listing's country (SPEC section 3), whoever looks at it; the ISO code on hover. */
export function Budget({ listing }: { listing: Listing }) {
  if (listing.budget === null) return <span className="text-base-content/70">—</span>
  const currency = listingCurrency(listing)
  return (
    <span className="whitespace-nowrap font-medium" title={moneyWithCode(listing.budget, currency)} data-currency={currency.code}>
      {formatMoney(listing.budget, currency)}
    </span>
  )
}

/** Long text cut to one line; the whole of it in a tooltip on hover (SPEC: details cells). */
export function TruncatedText({ text, width = 'max-w-[16rem]' }: { text: string | null; width?: string }) {
  if (!text) return <span className="text-base-content/70">—</span>
  return (
    <span className={`block truncate ${width}`} title={text}>
      {text}
    </span>
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

const columnId = (c: ListingColumnDef) => c.id
const BY_ID: Record<string, ListingColumnDef> = Object.fromEntries(Object.values(LISTING_COLUMNS).map((c) => [columnId(c), c]))

/**
 * What a listing card shows, by column id: entry ID and actions, type, deal and status, property type, size and price,
 * locality and broker. A field the screen's table has is drawn by that table's column (e.g. the admin's entry ID with
 * its status); one it has not comes from LISTING_COLUMNS, so the card is complete on every screen.
 */
export type CardField = 'entry_id' | 'post_type' | 'sale_or_rent' | 'status' | 'property_type' | 'size' | 'budget' | 'locality' | 'owner_name' | 'actions'
export const CARD_FIELDS: readonly CardField[] = ['entry_id', 'post_type', 'sale_or_rent', 'status', 'property_type', 'size', 'budget', 'locality', 'owner_name', 'actions']

/**
 * How wide a column may get (rem, padding included: its cells are cut to these widths) and how long it stays when
 * room runs out: rank 0 always, then 1, 2, … as the table widens. Entry ID and actions are rank 0 and sticky.
 */
const FIT: Record<string, { width: number; rank: number }> = {
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
const DEFAULT_FIT = { width: 8, rank: 10 }

/** Under this width (rem) of the table's box, rows are cards. */
const CARDS_BELOW = 40
// Literal class names (Tailwind finds them in this file): a column shown from a container width, in 1rem steps up to
// 80rem, then coarser.
const SHOW_FROM: Record<number, string> = {
  40: '@min-[40rem]:table-cell',
  41: '@min-[41rem]:table-cell',
  42: '@min-[42rem]:table-cell',
  43: '@min-[43rem]:table-cell',
  44: '@min-[44rem]:table-cell',
  45: '@min-[45rem]:table-cell',
  46: '@min-[46rem]:table-cell',
  47: '@min-[47rem]:table-cell',
  48: '@min-[48rem]:table-cell',
  49: '@min-[49rem]:table-cell',
  50: '@min-[50rem]:table-cell',
  51: '@min-[51rem]:table-cell',
  52: '@min-[52rem]:table-cell',
  53: '@min-[53rem]:table-cell',
  54: '@min-[54rem]:table-cell',
  55: '@min-[55rem]:table-cell',
  56: '@min-[56rem]:table-cell',
  57: '@min-[57rem]:table-cell',
  58: '@min-[58rem]:table-cell',
  59: '@min-[59rem]:table-cell',
  60: '@min-[60rem]:table-cell',
  61: '@min-[61rem]:table-cell',
  62: '@min-[62rem]:table-cell',
  63: '@min-[63rem]:table-cell',
  64: '@min-[64rem]:table-cell',
  65: '@min-[65rem]:table-cell',
  66: '@min-[66rem]:table-cell',
  67: '@min-[67rem]:table-cell',
  68: '@min-[68rem]:table-cell',
  69: '@min-[69rem]:table-cell',
  70: '@min-[70rem]:table-cell',
  71: '@min-[71rem]:table-cell',
  72: '@min-[72rem]:table-cell',
  73: '@min-[73rem]:table-cell',
  74: '@min-[74rem]:table-cell',
  75: '@min-[75rem]:table-cell',
  76: '@min-[76rem]:table-cell',
  77: '@min-[77rem]:table-cell',
  78: '@min-[78rem]:table-cell',
  79: '@min-[79rem]:table-cell',
  80: '@min-[80rem]:table-cell',
  84: '@min-[84rem]:table-cell',
  88: '@min-[88rem]:table-cell',
  92: '@min-[92rem]:table-cell',
  96: '@min-[96rem]:table-cell',
  100: '@min-[100rem]:table-cell',
  110: '@min-[110rem]:table-cell',
  120: '@min-[120rem]:table-cell',
}
const STEPS = Object.keys(SHOW_FROM).map(Number)

/**
 * The container width (rem) from which each column of a set is shown: columns join by rank (then by their order),
 * each once the widths of everything shown so far plus its own fit. Rank 0 is always shown (0).
 */
export function columnThresholds(ids: string[], actionsWidth: number): Record<string, number> {
  const fit = (id: string) => (id === 'actions' ? { width: actionsWidth, rank: 0 } : (FIT[id] ?? DEFAULT_FIT))
  const order = ids.map((id, i) => ({ id, i, ...fit(id) })).sort((a, b) => a.rank - b.rank || a.i - b.i)
  let used = 0
  const from: Record<string, number> = {}
  for (const c of order) {
    used += c.width
    from[c.id] = c.rank === 0 ? 0 : used
  }
  return from
}

const autoClass = (from: number) => {
  if (from <= CARDS_BELOW) return ''
  const step = STEPS.find((s) => s >= from)
  return step === undefined ? 'hidden' : `hidden ${SHOW_FROM[step]}`
}

/** Columns the user showed (true) or hid (false) against the automatic fit, remembered per screen in this browser. */
type Overrides = Record<string, boolean>
const STORAGE_PREFIX = 'brokernet:listing-columns:'
function readOverrides(key: string | undefined): Overrides {
  if (!key || typeof localStorage === 'undefined') return {}
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_PREFIX + key) ?? '{}')
    return parsed && typeof parsed === 'object' ? Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) : {}
  } catch {
    return {}
  }
}
function writeOverrides(key: string | undefined, o: Overrides) {
  if (!key) return
  try {
    if (Object.keys(o).length) localStorage.setItem(STORAGE_PREFIX + key, JSON.stringify(o))
    else localStorage.removeItem(STORAGE_PREFIX + key)
  } catch {
    // Private mode or a full storage: the choice lasts as long as the page.
  }
}

const ALWAYS = new Set(['entry_id', 'actions'])

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
  matchCounts?: Readonly<Record<string, number>>
  onShowMatches?: (listing: Listing) => void
}

/** Clicks on controls inside a row are theirs, not the row's. */
const fromControl = (target: EventTarget | null) => target instanceof Element && !!target.closest('button, a, input, select, textarea, label, [popover], [data-row-control]')

// The row's tint is a custom property, so the sticky cells paint it over an opaque background (the cells scrolling
// under them must not show through).
const TINT = {
  plain: '[--row-tint:transparent] hover:[--row-tint:color-mix(in_oklab,var(--color-base-200)_70%,transparent)]',
  own: '[--row-tint:color-mix(in_oklab,var(--color-primary)_6%,transparent)] hover:[--row-tint:color-mix(in_oklab,var(--color-primary)_12%,transparent)]',
  error: '[--row-tint:color-mix(in_oklab,var(--color-error)_10%,transparent)] hover:[--row-tint:color-mix(in_oklab,var(--color-error)_16%,transparent)]',
}
const STICKY_BG = 'bg-base-100 [background-image:linear-gradient(var(--row-tint),var(--row-tint))]'
const STICKY_START = `sticky left-0 z-[1] ${STICKY_BG} shadow-[inset_-1px_0_0_var(--color-base-300)]`
const STICKY_END = `sticky right-0 z-[1] ${STICKY_BG} shadow-[inset_1px_0_0_var(--color-base-300)]`

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
  scrollClassName,
  cardFields = CARD_FIELDS,
  storageKey,
  matchCounts,
  onShowMatches,
}: ListingTableProps) {
  // The card's fields the table lacks join the row model as hidden columns: the table skips them, the card uses them.
  const { all, hidden, tableIds } = useMemo(() => {
    const tableIds = columns.map(columnId)
    const extra = cardFields.filter((f) => !tableIds.includes(f) && BY_ID[f]).map((f) => BY_ID[f]!)
    return { all: [...columns, ...extra], hidden: new Set(extra.map(columnId)), tableIds }
  }, [columns, cardFields])
  const table = useListingRows({ columns: all, data: listings, hidden })

  // A phone's page holds the cards only (../shared/layout.ts): the table, hidden by CSS on a narrow screen, was more
  // than half of the listing page's HTML and of its hydration. It is drawn once the box is found wide enough for it
  // (a phone turned sideways), as on any other screen.
  const phone = use(PhoneLayout)
  const box = useRef<HTMLDivElement>(null)
  const [wide, setWide] = useState(false)
  useEffect(() => {
    const el = box.current
    if (!phone || !el) return
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16
    const observer = new ResizeObserver(([entry]) => setWide(entry!.contentRect.width >= CARDS_BELOW * rem))
    observer.observe(el)
    return () => observer.disconnect()
  }, [phone])
  const withTable = !phone || wide

  const [overrides, setOverrides] = useState<Overrides>({})
  useEffect(() => setOverrides(readOverrides(storageKey)), [storageKey])
  const choose = (next: Overrides) => (setOverrides(next), writeOverrides(storageKey, next))

  const from = useMemo(() => columnThresholds(tableIds, actionsWidth), [tableIds, actionsWidth])
  const display = (id: string) => (overrides[id] === true ? '' : overrides[id] === false ? 'hidden' : autoClass(from[id] ?? 0))
  const place = (id: string) => (id === 'entry_id' ? STICKY_START : id === 'actions' ? STICKY_END : '')
  // Every header cell sticks to the top (of the table's own box, or under the shell's 4rem top bar when the page
  // scrolls); the corner cells also to their side, above the rest.
  const headPlace = (id: string) =>
    `sticky ${scrollClassName ? 'top-0' : 'top-16'} bg-base-100 ${
      id === 'entry_id'
        ? 'left-0 z-[3] shadow-[inset_-1px_0_0_var(--color-base-300),inset_0_-1px_0_var(--color-base-300)]'
        : id === 'actions'
          ? 'right-0 z-[3] shadow-[inset_1px_0_0_var(--color-base-300),inset_0_-1px_0_var(--color-base-300)]'
          : 'z-[2] shadow-[inset_0_-1px_0_var(--color-base-300)]'
    }`

  const env: ListingTableEnv = { viewerId, highlightOwn, actions, matchCounts, onShowMatches }
  const open = (l: Listing) => (e: MouseEvent | KeyboardEvent) => {
    if (!onRowClick || fromControl(e.target)) return
    if ('key' in e) {
      if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return
      e.preventDefault()
    }
    onRowClick(l)
  }
  const tint = (l: Listing) => (rowTone?.(l) === 'error' ? TINT.error : isOwn(env, l) ? TINT.own : TINT.plain)
  const rows = table.getRowModel().rows
  const headerGroups = table.getHeaderGroups()
  const tableRef = useRef<HTMLTableElement>(null)
  const choosable = tableIds.filter((id) => !ALWAYS.has(id))
  // The fitted columns never overflow (their widths are bounded), so the page's vertical scroll keeps the header in
  // view (clip, unlike auto, makes no scroll box); columns the user added may, and then the box scrolls sideways.
  const scrollBox = scrollClassName ?? (Object.values(overrides).some(Boolean) ? 'overflow-x-auto' : 'overflow-x-clip')
  const menuId = `column-menu-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`

  return (
    <EnvContext value={env}>
      <div ref={box} className={`@container transition-opacity ${busy ? 'opacity-60' : ''}`} data-listing-table>
        {withTable && (
        <div className={`hidden @min-[40rem]:block ${scrollBox}`}>
          <table ref={tableRef} className="table table-sm" aria-label={label} aria-busy={busy || undefined}>
            <thead>
              {headerGroups.map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const id = header.column.id
                    return (
                      <th key={header.id} data-column={id} className={`whitespace-nowrap px-2 ${display(id)} ${headPlace(id)}`}>
                        {id === 'actions' && storageKey && <ColumnMenuButton menuId={menuId} />}
                        {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                      </th>
                    )
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {rows.map((row) => {
                const l = row.original
                const own = isOwn(env, l)
                return (
                  <tr
                    key={row.id}
                    data-listing-id={l.id}
                    data-entry-id={l.entry_id}
                    data-own={own || undefined}
                    data-status={l.status}
                    data-tone={rowTone?.(l)}
                    tabIndex={onRowClick ? 0 : undefined}
                    aria-label={onRowClick ? `Listing ${l.entry_id}` : undefined}
                    className={`bg-(--row-tint) ${tint(l)} ${onRowClick ? 'cursor-pointer' : ''}`}
                    onClick={open(l)}
                    onKeyDown={open(l)}
                  >
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id} data-column={cell.column.id} className={`px-2 align-top ${display(cell.column.id)} ${place(cell.column.id)}`}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        )}
        {withTable && storageKey && (
          <ColumnMenu menuId={menuId} columns={choosable.map((c) => ({ id: c, label: headerText(all, c) }))} tableRef={tableRef} overrides={overrides} onChange={choose} />
        )}

        <ul className={`divide-y divide-base-300 ${withTable ? '@min-[40rem]:hidden' : ''}`} aria-label={label} aria-busy={busy || undefined}>
          {rows.map((row) => (
            <li key={row.id}>
              <ListingCard row={row} fields={cardFields} tint={tint(row.original)} own={isOwn(env, row.original)} tone={rowTone?.(row.original)} onOpen={onRowClick ? open(row.original) : undefined} />
            </li>
          ))}
        </ul>
      </div>
    </EnvContext>
  )
}

const headerText = (columns: ListingColumnDef[], id: string) => {
  const header = columns.find((c) => columnId(c) === id)?.header
  return typeof header === 'string' ? header : id
}

/**
 * One listing as a card (a phone's row): the same row and cells as the table, laid out to be read top to bottom
 * and tapped. Its fields come from the row's cells by column id.
 */
function ListingCard({
  row,
  fields,
  tint,
  own,
  tone,
  onOpen,
}: {
  row: Row
  fields: readonly CardField[]
  tint: string
  own: boolean
  tone: 'error' | undefined
  onOpen?: (e: MouseEvent | KeyboardEvent) => void
}) {
  const l = row.original
  const cells = row.getAllCellsByColumnId()
  const field = (id: CardField) => (fields.includes(id) && cells[id] ? <FlexRender cell={cells[id]} /> : null)
  const has = (id: CardField) => fields.includes(id) && !!cells[id]
  return (
    <article
      className={`bg-(--row-tint) ${tint} px-3 py-3 ${onOpen ? 'cursor-pointer' : ''}`}
      data-listing-card={l.entry_id}
      data-listing-id={l.id}
      data-entry-id={l.entry_id}
      data-own={own || undefined}
      data-status={l.status}
      data-tone={tone}
      tabIndex={onOpen ? 0 : undefined}
      aria-label={onOpen ? `Listing ${l.entry_id}` : undefined}
      onClick={onOpen}
      onKeyDown={onOpen}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">{field('entry_id')}</div>
        {has('actions') && <div className="-mt-1 -mr-1 shrink-0 [&_.btn]:h-9 [&_.btn]:min-h-9 [&_.btn]:px-3">{field('actions')}</div>}
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1.5" data-card-badges>
        {field('post_type')}
        {has('sale_or_rent') && <span className="badge badge-sm badge-outline whitespace-nowrap">{field('sale_or_rent')}</span>}
        {field('status')}
      </div>
      <div className="mt-2 flex items-baseline justify-between gap-3">
        <p className="flex min-w-0 items-baseline gap-1.5 text-sm">
          {has('property_type') && <span className="min-w-0 font-medium [&_.truncate]:max-w-[11rem]">{field('property_type')}</span>}
          {has('size') && l.size !== null && (
            <span className="shrink-0 text-base-content/70">
              · {field('size')}
            </span>
          )}
        </p>
        {has('budget') && <p className="shrink-0 text-base">{field('budget')}</p>}
      </div>
      {(has('locality') || has('owner_name')) && (
        <dl className="mt-1.5 grid grid-cols-2 gap-x-3 text-xs">
          {has('locality') && (
            <div className="min-w-0">
              <dt className="text-base-content/70">Locality</dt>
              <dd className="[&_.truncate]:max-w-full">{field('locality')}</dd>
            </div>
          )}
          {has('owner_name') && (
            <div className="min-w-0">
              <dt className="text-base-content/70">Broker</dt>
              <dd className="[&_.truncate]:max-w-full">{field('owner_name')}</dd>
            </div>
          )}
        </dl>
      )}
    </article>
  )
}

/**
 * The Columns menu: a checkbox per column showing whether it is on screen now (fitted or chosen); a change is the
 * user's choice for that column, remembered; 'Fit to width' forgets every choice.
 */
/** The Columns menu's button, in the Actions header (no text of its own: the header still reads 'Actions'). */
function ColumnMenuButton({ menuId }: { menuId: string }) {
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => button.current?.style.setProperty('anchor-name', `--${menuId}`), [menuId])
  return (
    <button ref={button} type="button" className="btn btn-ghost btn-xs btn-square -my-1 mr-1 align-middle" popoverTarget={menuId} aria-label="Choose columns" title="Choose columns">
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} className="h-4 w-4" aria-hidden="true">
        <path d="M4 5h16v14H4zM9.5 5v14M14.5 5v14" />
      </svg>
    </button>
  )
}

function ColumnMenu({
  menuId,
  columns,
  tableRef,
  overrides,
  onChange,
}: {
  menuId: string
  columns: { id: string; label: string }[]
  tableRef: React.RefObject<HTMLTableElement | null>
  overrides: Overrides
  onChange: (o: Overrides) => void
}) {
  const menu = useRef<HTMLDivElement>(null)
  // Rendered only while open: a closed menu adds no checkboxes (nor their labels) to the page.
  const [isOpen, setOpen] = useState(false)
  const [shown, setShown] = useState<Record<string, boolean>>({})
  // What is on screen: a column's header is displayed (the fit and the choices decide, in CSS).
  const measure = () => {
    const ths = tableRef.current?.querySelectorAll<HTMLElement>('thead th[data-column]') ?? []
    setShown(Object.fromEntries([...ths].map((th) => [th.dataset.column!, getComputedStyle(th).display !== 'none'])))
  }
  useEffect(() => {
    const el = menu.current
    el?.style.setProperty('position-anchor', `--${menuId}`)
    const onToggle = (e: Event) => {
      const opened = (e as ToggleEvent).newState === 'open'
      setOpen(opened)
      if (opened) measure()
    }
    el?.addEventListener('toggle', onToggle)
    return () => el?.removeEventListener('toggle', onToggle)
  }, [menuId])
  useEffect(() => {
    if (menu.current?.matches(':popover-open')) measure()
  }, [overrides])
  return (
    <div
      ref={menu}
      id={menuId}
      popover="auto"
      role="group"
      aria-label="Columns"
      className="dropdown dropdown-end w-60 rounded-box border border-base-300 bg-base-100 p-2 text-sm shadow-lg [position-try-fallbacks:flip-block]"
    >
      {isOpen && (
        <>
      <p className="px-2 pb-1 text-xs text-base-content/70">Columns on screen. Entry ID and Actions always are; a row's details show every field.</p>
      <ul>
        {columns.map((c) => (
          <li key={c.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 hover:bg-base-200">
              <input
                type="checkbox"
                className="checkbox checkbox-xs"
                name={c.id}
                checked={shown[c.id] ?? false}
                onChange={(e) => onChange({ ...overrides, [c.id]: e.target.checked })}
              />
              {c.label}
            </label>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-ghost btn-xs mt-1 w-full" disabled={Object.keys(overrides).length === 0} onClick={() => onChange({})}>
        Fit to width
      </button>
        </>
      )}
    </div>
  )
}

export type RowMenuItem = { label: string; onSelect: () => void; tone?: 'error' | 'warning' | 'success' }
const TONES = { error: 'text-error', warning: 'text-warning', success: 'text-success' } as const

/**
 * A row's action menu: a button and a popover list in the top layer (so a scrolling table never clips it),
 * anchored to the button; Escape or a click elsewhere closes it.
 *
 * No transition or animation (`transition-none animate-none`): daisyUI's `.dropdown[popover]` grows in from
 * scale .95 over 0.2 s and, once closed, stays rendered for 0.2 s more (display and overlay transitions). So the
 * items of a just-opened menu were still moving under the pointer, and a closed menu was still on screen, and
 * found by its role, while it faded out. The menu now appears in place and disappears at once.
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
      <ul ref={menu} id={id} popover="auto" role="menu" aria-label={label} className="dropdown dropdown-end menu w-44 rounded-box bg-base-100 p-1 shadow-lg transition-none animate-none [position-try-fallbacks:flip-block]">
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
