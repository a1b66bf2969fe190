import { createElement, useMemo, type ComponentType, type ReactNode } from 'react'

// DataTable's columns and rows: the little of TanStack Table it used (a column helper, the core row model, hidden
// columns), with the same names, in a fraction of the code. TanStack Table's core, its store and the React adapter were
// 31 KB raw (about 9 KB brotli) of every listing page's scripts, and its per-table atoms showed in a phone's CPU profile
// (docs/decisions/040-phone-speed.md). Paging, filtering and sorting are the server's, so nothing more is needed.

/** What a column's cell is given: the row, and for an accessor column its value. */
export type CellContext<T, V = unknown> = { row: TableRow<T>; getValue: () => V }

/** A column: its id, its header (text, or a component for a header that is not text), and its cell component. */
export type TableColumn<T> = {
  id: string
  header: string | ComponentType
  /** The field an accessor column reads (`getValue`); none for a display column. */
  accessorKey?: keyof T
  cell: (context: CellContext<T, any>) => ReactNode
}

export type TableCell<T> = { id: string; column: TableColumn<T>; context: CellContext<T> }
export type TableRow<T> = {
  id: string
  original: T
  /** The cells of the columns the table shows. */
  getVisibleCells: () => TableCell<T>[]
  /** Every cell by column id, hidden columns' too (a card uses them). */
  getAllCellsByColumnId: () => Record<string, TableCell<T>>
}
export type TableHeader<T> = { id: string; column: TableColumn<T> }

/** Builds a table's columns: `tableColumns<Listing>().accessor('entry_id', { header, cell })`, `.display({ id, header, cell })`. */
export const tableColumns = <T>() => ({
  accessor: <K extends keyof T & string>(key: K, def: { id?: string; header: TableColumn<T>['header']; cell: (context: CellContext<T, T[K]>) => ReactNode }): TableColumn<T> => ({
    id: def.id ?? key,
    header: def.header,
    accessorKey: key,
    cell: def.cell,
  }),
  display: (def: { id: string; header: TableColumn<T>['header']; cell: (context: CellContext<T>) => ReactNode }): TableColumn<T> => def,
  /** A table's columns, as one array. */
  columns: (columns: TableColumn<T>[]) => columns,
})

/** A cell drawn (its column's cell component, given the row's context), or a header. */
export function FlexRender<T>({ cell, header }: { cell?: TableCell<T>; header?: TableHeader<T> }): ReactNode {
  if (header) return typeof header.column.header === 'string' ? header.column.header : createElement(header.column.header)
  return cell ? createElement(cell.column.cell as ComponentType<CellContext<T>>, cell.context) : null
}

/** The rows of `data` over `columns`; the columns in `hidden` are left out of the table's cells but kept by id (cards). */
export function useRows<T>({ columns, data, getRowId, hidden }: { columns: TableColumn<T>[]; data: T[]; getRowId: (item: T) => string; hidden: ReadonlySet<string> }) {
  return useMemo(() => {
    const rows = data.map((original) => {
      const id = getRowId(original)
      const row = { id, original } as TableRow<T>
      const cells = columns.map((column): TableCell<T> => {
        const key = column.accessorKey
        return { id: `${id}_${column.id}`, column, context: { row, getValue: () => (key === undefined ? undefined : original[key]) } }
      })
      const visible = cells.filter((c) => !hidden.has(c.column.id))
      const byId = Object.fromEntries(cells.map((c) => [c.column.id, c]))
      row.getVisibleCells = () => visible
      row.getAllCellsByColumnId = () => byId
      return row
    })
    const headers: TableHeader<T>[] = columns.filter((c) => !hidden.has(c.id)).map((column) => ({ id: column.id, column }))
    return { rows, headers }
  }, [columns, data, getRowId, hidden])
}
