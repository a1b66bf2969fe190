import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { UpdateUserBody, User } from '../../src/modules/users/model'
import { ID_CARD_ACCEPT } from '../../src/shared/account-rules'
import { LIMITS } from '../../src/shared/constants'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { api, ApiError } from '../shared/api'
import { FileDrop } from '../shared/FileDrop'
import { Field, FormActions } from '../shared/form-parts'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { CREATE_FAILED, KIND_TEXT, managesEveryCity, UPDATE_FAILED, type Actor, type ManagedRole } from './user-format'

/** Which dialog is open: Add (SPEC "Add Broker / Add Module Admin dialog") or Edit of one person. */
export type UserDialogMode = { mode: 'add' } | { mode: 'edit'; user: User }

type Props = {
  /** null: closed. */
  open: UserDialogMode | null
  kind: ManagedRole
  actor: Actor
  countries: GeoOption[]
  /** The create and update bodies' schemas: the same rules the server applies. */
  rules: { create: ObjectSchema; update: ObjectSchema }
  onClose: () => void
  /** The user as stored, and whether they were added or edited. */
  onDone: (user: User, mode: UserDialogMode['mode']) => void
}

/** The admin's upload limit (10 MB, JPEG, PNG or PDF): checked here too, so nobody uploads 50 MB to be told no. */
export const FILE_MESSAGES = { type: 'Please upload a JPG, PNG or PDF file', size: 'File size must be less than 10MB' }

/**
 * Add a broker or module admin, or edit one: the same form, the Add mode with email, password and an ID card
 * document, the Edit mode with the person's name, phone and ID card number (a master admin also moves them to another
 * city). The form lives only while the dialog is open, and anew for each person, so it starts from them each time.
 */
export function UserDialog({ open, kind, onClose, ...rest }: Props) {
  // The title stays while the dialog closes (an Edit dialog does not read 'Add' as it fades out).
  const [last, setLast] = useState(open)
  if (open && open !== last) setLast(open)
  const title = `${(open ?? last)?.mode === 'edit' ? 'Edit' : 'Add'} ${KIND_TEXT[kind].title}`
  return (
    <Modal open={open !== null} title={title} size="lg" onClose={onClose}>
      {open && <UserForm key={open.mode === 'edit' ? `edit-${open.user.id}` : 'add'} open={open} kind={kind} onClose={onClose} {...rest} />}
    </Modal>
  )
}

type TextName = 'email' | 'password' | 'full_name' | 'phone' | 'id_card_number'
type FieldSpec = { name: TextName; label: string; type?: string; autoComplete?: string }

