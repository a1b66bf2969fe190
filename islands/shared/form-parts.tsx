import type { ReactNode } from 'react'

/** A labelled form field with its error under it (the input names `${id}-error` in aria-describedby). */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text mb-1 block font-medium">
        {label}
      </label>
      {children}
      {error && (
        <span id={`${id}-error`} className="mt-1 block text-sm text-error">
          {error}
        </span>
      )}
    </div>
  )
}

/** A dialog form's Cancel and submit buttons; both wait while the form is being sent. */
export function FormActions({ busy, onCancel, children }: { busy: boolean; onCancel: () => void; children: ReactNode }) {
  return (
    <div className="modal-action">
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {children}
      </button>
    </div>
  )
}
