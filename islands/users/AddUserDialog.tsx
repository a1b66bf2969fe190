import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { User } from '../../src/modules/users/model'
import { ID_CARD_ACCEPT } from '../../src/shared/account-rules'
import { LIMITS } from '../../src/shared/constants'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { api, ApiError } from '../shared/api'
import { FileDrop } from '../shared/FileDrop'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { Modal } from '../shared/Modal'
import { CREATE_FAILED, KIND_TEXT, managesEveryCity, type Actor, type ManagedRole } from './user-format'
import { Field, FormActions } from '../shared/form-parts'

type Props = {
  open: boolean
  kind: ManagedRole
  actor: Actor
  countries: GeoOption[]
  rules: ObjectSchema
  onClose: () => void
  onCreated: (user: User) => void
}

/** The admin's upload limit (10 MB, JPEG, PNG or PDF): checked here too, so nobody uploads 50 MB to be told no. */
export const FILE_MESSAGES = { type: 'Please upload a JPG, PNG or PDF file', size: 'File size must be less than 10MB' }

/** SPEC "Add Broker / Add Module Admin dialog". The form lives only while the dialog is open, so it starts empty each time. */
export function AddUserDialog({ open, kind, onClose, ...rest }: Props) {
  return (
    <Modal open={open} title={`Add ${KIND_TEXT[kind].title}`} size="lg" onClose={onClose}>
      <AddUserForm kind={kind} onClose={onClose} {...rest} />
    </Modal>
  )
}

const TEXT = ['email', 'password', 'full_name', 'phone', 'id_card_number'] as const
type TextName = (typeof TEXT)[number]
const GEO_FIELDS = ['country_id', 'state_id', 'city_id'] as const

/** Field messages of a 422 list, by the last part of each location; anything else is one banner text. */
export function describeUserError(err: unknown, fallback: string): { fields: FieldErrors; banner: string | null } {
  const detail = err instanceof ApiError ? (err.body as { detail?: unknown } | null)?.detail : undefined
  if (Array.isArray(detail)) {
    const fields: FieldErrors = {}
    for (const d of detail as { loc?: (string | number)[]; msg?: string }[]) {
      const field = String(d.loc?.at(-1) ?? '')
      if (field && d.msg && !fields[field]) fields[field] = d.msg
    }
    if (Object.keys(fields).length) return { fields, banner: null }
  }
  return { fields: {}, banner: typeof detail === 'string' && detail ? detail : fallback }
}

function AddUserForm({ kind, actor, countries, rules, onClose, onCreated }: Omit<Props, 'open'>) {
  const master = managesEveryCity(actor)
  const [values, setValues] = useState<Record<TextName, string>>({ email: '', password: '', full_name: '', phone: '', id_card_number: '' })
  const [geo, setGeo] = useState<GeoValue>({ country_id: null, state_id: null, city_id: master ? null : actor.city_id })
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)

  const create = useMutation({
    mutationFn: (body: FormData) => api<User>('/api/users', { method: 'POST', form: body, retries: 0 }),
    // A create is not repeated on a server error: the first attempt may have been stored.
    retry: false,
    onSuccess: onCreated,
    onError: (err) => {
      const { fields, banner } = describeUserError(err, CREATE_FAILED)
      setErrors(fields)
      setBanner(banner)
    },
  })

  const clear = (...names: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k))))
  const update = (name: TextName) => (value: string) => (setValues((v) => ({ ...v, [name]: value })), clear(name))
  const changeGeo = (next: GeoValue) => (clear(...GEO_FIELDS.filter((k) => next[k] !== geo[k])), setGeo(next))

  function validate(): FieldErrors {
    const found = checkForm(rules, { ...values, id_card_number: values.id_card_number.trim() || undefined, role: kind, city_id: geo.city_id ?? undefined })
    if (master && !geo.country_id) found.country_id = 'Country is required'
    if (master && !geo.state_id) found.state_id = 'State is required'
    return found
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length) return
    const body = new FormData()
    for (const name of ['email', 'password', 'full_name', 'phone'] as const) body.append(name, values[name])
    body.append('role', kind)
    if (values.id_card_number.trim()) body.append('id_card_number', values.id_card_number.trim())
    body.append('city_id', String(geo.city_id))
    if (file && file.size > 0) body.append('id_card_document', file)
    create.mutate(body)
  }

  const field = (name: TextName, label: string, type = 'text', autoComplete = 'off') => (
    <Field id={`add-user-${name}`} label={label} error={errors[name]}>
      <input
        id={`add-user-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
        value={values[name]}
        aria-invalid={!!errors[name]}
        onChange={(e) => update(name)(e.target.value)}
      />
    </Field>
  )

  const busy = create.isPending
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {field('full_name', 'Full Name', 'text', 'name')}
        {field('email', 'Email', 'email')}
        {field('phone', 'Phone', 'tel')}
        {field('password', 'Password', 'password', 'new-password')}
        {field('id_card_number', 'ID Card Number (optional)')}
      </div>
      {master ? (
        <GeoSelect
          idPrefix="add-user"
          value={geo}
          onChange={changeGeo}
          initial={{ countries }}
          errors={{ country_id: errors.country_id, state_id: errors.state_id, city_id: errors.city_id }}
        />
      ) : (
        <Field id="add-user-city" label="City" error={errors.city_id}>
          <input
            id="add-user-city"
            className="input input-bordered w-full"
            readOnly
            value={[actor.city_name, actor.state_name].filter(Boolean).join(', ') || 'No city assigned'}
          />
          <span className="mt-1 block text-xs text-base-content/60">New {KIND_TEXT[kind].many} join your city.</span>
        </Field>
      )}
      <FileDrop
        id="add-user-id_card_document"
        name="id_card_document"
        label="ID Card Document (optional)"
        value={file}
        onChange={(f) => (clear('id_card_document'), setFile(f))}
        accept={ID_CARD_ACCEPT}
        maxBytes={LIMITS.adminUploadFileBytes}
        messages={FILE_MESSAGES}
        hint="JPG, PNG, PDF, max 10MB"
        error={errors.id_card_document}
      />
      <FormActions busy={busy} onCancel={onClose}>
        Create {KIND_TEXT[kind].title}
      </FormActions>
    </form>
  )
}

