import { use, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import { PhoneLayout } from '../layout'
import { ColumnMenu, ColumnMenuButton } from './ColumnMenu'
import { CARDS_BELOW, columnThresholds, readOverrides, showFromClass, writeOverrides, type ColumnFit, type Overrides } from './column-fit'
import { FlexRender, useRows, type TableColumn, type TableRow } from './row-model'

// The one table of the islands (issue 31): the listing tables, the people tables and the audit trail are each a set
// of columns and a look given to it. What they share is here: the rows as the server sent them, the dimmed rows and
// aria-busy while another page loads, the empty state, a row that opens its details on a click or Enter, and, for the
// tables that ask for them, a card per row on a phone, the columns fitted to the width with a Columns menu, and sticky
// first and last columns. Paging, filtering and sorting are the server's: no table sorts or pages on its own. Its rows
// and columns are ./row-model.ts (TanStack Table's names, our own few lines: docs/decisions/040-phone-speed.md).

export { FlexRender, tableColumns, type TableCell, type TableColumn, type TableRow } from './row-model'
export const columnId = <T,>(c: TableColumn<T>) => c.id

type DataAttributes = Record<`data-${string}`, string | number | boolean | undefined>

/** What a row carries on its table row and on its card alike: its `data-*` hooks, its look, and what opens it. */
export type RowProps = DataAttributes & {
  className: string
  tabIndex?: number
  'aria-label'?: string
  onClick?: (e: MouseEvent) => void
  onKeyDown?: (e: KeyboardEvent) => void
}

/** A table's classes (literal in the table's own file, so Tailwind finds them). */
export type TableLook<T> = {
  /** The outer box (e.g. `@container`, for the container queries of its cells), and its `data-*` hooks. */
  box?: string
  boxData?: DataAttributes
  /** The table's own scrolling box (e.g. `overflow-x-auto`); without one the page scrolls it (see `fit`). */
  scroll?: string
  table: string
  thead?: string
  tbody?: string
  th?: string
  tr?: (item: T) => string
  td?: (columnId: string) => string
  /** Each cell names its column's header in `data-label` (a layout that prints the label beside the value). */
  labelCells?: boolean
}

type Props<T> = {
  data: T[]
  /** Constant (a module-level array or a memo), not a new array each render. */
  columns: TableColumn<T>[]
  /** Columns of the row model that the table never shows (fields only a card shows). */
  hiddenColumns?: readonly string[]
  getRowId: (item: T) => string
  /** The accessible name of the table (and of the list of cards). */
  label: string
  /** Dims the rows, and says so (aria-busy), while another page loads. */
  busy?: boolean
  /** Shown instead of the table when there are no rows (TableEmpty). */
  empty?: ReactNode
  look: TableLook<T>
  /** The row's `data-*` attributes (on its card too). */
  rowData?: (item: T) => DataAttributes
  /** A click, Enter or Space on a row (or card) opens it; clicks on its own controls stay theirs. */
  onRowClick?: (item: T) => void
  /** The accessible name of a row that opens. */
  rowLabel?: (item: T) => string
  /**
   * A phone's rendering: under CARDS_BELOW rem of the table's box each row is this card (given the row's props to
   * spread on it); the table shows from there.
   */
  card?: (row: TableRow<T>, props: RowProps) => ReactNode
  /**
   * With `card`: on a page a phone asked for (PhoneLayout, islands/shared/layout.ts) the table is not rendered at all,
   * on the server or in hydration, until the box is found CARDS_BELOW rem wide or more (a phone turned sideways). On a
   * phone the hidden table was more than half of a listing page's HTML, DOM and hydration (decision 040).
   */
  cardsOnlyOnPhone?: boolean
  /**
   * The first and last columns stay in view when the table scrolls sideways, and the header row when the page or the
   * box scrolls down. Rows paint their background as `--row-tint` (ROW_TINT), which the sticky cells paint over an
   * opaque one.
   */
  sticky?: { start: string; end: string }
  /**
   * Columns shown by importance as long as they fit the box (`fitOf`: each one's width and rank; the sticky ones are
   * always shown); the others are one click away in the row's details. With `storageKey` the user may show or hide any
   * column (the Columns menu, in the sticky end column's header), remembered in this browser; `note` heads the menu.
   */
  fit?: { fitOf: (id: string) => ColumnFit; storageKey?: string; note: string }
}

/**
 * A card out of view is neither laid out nor painted (content-visibility: auto) until it nears the viewport: on a
 * phone one or two of a page's 25 cards are in view, and laying out and painting the rest was a third of a warm
 * revisit's main-thread time at 4× CPU (docs/decisions/057-warm-revisit.md). Its height until then is a typical
 * card's, and once drawn the one it had (`auto`), so the page's scroll length hardly moves. Its content stays in the
 * accessibility tree, find-in-page and `getBoundingClientRect` (which lays it out on demand).
 */
const CARD_OFFSCREEN = '[content-visibility:auto] [contain-intrinsic-size:auto_15rem]'

const sameOverrides = (a: Overrides, b: Overrides) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k])

