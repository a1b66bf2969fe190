import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../shared/api'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'

type Props = {
  /** The forgot-password body's schema: the same email rule the server applies. */
  rules: ObjectSchema
}

/**
 * Asks for a reset link. The server answers the same whether or not the account exists, so the confirmation says
 * "if an account exists".
 */
export default function ForgotPasswordForm({ rules }: Props) {
  const [email, setEmail] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    const found = checkForm(rules, { email })
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSubmitting(true)
    try {
      await api('/api/auth/password/forgot', { method: 'POST', json: { email }, retries: 0 })
      setSentTo(email)
    } catch (err) {
      setFormError(err instanceof ApiError ? err.message : 'An unexpected error occurred. Please try again.')
    } finally {
      setSubmitting(false)
    }
  }

  function tryAgain() {
    setEmail('')
    setErrors({})
    setSentTo(null)
  }

  if (sentTo !== null) {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-xl font-bold">Check your email</h2>
        <p className="text-base-content/80">
          If an account exists for <strong className="break-all">{sentTo}</strong>, we have sent a link to reset your password. The link is valid for
          one hour.
        </p>
        <p className="text-sm text-base-content/60">No email? Check your spam folder, or try another address.</p>
        <div className="flex flex-col gap-2">
          <a className="btn btn-primary" href="/login">
            Back to Login
          </a>
          <button type="button" className="btn btn-ghost" onClick={tryAgain}>
            Try a different email
          </button>
        </div>
      </div>
    )
  }

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      {formError && (
        <div role="alert" className="alert alert-error text-sm">
          {formError}
        </div>
      )}
      <label className="form-control block">
        <span className="label-text font-medium">Email</span>
        <input
          type="email"
          name="email"
          autoComplete="email"
          className={`input input-bordered w-full mt-1 ${errors.email ? 'input-error' : ''}`}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            setErrors({})
          }}
          aria-invalid={!!errors.email}
          placeholder="you@example.com"
        />
        {errors.email && <span className="text-error text-sm mt-1 block">{errors.email}</span>}
      </label>
      <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
        {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {submitting ? 'Sending...' : 'Send Reset Link'}
      </button>
      <p className="text-center text-sm">
        Remember your password?{' '}
        <a className="link link-primary" href="/login">
          Sign in
        </a>
      </p>
    </form>
  )
}
