import { useEffect, useId, useRef, type ReactNode } from 'react'

/** From a phone's width up (640 px), the box is as wide as its size allows; below it, see PHONE. */
const SIZES = { sm: 'max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-3xl', xl: 'sm:max-w-5xl' } as const

/**
 * On a phone (under 640 px) a dialog of size md, lg or xl takes the whole screen; a small one (a confirmation) stays
 * a box in the middle, which it fits.
 */
const PHONE = 'max-sm:h-dvh max-sm:max-h-dvh max-sm:w-full max-sm:max-w-none max-sm:rounded-none max-sm:shadow-none'

/**
 * The action bar: every dialog puts its buttons in a `.modal-action` (FormActions, ConfirmDialog, the details'
 * actions), which sticks to the bottom of the box while the content scrolls under it, across the box's width.
 */
const ACTION_BAR = [
  '[&_.modal-action]:sticky [&_.modal-action]:bottom-0 [&_.modal-action]:z-10 [&_.modal-action]:mt-5 [&_.modal-action]:flex-wrap',
  '[&_.modal-action]:-mx-4 [&_.modal-action]:-mb-4 [&_.modal-action]:px-4 [&_.modal-action]:py-3',
  'sm:[&_.modal-action]:-mx-6 sm:[&_.modal-action]:px-6',
  '[&_.modal-action]:border-t [&_.modal-action]:border-base-300 [&_.modal-action]:bg-base-100',
].join(' ')

type Props = { open: boolean; title: string; size?: keyof typeof SIZES; onClose: () => void; children: ReactNode }

/**
 * The app's modal (SPEC "Shell"): sizes sm to xl, closes on Escape or a click on the backdrop. Native <dialog>, so
 * focus is trapped. The title and the close button stay at the top and the actions at the bottom while the content
 * scrolls between them; on a phone the dialog is the whole screen (except `sm`).
 */
export function Modal({ open, title, size = 'md', onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = `modal-title-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="modal" onClose={onClose} onCancel={(e) => (e.preventDefault(), onClose())} aria-labelledby={titleId}>
      <div className={`modal-box p-0 sm:max-h-[calc(100dvh-3rem)] ${SIZES[size]} ${size === 'sm' ? '' : PHONE}`} data-modal-size={size}>
        <div className="sticky top-0 z-20 flex items-start justify-between gap-3 border-b border-base-300 bg-base-100 px-4 py-3 sm:px-6 sm:py-4" data-modal-header>
          <h3 id={titleId} className="min-w-0 text-lg font-bold break-words">
            {title}
          </h3>
          <button type="button" className="btn btn-ghost btn-sm btn-square -mr-2 shrink-0" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        <div className={`min-w-0 px-4 pt-4 pb-4 sm:px-6 sm:pt-5 ${ACTION_BAR}`} data-modal-body>
          {open && children}
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="button" aria-label="Close dialog" onClick={onClose}>
          close
        </button>
      </form>
    </dialog>
  )
}

type ConfirmProps = {
  open: boolean
  title: string
  message: ReactNode
  confirmLabel: string
  tone?: 'error' | 'info' | 'primary'
  busy?: boolean
  error?: string | null
  onConfirm: () => void
  onClose: () => void
}

export function ConfirmDialog({ open, title, message, confirmLabel, tone = 'primary', busy, error, onConfirm, onClose }: ConfirmProps) {
  return (
    <Modal open={open} title={title} size="sm" onClose={onClose}>
      <p>{message}</p>
      {error && (
        <div role="alert" className="alert alert-error mt-4 text-sm">
          {error}
        </div>
      )}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="button" className={`btn btn-${tone}`} onClick={onConfirm} disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </div>
    </Modal>
  )
}
