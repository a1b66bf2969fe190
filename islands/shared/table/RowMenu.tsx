import { useId, useRef, useState, type ToggleEvent } from 'react'

export type RowMenuItem = { label: string; onSelect: () => void; tone?: 'error' | 'warning' | 'success' }
/**
 * The menu button's three dots, painted by its `::before` (no element of their own): a 16 px square whose background
 * is a dot of radius 1.2 px (the former icon's 1.8 of 24) repeated down the middle every 4.67 px from 3.33 px, where
 * the icon's circles were. The icon's `<svg>` and `<path>` were two elements more on every card and row
 * (docs/decisions/070-slim-cards.md).
 */
const DOTS =
  'before:block before:size-4 before:bg-[radial-gradient(circle,currentColor_1.2px,transparent_1.6px)] before:bg-size-[100%_4.667px] before:bg-position-[0_1px] before:bg-repeat-y'
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
  // The items exist while the menu is open: a phone's listing page held 25 closed menus, about 50 hidden items that
  // were parsed and hydrated for the one menu a user may open (docs/decisions/066-warm-revisit-routes-and-menus.md).
  // They are rendered in the `beforetoggle` event, a discrete event whose update React renders in the same task,
  // before the open menu is first drawn.
  const [open, setOpen] = useState(false)
  const toggle = (e: ToggleEvent<HTMLUListElement>) => {
    const opening = e.newState === 'open'
    // The anchor is set through the CSSOM, not a style attribute: the Content-Security-Policy forbids inline styles.
    // Set when first opened, not for every closed menu once the page is hydrated.
    if (opening) {
      button.current?.style.setProperty('anchor-name', `--${id}`)
      e.currentTarget.style.setProperty('position-anchor', `--${id}`)
    }
    setOpen(opening)
  }
  if (items.length === 0) return null
  return (
    <>
      <button ref={button} type="button" className={`btn btn-ghost btn-xs ${DOTS}`} popoverTarget={id} aria-label={label} />
      <ul ref={menu} id={id} popover="auto" role="menu" aria-label={label} onBeforeToggle={toggle} className="dropdown dropdown-end menu w-44 rounded-box bg-base-100 p-1 shadow-lg transition-none animate-none [position-try-fallbacks:flip-block]">
        {open && items.map((item) => (
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
