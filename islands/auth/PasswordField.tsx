import { useState } from 'react'

type PasswordFieldProps = {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  autoComplete?: string
  hint?: string
}

/** A password input with its Show/Hide toggle; shared by sign-in, registration and reset. */
export function PasswordField({ id, label, value, onChange, error, autoComplete = 'new-password', hint }: PasswordFieldProps) {
  const [show, setShow] = useState(false)
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text block font-medium">
        {label}
      </label>
      <div className="join mt-1 w-full">
        <input
          id={id}
          name={id}
          type={show ? 'text' : 'password'}
          autoComplete={autoComplete}
          className={`input input-bordered join-item w-full ${error ? 'input-error' : ''}`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={!!error}
          aria-describedby={described}
        />
        <button
          type="button"
          className="btn join-item"
          onClick={() => setShow((s) => !s)}
          aria-label={`${show ? 'Hide' : 'Show'} ${label.toLowerCase()}`}
          aria-pressed={show}
        >
          {show ? 'Hide' : 'Show'}
        </button>
      </div>
      {hint && !error && (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-base-content/60">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="mt-1 block text-sm text-error">
          {error}
        </span>
      )}
    </div>
  )
}

export const PASSWORD_HINT = 'At least 8 characters, with an uppercase letter, a lowercase letter, a number and a special character.'
