import { useEffect, useRef, useState, type RefObject } from 'react'
import type { Overrides } from './column-fit'

/** The Columns menu's button, in a header cell (no text of its own: the header still reads as its column). */
export function ColumnMenuButton({ menuId }: { menuId: string }) {
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

/**
 * The Columns menu: a checkbox per column showing whether it is on screen now (fitted or chosen); a change is the
 * user's choice for that column, remembered; 'Fit to width' forgets every choice. `note` says what it cannot change.
 */
export function ColumnMenu({
  menuId,
  columns,
  note,
  tableRef,
  overrides,
  onChange,
}: {
  menuId: string
  columns: { id: string; label: string }[]
  note: string
  tableRef: RefObject<HTMLTableElement | null>
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
          <p className="px-2 pb-1 text-xs text-base-content/70">{note}</p>
          <ul>
            {columns.map((c) => (
              <li key={c.id}>
                <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 hover:bg-base-200">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-xs"
                    name={c.id}
                    checked={shown[c.id] ?? false}
                    onChange={(e) => {
                      // The box follows the tap at once; the measure after the table's re-render confirms it. Waiting
                      // for that measure alone left the box unchanged for a moment (React puts a controlled box back).
                      const on = e.target.checked
                      setShown((s) => ({ ...s, [c.id]: on }))
                      onChange({ ...overrides, [c.id]: on })
                    }}
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