const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(' ')

/** Clicks on controls inside a row are theirs, not the row's. */
const fromControl = (target: EventTarget | null) => target instanceof Element && !!target.closest('button, a, input, select, textarea, label, [popover], [data-row-control]')

/**
 * A row's background as a custom property, so the sticky cells paint it over an opaque background (the cells
 * scrolling under them must not show through): plain, the viewer's own, or an alarm (e.g. suspended).
 */
export const ROW_TINT = {
  plain: '[--row-tint:transparent] hover:[--row-tint:color-mix(in_oklab,var(--color-base-200)_70%,transparent)]',
  own: '[--row-tint:color-mix(in_oklab,var(--color-primary)_6%,transparent)] hover:[--row-tint:color-mix(in_oklab,var(--color-primary)_12%,transparent)]',
  error: '[--row-tint:color-mix(in_oklab,var(--color-error)_10%,transparent)] hover:[--row-tint:color-mix(in_oklab,var(--color-error)_16%,transparent)]',
}
const STICKY_BG = 'bg-base-100 [background-image:linear-gradient(var(--row-tint),var(--row-tint))]'
const STICKY_START = `sticky left-0 z-[1] ${STICKY_BG} shadow-[inset_-1px_0_0_var(--color-base-300)]`
const STICKY_END = `sticky right-0 z-[1] ${STICKY_BG} shadow-[inset_1px_0_0_var(--color-base-300)]`

const headerText = <T,>(columns: TableColumn<T>[], id: string) => {
  const header = columns.find((c) => columnId(c) === id)?.header
  return typeof header === 'string' ? header : id
}