/** The text fields of each mode, in order. Add names what browsers may fill in; Edit leaves that to them. */
const FIELDS: Record<UserDialogMode['mode'], FieldSpec[]> = {
  add: [
    { name: 'full_name', label: 'Full Name', autoComplete: 'name' },
    { name: 'email', label: 'Email', type: 'email', autoComplete: 'off' },
    { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'off' },
    { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
    { name: 'id_card_number', label: 'ID Card Number (optional)', autoComplete: 'off' },
  ],
  edit: [
    { name: 'full_name', label: 'Full Name' },
    { name: 'phone', label: 'Phone', type: 'tel' },
    { name: 'id_card_number', label: 'ID Card Number (optional)' },
  ],
}
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

/** What is sent: Add posts the whole form (multipart, with the document); Edit patches only what changed. */
type Sending = { mode: 'add'; body: FormData } | { mode: 'edit'; id: number; body: UpdateUserBody }

function UserForm({ open, kind, actor, countries, rules, onClose, onDone }: Omit<Props, 'open'> & { open: UserDialogMode }) {
  const master = managesEveryCity(actor)
  const user = open.mode === 'edit' ? open.user : null
  const prefix = user ? 'edit-user' : 'add-user'
  const [values, setValues] = useState<Record<TextName, string>>({
    email: '',
    password: '',
    full_name: user?.full_name ?? '',
    phone: user?.phone ?? '',
    id_card_number: user?.id_card_number ?? '',
  })
  const [geo, setGeo] = useState<GeoValue>(
    user ? { country_id: user.country_id, state_id: user.state_id, city_id: user.city_id } : { country_id: null, state_id: null, city_id: master ? null : actor.city_id },
  )
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)

  const send = useMutation({
    mutationFn: (s: Sending) =>
      s.mode === 'add' ? api<User>('/api/users', { method: 'POST', form: s.body, retries: 0 }) : sendJson<User>(`/api/users/${s.id}`, 'PATCH', s.body),
    // A create is not repeated on a server error (the first attempt may have been stored); an edit, which sets the
    // same values again, retries as every mutation does.
    ...(user ? {} : { retry: false }),
    onSuccess: (saved) => onDone(saved, open.mode),
    onError: (err) => {
      const { fields, banner } = describeUserError(err, user ? UPDATE_FAILED : CREATE_FAILED)
      setErrors(fields)
      setBanner(banner)
    },
  })

  const clear = (...names: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k))))
  const update = (name: TextName) => (value: string) => (setValues((v) => ({ ...v, [name]: value })), clear(name))
  // Only the levels that changed lose their message: a State still to pick says so once a country makes it usable.
  const changeGeo = (next: GeoValue) => (clear(...GEO_FIELDS.filter((k) => next[k] !== geo[k])), setGeo(next))

  /** The new person, checked: a master admin picks country and state too. */
  function addition(): { found: FieldErrors; sending: Sending } {
    const found = checkForm(rules.create, { ...values, id_card_number: values.id_card_number.trim() || undefined, role: kind, city_id: geo.city_id ?? undefined })
    if (master && !geo.country_id) found.country_id = 'Country is required'
    if (master && !geo.state_id) found.state_id = 'State is required'
    const body = new FormData()
    for (const name of ['email', 'password', 'full_name', 'phone'] as const) body.append(name, values[name])
    body.append('role', kind)
    if (values.id_card_number.trim()) body.append('id_card_number', values.id_card_number.trim())
    body.append('city_id', String(geo.city_id))
    if (file && file.size > 0) body.append('id_card_document', file)
    return { found, sending: { mode: 'add', body } }
  }

  /** Only what changed, checked; a phone nobody ever gave may stay empty, one that exists may not be erased. */
  function change(user: User): { found: FieldErrors; sending: Sending } {
    const geoTouched = geo.country_id !== user.country_id || geo.state_id !== user.state_id || geo.city_id !== user.city_id
    const out: UpdateUserBody = {}
    const name = values.full_name.trim()
    const phone = values.phone.trim()
    const idCard = values.id_card_number.trim()
    if (name !== user.full_name) out.full_name = name
    if (phone !== (user.phone ?? '') && (phone || user.phone)) out.phone = phone
    if (idCard !== (user.id_card_number ?? '')) out.id_card_number = idCard || null
    if (master && geoTouched && geo.city_id) out.city_id = geo.city_id
    const required = ['full_name', ...(user.phone ? ['phone'] : [])]
    const found = checkForm({ ...rules.update, required }, { full_name: name, phone: phone || undefined, id_card_number: out.id_card_number ?? undefined })
    if (master && geoTouched && (geo.country_id || geo.state_id || geo.city_id || user.city_id)) {
      if (!geo.country_id) found.country_id = 'Country is required'
      if (!geo.state_id) found.state_id = 'State is required'
      if (!geo.city_id) found.city_id = 'City is required'
    }
    return { found, sending: { mode: 'edit', id: user.id, body: out } }
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const { found, sending } = user ? change(user) : addition()
    setErrors(found)
    if (Object.keys(found).length) return
    // An edit that changes nothing just closes.
    if (sending.mode === 'edit' && Object.keys(sending.body).length === 0) return onClose()
    send.mutate(sending)
  }

  const field = ({ name, label, type = 'text', autoComplete }: FieldSpec) => (
    <Field key={name} id={`${prefix}-${name}`} label={label} error={errors[name]}>
      <input
        id={`${prefix}-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
        value={values[name]}
        maxLength={user && name === 'id_card_number' ? 50 : undefined}
        aria-invalid={!!errors[name]}
        onChange={(e) => update(name)(e.target.value)}
      />
    </Field>
  )

  // Someone with a city of their own (a module admin) works there: new people join it, and nobody is moved.
  const place = user ? [user.city_name, user.state_name] : [actor.city_name, actor.state_name]
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      {user && <p className="text-sm text-base-content/70 break-all">{user.email}</p>}
      <div className="grid gap-4 sm:grid-cols-2">{FIELDS[open.mode].map(field)}</div>
      {master ? (
        <GeoSelect
          idPrefix={prefix}
          value={geo}
          onChange={changeGeo}
          initial={{ countries }}
          errors={{ country_id: errors.country_id, state_id: errors.state_id, city_id: errors.city_id }}
        />
      ) : (
        <Field id={`${prefix}-city`} label="City" error={errors.city_id}>
          <input id={`${prefix}-city`} className="input input-bordered w-full" readOnly value={place.filter(Boolean).join(', ') || 'No city assigned'} />
          {!user && <span className="mt-1 block text-xs text-base-content/60">New {KIND_TEXT[kind].many} join your city.</span>}
        </Field>
      )}
      {!user && (
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
      )}
      <FormActions busy={send.isPending} onCancel={onClose}>
        {user ? 'Save Changes' : `Create ${KIND_TEXT[kind].title}`}
      </FormActions>
    </form>
  )
}
