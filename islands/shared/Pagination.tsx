import { PAGE_SIZES } from '../../src/shared/constants'

export type PageItem = number | 'gap'

/** The footer under every paged list (SPEC section 9): 'Showing 1 to 10 of 42 brokers'. */
export function showingText(page: number, perPage: number, total: number, noun: string): string {
  const from = total === 0 ? 0 : (page - 1) * perPage + 1
  const to = Math.min(page * perPage, total)
  return `Showing ${from} to ${to} of ${total} ${noun}`
}

/** Pages either side of the current one that are always shown (SPEC section 9). */
const WINDOW = 2

/**
 * The buttons of a pager (SPEC section 9): the first and last pages, the current page with 2 either side, and a gap
 * ('…') where pages are left out. A gap would hide a single page, so that page is shown instead: same width, no
 * guessing. Nothing at all with one page or fewer.
 */
export function pageItems(current: number, total: number): PageItem[] {
  if (total <= 1) return []
  const page = Math.min(Math.max(1, current), total)
  const from = Math.max(2, page - WINDOW)
  const to = Math.min(total - 1, page + WINDOW)
  const items: PageItem[] = [1]
  if (from === 3) items.push(2)
  else if (from > 3) items.push('gap')
  for (let p = from; p <= to; p++) items.push(p)
  if (to === total - 2) items.push(total - 1)
  else if (to < total - 2) items.push('gap')
  items.push(total)
  return items
}

type Props = { page: number; totalPages: number; onPage: (page: number) => void; label?: string }

/** Previous, the page numbers of `pageItems`, Next. Hidden with one page or fewer. */
export function Pagination({ page, totalPages, onPage, label = 'Pagination' }: Props) {
  const items = pageItems(page, totalPages)
  if (items.length === 0) return null
  return (
    <nav aria-label={label} className="join">
      <button type="button" className="join-item btn btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Previous page">
        «
      </button>
      {items.map((item, i) =>
        item === 'gap' ? (
          <span key={`gap${i}`} className="join-item btn btn-sm btn-disabled" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className={`join-item btn btn-sm ${item === page ? 'btn-active btn-primary' : ''}`}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            onClick={() => item !== page && onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button type="button" className="join-item btn btn-sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label="Next page">
        »
      </button>
    </nav>
  )
}

/** Rows per page: 10, 25, 50 or 100 (SPEC section 9). The caller returns to page 1 on a change. */
export function PageSizeSelect({ value, onChange, id = 'per-page' }: { value: number; onChange: (size: number) => void; id?: string }) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id}>Per page</label>
      <select id={id} className="select select-bordered select-sm w-20" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  )
}
