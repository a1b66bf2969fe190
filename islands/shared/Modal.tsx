import { useEffect, useRef, type ReactNode } from 'react'

const SIZES = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-3xl', xl: 'max-w-5xl' } as const

type Props = { open: boolean; title: string; size?: keyof typeof SIZES; onClose: () => void; children: ReactNode }

/** The app's modal (SPEC "Shell"): sizes sm to xl, closes on Escape or a click on the backdrop. Native <dialog>, so focus is trapped. */
export function Modal({ open, title, size = 'md', onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="modal" onClose={onClose} onCancel={(e) => (e.preventDefault(), onClose())} aria-labelledby="modal-title">
      <div className={`modal-box ${SIZES[size]}`}>
        <div className="mb-4 flex items-start justify-between gap-4">
          <h3 id="modal-title" className="text-lg font-bold">
            {title}
          </h3>
          <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        {open && children}
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
