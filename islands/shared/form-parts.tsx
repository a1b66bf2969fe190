import type { FormEvent, ReactNode } from 'react'

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

type DialogFormProps = {
  onSubmit: (e: FormEvent) => void
  busy: boolean
  onCancel: () => void
  /** The submit button's words. */
  submit: ReactNode
  /** What the dialog asks, above the refusal and the fields. */
  intro?: ReactNode
  /** The server's refusal of the last try: it stays in the dialog, above the fields, until the next. */
  error?: string | null
  children: ReactNode
} & Record<`data-${string}`, string | undefined>

/**
 * A dialog's form, inside the app's Modal: what it asks, the server's refusal (`data-form-error`), the fields, and
 * Cancel and submit at the bottom (FormActions, in the Modal's action bar). Browsers' own checks are off: the form's
 * rules and the server's speak in the app's words.
 */
export function DialogForm({ onSubmit, busy, onCancel, submit, intro, error, children, ...data }: DialogFormProps) {
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" {...data}>
      {intro}
      {error && (
        <div role="alert" className="alert alert-error text-sm" data-form-error>
          {error}
        </div>
      )}
      {children}
      <FormActions busy={busy} onCancel={onCancel}>
        {submit}
      </FormActions>
    </form>
  )
}

type TextAreaFieldProps = { id: string; name: string; label: string; value: string; error?: string; rows: number; maxLength: number; placeholder?: string; onChange: (v: string) => void }

/** A labelled text area with its error under it (Field), marked invalid and described by the error when there is one. */
export function TextAreaField({ id, name, label, value, error, rows, maxLength, placeholder, onChange }: TextAreaFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        placeholder={placeholder}
        className={`textarea textarea-bordered w-full ${error ? 'textarea-error' : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  )
}

type WholeNumberInputProps = { id: string; name: string; label: string; value: string; error?: string; min: number; max: number; hint: string; onChange: (v: string) => void }

/** A whole-number input with its label, and under it its error or else a hint (a city's settings: tolerance, expiry). */
export function WholeNumberInput({ id, name, label, value, error, min, max, hint, onChange }: WholeNumberInputProps) {
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text mb-1 block font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        className={`input input-bordered w-28 ${error ? 'input-error' : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <span id={`${id}-error`} className="mt-1 block text-sm text-error">
          {error}
        </span>
      ) : (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-base-content/70">
          {hint}
        </span>
      )}
    </div>
  )
}

type SettingFormProps = { name: string; title: string; now: string; busy: boolean; alert?: string | null; onSubmit: (e: React.FormEvent) => void; children: ReactNode }

/**
 * A card holding one setting's form (a city's match tolerance, its listing expiry): the title, what holds now, an alert,
 * the inputs and Save. `name` marks it: `data-{name}` on the card, `data-{name}-now` on what holds now.
 */
export function SettingForm({ name, title, now, busy, alert, onSubmit, children }: SettingFormProps) {
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={`${name}-title`} {...{ [`data-${name}`]: '' }}>
      <form noValidate onSubmit={onSubmit} className="card-body gap-3 p-4">
        <h2 id={`${name}-title`} className="font-semibold">
          {title}
        </h2>
        <p className="text-sm text-base-content/70" {...{ [`data-${name}-now`]: '' }}>
          {now}
        </p>
        {alert && (
          <p role="alert" className="text-sm text-error">
            {alert}
          </p>
        )}
        <div className="flex flex-wrap items-start gap-3">
          {children}
          <button type="submit" className="btn btn-primary btn-sm mt-7" disabled={busy}>
            {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Save
          </button>
        </div>
      </form>
    </section>
  )
}
