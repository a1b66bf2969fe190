import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ACCOUNT_MESSAGES as M, ID_CARD_ACCEPT, REGISTRATION_ERRORS } from '../../src/shared/account-rules'
import { LIMITS } from '../../src/shared/constants'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { api, ApiError } from '../shared/api'
import { FileDrop } from '../shared/FileDrop'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { PASSWORD_HINT, PasswordField } from './PasswordField'

type Props = {
  /** The registration body's schema: the same rules and messages the server applies. */
  rules: ObjectSchema
  /** Countries known when the page was rendered, so the first view needs no request. */
  countries: GeoOption[]
}

type Registered = { id: number; email: string; full_name: string; registration_status: 'PENDING'; message: string }
type ValidationDetail = { loc: (string | number)[]; msg: string }[]

const TEXT_FIELDS = ['full_name', 'email', 'phone', 'id_card_number', 'password', 'confirm_password'] as const
type TextName = (typeof TEXT_FIELDS)[number]
const KNOWN_FIELDS = new Set<string>([...TEXT_FIELDS, 'country_id', 'state_id', 'city_id', 'id_card_file'])
const UNEXPECTED = 'An unexpected error occurred. Please check your internet connection and try again.'

function TextField(props: {
  id: TextName
  label: string
  type?: string
  autoComplete?: string
  placeholder?: string
  value: string
  error?: string
  onChange: (value: string) => void
}) {
  const { id, label, type = 'text', autoComplete, placeholder, value, error, onChange } = props
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text block font-medium">
        {label}
      </label>
      <input
        id={id}
        name={id}
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
        className={`input input-bordered mt-1 w-full ${error ? 'input-error' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <span id={`${id}-error`} className="mt-1 block text-sm text-error">
          {error}
        </span>
      )}
    </div>
  )
}

/** The server's refusal as the form shows it: field messages under their fields, known texts as SPEC's sentences. */
function describeFailure(err: unknown): { fields: FieldErrors; message: string | null } {
  if (!(err instanceof ApiError)) return { fields: {}, message: UNEXPECTED }
  const detail = (err.body as { detail?: unknown } | null)?.detail
  if (Array.isArray(detail)) {
    const fields: FieldErrors = {}
    const other: string[] = []
    for (const d of detail as ValidationDetail) {
      const field = String(d.loc?.at(-1) ?? '')
      if (KNOWN_FIELDS.has(field) && !fields[field]) fields[field] = d.msg
      else if (!KNOWN_FIELDS.has(field)) other.push(d.msg)
    }
    return { fields, message: other.length ? other.join('; ') : null }
  }
  return { fields: {}, message: (typeof detail === 'string' && REGISTRATION_ERRORS[detail]) || err.message }
}

/** Broker registration (SPEC "/register"): validated with the server's rules, sent as multipart, then a pending-approval screen. */
export default function RegisterForm({ rules, countries }: Props) {
  const [values, setValues] = useState<Record<TextName, string>>({
    full_name: '',
    email: '',
    phone: '',
    id_card_number: '',
    password: '',
    confirm_password: '',
  })
  const [geo, setGeo] = useState<GeoValue>({ country_id: null, state_id: null, city_id: null })
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [registered, setRegistered] = useState<Registered | null>(null)
  const form = useRef<HTMLFormElement>(null)
  const [attempt, setAttempt] = useState(0)

  // After a refused submit, take the user to the first field that needs attention.
  useEffect(() => {
    if (attempt) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [attempt])

  const clear = (...names: string[]) =>
    setErrors((errs) => Object.fromEntries(Object.entries(errs).filter(([k]) => !names.includes(k))))
  const update = (name: TextName) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }))
    clear(name)
  }
  function changeGeo(next: GeoValue) {
    clear(...(['country_id', 'state_id', 'city_id'] as const).filter((k) => next[k] !== geo[k]))
    setGeo(next)
  }
  function changeFile(next: File | null) {
    clear('id_card_file')
    setFile(next)
  }

  function validate(): FieldErrors {
    const found = checkForm(rules, { ...values, city_id: geo.city_id ?? undefined })
    if (values.confirm_password !== values.password) found.confirm_password = M.confirmMismatch
    if (!geo.country_id) found.country_id = M.country
    if (!geo.state_id) found.state_id = M.state
    return found
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) return setAttempt((n) => n + 1)
    const body = new FormData()
    body.append('email', values.email)
    body.append('password', values.password)
    body.append('full_name', values.full_name)
    if (values.phone) body.append('phone', values.phone)
    if (values.id_card_number) body.append('id_card_number', values.id_card_number)
    body.append('city_id', String(geo.city_id))
    if (file && file.size > 0) body.append('id_card_file', file)
    setSubmitting(true)
    try {
      setRegistered(await api<Registered>('/api/auth/register', { method: 'POST', form: body, retries: 0 }))
    } catch (err) {
      const failure = describeFailure(err)
      setErrors(failure.fields)
      setFormError(failure.message)
      if (Object.keys(failure.fields).length > 0) setAttempt((n) => n + 1)
    } finally {
      setSubmitting(false)
    }
  }

  if (registered) {
    return (
      <div className="space-y-4 text-center" role="status">
        <h2 className="text-2xl font-bold text-success">Registration Submitted Successfully!</h2>
        <p className="text-base-content/80">
          Thank you, {registered.full_name}. Your registration is <strong>pending admin approval</strong>.
        </p>
        <p className="text-base-content/80">
          Approval typically takes 1-2 business days. You will receive an email at <strong className="break-all">{registered.email}</strong> once
          your account is approved; you can sign in after that.
        </p>
        <div className="flex flex-col justify-center gap-2 sm:flex-row">
          <a className="btn btn-primary" href="/login">
            Go to Login
          </a>
          <a className="btn btn-ghost" href="/">
            Back to Home
          </a>
        </div>
      </div>
    )
  }

  const field = (id: TextName, label: string, extra: { type?: string; autoComplete?: string; placeholder?: string } = {}) => (
    <TextField id={id} label={label} value={values[id]} error={errors[id]} onChange={update(id)} {...extra} />
  )

  return (
    <form ref={form} className="space-y-4" noValidate onSubmit={submit}>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('full_name', 'Full Name', { autoComplete: 'name', placeholder: 'Jane Doe' })}
        {field('email', 'Email', { type: 'email', autoComplete: 'email', placeholder: 'you@example.com' })}
        {field('phone', 'Phone (optional)', { type: 'tel', autoComplete: 'tel', placeholder: '+91 98765 43210' })}
        {field('id_card_number', 'ID Card Number (optional)', { autoComplete: 'off' })}
        <PasswordField id="password" label="Password" value={values.password} onChange={update('password')} error={errors.password} hint={PASSWORD_HINT} />
        <PasswordField id="confirm_password" label="Confirm Password" value={values.confirm_password} onChange={update('confirm_password')} error={errors.confirm_password} />
      </div>
      <GeoSelect
        idPrefix="register"
        value={geo}
        onChange={changeGeo}
        initial={{ countries }}
        errors={{ country_id: errors.country_id, state_id: errors.state_id, city_id: errors.city_id }}
      />
      <FileDrop
        id="id_card_file"
        label="ID Card Document (optional)"
        value={file}
        onChange={changeFile}
        accept={ID_CARD_ACCEPT}
        maxBytes={LIMITS.registrationFileBytes}
        messages={{ type: M.fileType, size: M.fileSize }}
        hint="JPG, PNG or PDF, up to 5MB"
        error={errors.id_card_file}
      />
      {formError && (
        <div role="alert" className="alert alert-error text-sm">
          {formError}
        </div>
      )}
      <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
        {submitting && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {submitting ? 'Submitting...' : 'Create Account'}
      </button>
      <p className="text-center text-sm">
        Already have an account?{' '}
        <a className="link link-primary" href="/login">
          Sign in
        </a>
      </p>
    </form>
  )
}