export function DataTable<T>({ data, columns, hiddenColumns, getRowId, label, busy, empty, look, rowData, onRowClick, rowLabel, card, cardsOnlyOnPhone, sticky, fit }: Props<T>) {
  const hidden = useMemo(() => new Set(hiddenColumns), [hiddenColumns])
  const { rows, headers } = useRows({ columns, data, getRowId, hidden })
  const tableIds = useMemo(() => columns.map(columnId).filter((id) => !hidden.has(id)), [columns, hidden])

  // A phone's page holds the cards only (`cardsOnlyOnPhone`), until the box turns out wide enough for the table.
  const phoneFirst = use(PhoneLayout) && !!card && !!cardsOnlyOnPhone
  const [wide, setWide] = useState(false)
  // The box is watched from its ref callback (React runs the returned cleanup when the box goes or `phoneFirst`
  // changes). It was a state set by the ref: that set, in the commit of the list's hydration, re-rendered the whole
  // list (every card) at once, in the same task, before the page could answer a tap: 100-190 ms of a warm revisit at
  // 4x CPU (docs/decisions/070-slim-cards.md).
  const watchBox = useCallback(
    (el: HTMLDivElement | null) => {
      if (!phoneFirst || !el) return
      // The root's font size is read in the observer's callback, where style is up to date: read in the effects that
      // follow hydration, it made the browser recompute the style the cards' own effects had just changed (a forced
      // style recalculation of 20-75 ms at 4x CPU on a warm revisit, docs/decisions/063-warm-hydration-order.md).
      const observer = new ResizeObserver(([entry]) => {
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16
        setWide(entry!.contentRect.width >= CARDS_BELOW * rem)
      })
      observer.observe(el)
      return () => observer.disconnect()
    },
    [phoneFirst],
  )
  const withTable = !phoneFirst || wide

  // The fit and the user's choices against it (empty without `fit`).
  const storageKey = fit?.storageKey
  const [overrides, setOverrides] = useState<Overrides>({})
  // Kept as it is when this browser stored nothing new for it: a new empty object re-rendered the whole table (every
  // card) right after hydration, a long task of its own on a slow phone (docs/decisions/063-warm-hydration-order.md).
  // Read once there is a table: the choices are its columns', and a phone's cards-only page has none. This browser's
  // storage, read first here, was 5-15 ms of the effects a warm revisit waits for at 4x CPU (docs/decisions/070-slim-cards.md).
  useEffect(() => {
    if (!withTable) return
    const stored = readOverrides(storageKey)
    setOverrides((now) => (sameOverrides(now, stored) ? now : stored))
  }, [storageKey, withTable])
  const choose = (next: Overrides) => (setOverrides(next), writeOverrides(storageKey, next))
  const always = useMemo(() => new Set(sticky ? [sticky.start, sticky.end] : []), [sticky?.start, sticky?.end])
  const fitOf = fit?.fitOf
  const from = useMemo(() => (fitOf ? columnThresholds(tableIds, (id) => (always.has(id) ? { ...fitOf(id), rank: 0 } : fitOf(id))) : {}), [tableIds, fitOf, always])
  const display = (id: string) => (overrides[id] === true ? '' : overrides[id] === false ? 'hidden' : showFromClass(from[id] ?? 0))

  // Every header cell sticks to the top (of the table's own box, or under the shell's 4rem top bar when the page
  // scrolls); the corner cells also to their side, above the rest.
  const headPlace = (id: string) =>
    sticky &&
    `sticky ${look.scroll ? 'top-0' : 'top-16'} bg-base-100 ${
      id === sticky.start
        ? 'left-0 z-[3] shadow-[inset_-1px_0_0_var(--color-base-300),inset_0_-1px_0_var(--color-base-300)]'
        : id === sticky.end
          ? 'right-0 z-[3] shadow-[inset_1px_0_0_var(--color-base-300),inset_0_-1px_0_var(--color-base-300)]'
          : 'z-[2] shadow-[inset_0_-1px_0_var(--color-base-300)]'
    }`
  const cellPlace = (id: string) => (id === sticky?.start ? STICKY_START : id === sticky?.end ? STICKY_END : '')

  const open = (item: T) => (e: MouseEvent | KeyboardEvent) => {
    if (!onRowClick || fromControl(e.target)) return
    if ('key' in e) {
      if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return
      e.preventDefault()
    }
    onRowClick(item)
  }
  const rowProps = (item: T): RowProps => ({
    ...rowData?.(item),
    className: cx(sticky && 'bg-(--row-tint)', look.tr?.(item), onRowClick && 'cursor-pointer'),
    ...(onRowClick ? { tabIndex: 0, 'aria-label': rowLabel?.(item), onClick: open(item), onKeyDown: open(item) } : {}),
  })

  const tableRef = useRef<HTMLTableElement>(null)
  const menuId = `column-menu-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  const menuIn = storageKey && withTable ? sticky?.end : undefined
  // The fitted columns never overflow (their widths are bounded), so the page's vertical scroll keeps the header in
  // view (clip, unlike auto, makes no scroll box); columns the user added may, and then the box scrolls sideways.
  const scroll = look.scroll ?? (fit ? (Object.values(overrides).some(Boolean) ? 'overflow-x-auto' : 'overflow-x-clip') : undefined)

  if (data.length === 0 && empty) return <>{empty}</>
  const tableElement = (
    <table ref={tableRef} className={look.table} aria-label={label} aria-busy={busy || undefined}>
      <thead className={look.thead}>
        <tr>
          {headers.map((header) => {
            const id = header.id
            return (
              <th key={id} data-column={id} className={cx(look.th, fit && display(id), headPlace(id)) || undefined}>
                {id === menuIn && <ColumnMenuButton menuId={menuId} />}
                <FlexRender header={header} />
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody className={look.tbody}>
        {rows.map((row) => (
          <tr key={row.id} {...rowProps(row.original)}>
            {row.getVisibleCells().map((cell) => {
              const id = cell.column.id
              const header = cell.column.header
              return (
                <td
                  key={cell.id}
                  data-column={id}
                  data-label={look.labelCells && typeof header === 'string' ? header : undefined}
                  className={cx(look.td?.(id), fit && display(id), cellPlace(id)) || undefined}
                >
                  <FlexRender cell={cell} />
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </table>
  )
  // A table alone scrolls in its outer box; one with cards or a fit has a box of its own, which the cards replace.
  const ownBox = !!(card || fit)
  return (
    <div ref={watchBox} className={cx(look.box, !ownBox && scroll, 'transition-opacity', busy && 'opacity-60')} {...look.boxData}>
      {!withTable ? null : ownBox ? <div className={cx(card && 'hidden @min-[40rem]:block', scroll)}>{tableElement}</div> : tableElement}
      {menuIn && (
        <ColumnMenu
          menuId={menuId}
          columns={tableIds.filter((id) => !always.has(id)).map((id) => ({ id, label: headerText(columns, id) }))}
          note={fit!.note}
          tableRef={tableRef}
          overrides={overrides}
          onChange={choose}
        />
      )}
      {card && (
        <ul className={cx('divide-y divide-base-300', withTable && '@min-[40rem]:hidden')} aria-label={label} aria-busy={busy || undefined}>
          {rows.map((row) => (
            <li key={row.id} className={CARD_OFFSCREEN}>
              {card(row, rowProps(row.original))}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** What a table shows when there are no rows: a heading and a line under it (e.g. how to add the first one). */
export function TableEmpty({ title, text, heading: Heading = 'h2' }: { title: string; text: string; heading?: 'h2' | 'h3' }) {
  return (
    <div className="card-body items-center text-center" data-empty>
      <Heading className="card-title">{title}</Heading>
      <p className="text-base-content/70">{text}</p>
    </div>
  )
}

/** While the first page of a table is on its way (no rows to show yet). */
export function TableLoading({ label }: { label: string }) {
  return (
    <div className="flex justify-center p-8" role="status" aria-label={label}>
      <span className="loading loading-spinner loading-md" />
    </div>
  )
}
