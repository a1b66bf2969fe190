import { useState, type FormEvent } from 'react'
import { ACCOUNT_MESSAGES as M } from '../../src/shared/account-rules'
import { api, ApiError } from '../shared/api'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { AuthForm } from './AuthForm'
import { PASSWORD_HINT, PasswordField } from './PasswordField'

type Props = {
  /** The token from the emailed link (the page sends a visitor without one to /forgot-password). */
  token: string
  /** The reset body's schema: the password rules the server applies, in order. */
  rules: ObjectSchema
}

/** New password from an emailed link: the registration password rules, a matching confirmation, then a sign-in link. */
export default function ResetPasswordForm({ token, rules }: Props) {
  const [values, setValues] = useState({ password: '', confirm_password: '' })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<{ message: string; linkExpired: boolean } | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [done, setDone] = useState(false)

  const update = (name: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors(({ [name]: _, ...rest }) => rest)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    const found = checkForm(rules, { token, ...values })
    if (values.confirm_password && values.confirm_password !== values.password) found.confirm_password = M.confirmMismatch
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSubmitting(true)
    try {
      await api('/api/auth/password/reset', { method: 'POST', json: { token, ...values }, retries: 0 })
      setDone(true)
    } catch (err) {
      setFormError(
        err instanceof ApiError
          ? { message: err.message, linkExpired: err.status === 400 }
          : { message: 'An unexpected error occurred. Please try again.', linkExpired: false },
      )
    } finally {
      setSubmitting(false)
    }
  }

  if (done) {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-xl font-bold text-success">Password Reset Successful!</h2>
        <p className="text-base-content/80">Your password has been changed. You can now sign in with your new password.</p>
        <a className="btn btn-primary w-full" href="/login">
          Sign in
        </a>
      </div>
    )
  }

  return (
    <AuthForm
      onSubmit={submit}
      error={
        formError && (
          <div>
            <p>{formError.message}</p>
            {formError.linkExpired && (
              <a className="link mt-1 inline-block font-medium" href="/forgot-password">
                Request a new link
              </a>
            )}
          </div>
        )
      }
      busy={submitting}
      submit={{ label: 'Reset Password', busyLabel: 'Resetting...' }}
      footer={{ href: '/login', link: 'Back to Login' }}
    >
      {errors.token && (
        <div role="alert" className="alert alert-error text-sm">
          {errors.token}
        </div>
      )}
      <PasswordField id="password" label="New Password" value={values.password} onChange={update('password')} error={errors.password} hint={PASSWORD_HINT} />
      <PasswordField id="confirm_password" label="Confirm New Password" value={values.confirm_password} onChange={update('confirm_password')} error={errors.confirm_password} />
    </AuthForm>
  )
}
