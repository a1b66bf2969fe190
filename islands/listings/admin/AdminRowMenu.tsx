import { useEffect, useId, useRef } from 'react'
import type { RowMenuItem } from '../ListingTable'

const TONES = { error: 'text-error', warning: 'text-warning', success: 'text-success' } as const

/**
 * A row's action menu: a button and a popover list in the top layer (a scrolling table never clips it), anchored to
 * the button. The anchor names are set through the CSSOM after hydration, not as `style` attributes: the page's
 * Content-Security-Policy (style-src 'self') blocks inline style attributes in the server's HTML.
 * (Same props as ListingTable's RowMenu, which still renders `style`.)
 */
export function AdminRowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const id = `admin-row-menu-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLUListElement>(null)
  useEffect(() => {
    const anchor = `--${id}`
    button.current?.style.setProperty('anchor-name', anchor)
    menu.current?.style.setProperty('position-anchor', anchor)
  }, [id])
  if (items.length === 0) return null
  return (
    <>
      <button ref={button} type="button" className="btn btn-ghost btn-xs" popoverTarget={id} aria-label={label} aria-haspopup="menu">
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor" className="h-4 w-4" aria-hidden="true">
          <circle cx="12" cy="5" r="1.8" />
          <circle cx="12" cy="12" r="1.8" />
          <circle cx="12" cy="19" r="1.8" />
        </svg>
      </button>
      <ul ref={menu} id={id} popover="auto" role="menu" aria-label={label} className="dropdown dropdown-end menu w-44 rounded-box bg-base-100 p-1 shadow-lg">
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
