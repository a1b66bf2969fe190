import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../shared/api'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { AuthForm, EmailField } from './AuthForm'
import { PasswordField } from './PasswordField'
import { SecondFactorStep } from './SecondFactorStep'

/** POST /api/auth/login's answers: signed in (possibly to set up two-factor sign-in first), or asked for a code. */
type LoginAnswer = { second_factor_required: true; challenge: string } | { second_factor_required?: undefined; second_factor_setup: boolean }

/** Where an admin who must set up two-factor sign-in goes first (issue 29). */
const SECURITY_PAGE = '/dashboard/security'

type Props = {
  /** The login body's schema: the same rules the server applies. */
  rules: ObjectSchema
  /** Same-site path to go to after signing in (already checked by the server). */
  redirectTo: string
}

/** Sign-in form: client-side checks with the server's messages, show/hide password, server errors shown as sent. */
export default function LoginForm({ rules, redirectTo }: Props) {
  const [values, setValues] = useState({ email: '', password: '' })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [challenge, setChallenge] = useState<string | null>(null)

  const update = (name: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors(({ [name]: _, ...rest }) => rest)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    const found = checkForm(rules, values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSubmitting(true)
    try {
      const answer = await api<LoginAnswer>('/api/auth/login', { method: 'POST', json: values, retries: 0 })
      if (answer.second_factor_required) {
        setChallenge(answer.challenge)
        setSubmitting(false)
        return
      }
      window.location.assign(answer.second_factor_setup ? SECURITY_PAGE : redirectTo)
    } catch (err) {
      setFormError(err instanceof ApiError ? err.message : 'An unexpected error occurred. Please try again.')
      setSubmitting(false)
    }
  }

  if (challenge)
    return (
      <SecondFactorStep
        challenge={challenge}
        redirectTo={redirectTo}
        onRestart={() => {
          setChallenge(null)
          setValues((v) => ({ ...v, password: '' }))
        }}
      />
    )

  return (
    <AuthForm
      onSubmit={submit}
      error={formError}
      busy={submitting}
      submit={{ label: 'Sign in', busyLabel: 'Signing in...' }}
      footer={{ question: "Don't have an account?", href: '/register', link: 'Register' }}
    >
      <EmailField id="login-email" value={values.email} error={errors.email} onChange={update('email')} />
      <PasswordField
        id="password"
        label="Password"
        autoComplete="current-password"
        value={values.password}
        onChange={update('password')}
        error={errors.password}
      />
      <div className="flex justify-end text-sm">
        <a className="link link-primary" href="/forgot-password">
          Forgot your password?
        </a>
      </div>
    </AuthForm>
  )
}
