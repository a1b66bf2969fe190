import type { FormEvent, ReactNode } from 'react'

type Props = {
  onSubmit: (e: FormEvent) => void
  /** The server's refusal (or a failed request), shown above the fields as sent. */
  error: ReactNode | null
  busy: boolean
  /** The submit button's text, and its text while the form is being sent. */
  submit: { label: string; busyLabel: string }
  /** The line under the button: a question and the page it leads to ("Don't have an account? Register"). */
  footer: { question?: string; href: string; link: string }
  /** The fields. */
  children: ReactNode
}

/**
 * What the sign-in, forgot-password and reset-password forms share: the error alert, the full-width submit button
 * with its spinner, and the link to the next page under it. Each form brings its fields and what sending does.
 */
export function AuthForm({ onSubmit, error, busy, submit, footer, children }: Props) {
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      {error && (
        <div role="alert" className="alert alert-error text-sm">
          {error}
        </div>
      )}
      {children}
      <button type="submit" className="btn btn-primary w-full" disabled={busy}>
        {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {busy ? submit.busyLabel : submit.label}
      </button>
      <p className="text-center text-sm">
        {footer.question && `${footer.question} `}
        <a className="link link-primary" href={footer.href}>
          {footer.link}
        </a>
      </p>
    </form>
  )
}

/** The email field of the sign-in and forgot-password forms, with the server's message for it under it. */
export function EmailField({ id, value, error, onChange }: { id: string; value: string; error?: string; onChange: (value: string) => void }) {
  return (
    <div className="form-control block">
      <label htmlFor={id} className="label-text font-medium">
        Email
      </label>
      <input
        id={id}
        type="email"
        name="email"
        autoComplete="email"
        className={`input input-bordered w-full mt-1 ${error ? 'input-error' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        placeholder="you@example.com"
      />
      {error && <span className="text-error text-sm mt-1 block">{error}</span>}
    </div>
  )
}
