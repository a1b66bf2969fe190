import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { UpdateUserBody, User } from '../../src/modules/users/model'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { sendJson } from '../shared/query'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { Modal } from '../shared/Modal'
import { describeUserError } from './AddUserDialog'
import { KIND_TEXT, managesEveryCity, UPDATE_FAILED, type Actor, type ManagedRole } from './user-format'
import { Field, FormActions } from '../shared/form-parts'

type Props = {
  user: User | null
  kind: ManagedRole
  actor: Actor
  countries: GeoOption[]
  rules: ObjectSchema
  onClose: () => void
  onSaved: (user: User) => void
}

/** Edit a person's name, phone and ID card number; a master admin also moves them to another city. */
export function EditUserDialog({ user, kind, onClose, ...rest }: Props) {
  return (
    <Modal open={user !== null} title={`Edit ${KIND_TEXT[kind].title}`} size="lg" onClose={onClose}>
      {user && <EditUserForm key={user.id} user={user} onClose={onClose} {...rest} />}
    </Modal>
  )
}

const TEXT = ['full_name', 'phone', 'id_card_number'] as const
type TextName = (typeof TEXT)[number]

function EditUserForm({ user, actor, countries, rules, onClose, onSaved }: Omit<Props, 'kind' | 'user'> & { user: User }) {
  const master = managesEveryCity(actor)
  const [values, setValues] = useState<Record<TextName, string>>({ full_name: user.full_name, phone: user.phone ?? '', id_card_number: user.id_card_number ?? '' })
  const [geo, setGeo] = useState<GeoValue>({ country_id: user.country_id, state_id: user.state_id, city_id: user.city_id })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)

  const save = useMutation({
    mutationFn: (body: UpdateUserBody) => sendJson<User>(`/api/users/${user.id}`, 'PATCH', body),
    onSuccess: onSaved,
    onError: (err) => {
      const { fields, banner } = describeUserError(err, UPDATE_FAILED)
      setErrors(fields)
      setBanner(banner)
    },
  })

  const clear = (...names: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k))))
  const update = (name: TextName) => (value: string) => (setValues((v) => ({ ...v, [name]: value })), clear(name))
  // Only the levels that changed lose their message: a State still to pick says so once a country makes it usable.
  const changeGeo = (next: GeoValue) => (clear(...(['country_id', 'state_id', 'city_id'] as const).filter((k) => next[k] !== geo[k])), setGeo(next))
  const geoTouched = geo.country_id !== user.country_id || geo.state_id !== user.state_id || geo.city_id !== user.city_id

  /** Only what changed; a phone nobody ever gave may stay empty, one that exists may not be erased. */
  function body(): UpdateUserBody {
    const out: UpdateUserBody = {}
    const name = values.full_name.trim()
    const phone = values.phone.trim()
    const idCard = values.id_card_number.trim()
    if (name !== user.full_name) out.full_name = name
    if (phone !== (user.phone ?? '') && (phone || user.phone)) out.phone = phone
    if (idCard !== (user.id_card_number ?? '')) out.id_card_number = idCard || null
    if (master && geoTouched && geo.city_id) out.city_id = geo.city_id
    return out
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const payload = body()
    const required = ['full_name', ...(user.phone ? ['phone'] : [])]
    const found = checkForm({ ...rules, required }, { full_name: values.full_name.trim(), phone: values.phone.trim() || undefined, id_card_number: payload.id_card_number ?? undefined })
    if (master && geoTouched && (geo.country_id || geo.state_id || geo.city_id || user.city_id)) {
      if (!geo.country_id) found.country_id = 'Country is required'
      if (!geo.state_id) found.state_id = 'State is required'
      if (!geo.city_id) found.city_id = 'City is required'
    }
    setErrors(found)
    if (Object.keys(found).length) return
    if (Object.keys(payload).length === 0) return onClose()
    save.mutate(payload)
  }

  const field = (name: TextName, label: string, type = 'text') => (
    <Field id={`edit-user-${name}`} label={label} error={errors[name]}>
      <input
        id={`edit-user-${name}`}
        name={name}
        type={type}
        className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
        value={values[name]}
        maxLength={name === 'id_card_number' ? 50 : undefined}
        aria-invalid={!!errors[name]}
        onChange={(e) => update(name)(e.target.value)}
      />
    </Field>
  )

  const busy = save.isPending
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      <p className="text-sm text-base-content/70 break-all">{user.email}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('full_name', 'Full Name')}
        {field('phone', 'Phone', 'tel')}
        {field('id_card_number', 'ID Card Number (optional)')}
      </div>
      {master ? (
        <GeoSelect idPrefix="edit-user" value={geo} onChange={changeGeo} initial={{ countries }} errors={{ country_id: errors.country_id, state_id: errors.state_id, city_id: errors.city_id }} />
      ) : (
        <Field id="edit-user-city" label="City" error={errors.city_id}>
          <input id="edit-user-city" className="input input-bordered w-full" readOnly value={[user.city_name, user.state_name].filter(Boolean).join(', ') || 'No city assigned'} />
        </Field>
      )}
      <FormActions busy={busy} onCancel={onClose}>
        Save Changes
      </FormActions>
    </form>
  )
}
