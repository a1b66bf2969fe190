import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../shared/api'
import { CodeField } from './CodeField'

type Props = {
  /** The password step's challenge, for POST /api/auth/login/second-factor. */
  challenge: string
  redirectTo: string
  /** Back to the password: a new challenge comes with it. */
  onRestart: () => void
}

const TEXT = {
  heading: 'Two-factor sign-in',
  app: 'Open the authenticator app on your phone and enter the code it shows for Brokernet.',
  recovery: 'Lost your phone? Enter one of the recovery codes you saved when you set up two-factor sign-in.',
  required: { app: 'Please enter the 6-digit code', recovery: 'Please enter a recovery code' },
  useRecovery: 'Use a recovery code',
  useApp: 'Use a code from the app',
} as const

/** Sign-in's second step (issue 29): a code of the authenticator app, or a recovery code; then on to the page asked for. */
export function SecondFactorStep({ challenge, redirectTo, onRestart }: Props) {
  const [kind, setKind] = useState<'app' | 'recovery'>('app')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [formError, setFormError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    if (!code.trim()) return setError(TEXT.required[kind])
    setSubmitting(true)
    try {
      // Never retried: a code sent twice would be refused the second time as used.
      await api('/api/auth/login/second-factor', { method: 'POST', json: { challenge, code: code.trim() }, retries: 0 })
      window.location.assign(redirectTo)
    } catch (err) {
      setFormError(err instanceof ApiError ? err.message : 'An unexpected error occurred. Please try again.')
      setSubmitting(false)
    }
  }

  const switchKind = () => {
    setKind((k) => (k === 'app' ? 'recovery' : 'app'))
    setCode('')
    setError(undefined)
    setFormError(null)
  }

  return (
    <form className="space-y-4" noValidate onSubmit={submit} data-second-factor-step>
      <h2 className="text-lg font-semibold">{TEXT.heading}</h2>
      <p className="text-sm text-base-content/80">{TEXT[kind]}</p>
      {formError && (
        <div role="alert" className="alert alert-error text-sm">
          {formError}
        </div>
      )}
      <CodeField
        id={`second-factor-${kind}`}
        kind={kind}
        value={code}
        onChange={(v) => {
          setCode(v)
          setError(undefined)
        }}
        error={error}
      />
      <button type="submit" className="btn btn-primary min-h-11 w-full" disabled={submitting}>
        {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {submitting ? 'Verifying...' : 'Verify'}
      </button>
      <div className="flex flex-wrap justify-between gap-2">
        <button type="button" className="btn btn-ghost btn-sm min-h-11" onClick={switchKind}>
          {kind === 'app' ? TEXT.useRecovery : TEXT.useApp}
        </button>
        <button type="button" className="btn btn-ghost btn-sm min-h-11" onClick={onRestart}>
          Back to sign in
        </button>
      </div>
    </form>
  )
}
