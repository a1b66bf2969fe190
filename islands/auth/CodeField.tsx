type CodeFieldProps = {
  id: string
  /** A code of the authenticator app (six digits), or a recovery code (`abcd-efgh-ijkl-mnop`). */
  kind: 'app' | 'recovery'
  value: string
  onChange: (value: string) => void
  error?: string
}

const LABELS = {
  app: { label: 'Authentication code', hint: 'The 6-digit code your authenticator app shows for Brokernet.' },
  recovery: { label: 'Recovery code', hint: 'One of the recovery codes you saved when you set up two-factor sign-in. Each works once.' },
} as const

/**
 * The code of a second factor (issue 29): digits on a phone's number pad and filled in from the phone's one-time
 * code suggestions; a recovery code as plain text. Shared by sign-in and the Security page.
 */
export function CodeField({ id, kind, value, onChange, error }: CodeFieldProps) {
  const { label, hint } = LABELS[kind]
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text block font-medium">
        {label}
      </label>
      <input
        id={id}
        name="code"
        type="text"
        {...(kind === 'app' ? { inputMode: 'numeric' as const, autoComplete: 'one-time-code', pattern: '[0-9 ]*', maxLength: 7 } : { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, maxLength: 64 })}
        className={`input input-bordered mt-1 h-12 w-full font-mono text-lg tracking-widest ${error ? 'input-error' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        placeholder={kind === 'app' ? '123456' : 'abcd-efgh-ijkl-mnop'}
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
