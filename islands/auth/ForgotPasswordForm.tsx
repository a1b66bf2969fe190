import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../shared/api'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { AuthForm, EmailField } from './AuthForm'

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
    <AuthForm
      onSubmit={submit}
      error={formError}
      busy={submitting}
      submit={{ label: 'Send Reset Link', busyLabel: 'Sending...' }}
      footer={{ question: 'Remember your password?', href: '/login', link: 'Sign in' }}
    >
      <EmailField
        id="forgot-email"
        value={email}
        error={errors.email}
        onChange={(value) => {
          setEmail(value)
          setErrors({})
        }}
      />
    </AuthForm>
  )
}
