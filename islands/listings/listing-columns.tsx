import { createElement, useMemo, type ReactNode } from 'react'
import type { Listing } from '../../src/modules/listings/model'

// The listing table's columns and rows: the little of TanStack Table it used (a column helper, the core row model,
// hidden columns), with the same names, in a tenth of the code. TanStack Table (its core, its store and the React
// adapter: 31 KB of the listing pages' scripts, about 9 KB brotli) and its per-table atoms were a sizeable part of a
// phone's download and hydration (docs/decisions/0XX-phone-speed.md). Paging, filtering and sorting are the server's.

/** What a column's cell (and header) is given: the row, and for an accessor column its value. */
export type CellContext<V = unknown> = { row: Row; getValue: () => V }

/** A column: its id, its header, and its cell, rendered as a component of the row's context. */
export type ListingColumnDef = {
  id: string
  header: string
  /** The listing field an accessor column reads (`getValue`); none for a display column. */
  accessorKey?: keyof Listing
  cell: (context: CellContext<any>) => ReactNode
}

/** Builds columns: `listingColumn.accessor('budget', { header, cell })`, `listingColumn.display({ id, header, cell })`. */
export const listingColumn = {
  accessor: <K extends keyof Listing>(key: K, def: { id?: string; header: string; cell: (context: CellContext<Listing[K]>) => ReactNode }): ListingColumnDef => ({
    id: def.id ?? key,
    header: def.header,
    accessorKey: key,
    cell: def.cell,
  }),
  display: (def: { id: string; header: string; cell: (context: CellContext) => ReactNode }): ListingColumnDef => def,
}

export type Cell = { id: string; column: ListingColumnDef; context: CellContext }
export type Row = {
  id: string
  original: Listing
  /** The cells of the columns shown in the table. */
  getVisibleCells: () => Cell[]
  /** Every cell by column id, hidden columns' too (the card uses them). */
  getAllCellsByColumnId: () => Record<string, Cell>
}
type Header = { id: string; column: ListingColumnDef; isPlaceholder: false }

/** A cell or a header drawn: the column's cell component with the row's context, or the header's text. */
export function FlexRender({ cell, header }: { cell?: Cell; header?: Header }): ReactNode {
  if (header) return header.column.header
  return cell ? createElement(cell.column.cell, cell.context) : null
}

/**
 * The rows of `data` over `columns`, those in `hidden` left out of each row's visible cells (the table's) but among its
 * cells by id (the card's). The same shape as TanStack Table's `useTable` for what ListingTable reads.
 */
export function useListingRows({ columns, data, hidden }: { columns: ListingColumnDef[]; data: Listing[]; hidden: ReadonlySet<string> }) {
  return useMemo(() => {
    const visible = columns.filter((c) => !hidden.has(c.id))
    const rows: Row[] = data.map((original) => {
      const id = String(original.id)
      const row = { id, original } as Row
      const cells = columns.map((column): Cell => {
        const key = column.accessorKey
        return { id: `${id}_${column.id}`, column, context: { row, getValue: () => (key ? original[key] : undefined) } }
      })
      const byId = Object.fromEntries(cells.map((c) => [c.column.id, c]))
      row.getVisibleCells = () => cells.filter((c) => !hidden.has(c.column.id))
      row.getAllCellsByColumnId = () => byId
      return row
    })
    const headers: Header[] = visible.map((column) => ({ id: column.id, column, isPlaceholder: false }))
    return {
      getRowModel: () => ({ rows }),
      getHeaderGroups: () => [{ id: 'header', headers }],
      FlexRender,
    }
  }, [columns, data, hidden])
}
