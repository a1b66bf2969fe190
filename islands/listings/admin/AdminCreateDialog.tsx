import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { Listing } from '../../../src/modules/listings/model'
import { GeoSelect, type GeoOption, type GeoValue } from '../../geo/GeoSelect'
import { checkForm, type FieldErrors, type ObjectSchema } from '../../shared/form-rules'
import { Modal } from '../../shared/Modal'
import { sendJson } from '../../shared/query'
import { describeFormError, seesEveryCity, TEXT, type AdminActor } from './admin-text'
import { userCurrency } from '../../../src/shared/currency'
import { checkPayload, CREATE_STATUSES, EMPTY_FORM, ListingFields, payloadOf, type ListingFormValues } from '../listing-form'
import { Field, FormActions } from '../../shared/form-parts'
import { DuplicateWarning, useDuplicateCheck } from '../duplicate-warning'

type Props = {
  open: boolean
  actor: AdminActor
  countries: GeoOption[]
  /** AdminListingForm: the required fields and their messages (SPEC section 5 "Admin create form"). */
  rules: ObjectSchema
  /** UpdateListingBody: the per-field rules (lengths, URL) the server applies to any listing. */
  fieldRules: ObjectSchema
  onClose: () => void
  onCreated: (listing: Listing) => void
}

/** SPEC "Admin listings": the admin's create dialog. The form lives only while open, so it starts empty each time. */
export function AdminCreateDialog({ open, onClose, ...rest }: Props) {
  return (
    <Modal open={open} title="Add Listing" size="lg" onClose={onClose}>
      <AdminCreateForm onClose={onClose} {...rest} />
    </Modal>
  )
}

const REQUIRED = ['post_type', 'sale_or_rent', 'property_type', 'contact_value', 'details'] as const
const GEO_FIELDS = ['country_id', 'state_id', 'city_id'] as const

function AdminCreateForm({ actor, countries, rules, fieldRules, onClose, onCreated }: Omit<Props, 'open'>) {
  const master = seesEveryCity(actor)
  const [values, setValues] = useState<ListingFormValues>(EMPTY_FORM)
  const [geo, setGeo] = useState<GeoValue>({ country_id: null, state_id: null, city_id: master ? null : actor.city_id })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const duplicates = useDuplicateCheck()

  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => sendJson<Listing>('/api/listings', 'POST', body),
    // A create is never repeated: the first attempt may have been stored.
    retry: false,
    onSuccess: onCreated,
    onError: (err) => {
      const { fields, general } = describeFormError(err, TEXT.createFailed)
      setErrors(fields)
      setGeneral(general)
    },
  })

  const clear = (...names: string[]) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k))))
  const change = <K extends keyof ListingFormValues>(name: K, value: ListingFormValues[K]) => (setValues((v) => ({ ...v, [name]: value })), clear(name), duplicates.reset())
  const changeGeo = (next: GeoValue) => (clear(...GEO_FIELDS.filter((k) => next[k] !== geo[k])), setGeo(next), duplicates.reset())

  function submit(e: FormEvent) {
    e.preventDefault()
    setGeneral(null)
    const payload = payloadOf(values)
    const found = checkForm(rules, {
      ...Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, v ?? undefined])),
      country_id: geo.country_id ?? undefined,
      state_id: geo.state_id ?? undefined,
      city_id: geo.city_id ?? undefined,
    })
    // A module admin's city is preset; they never pick a country or state.
    if (!master) {
      delete found.country_id
      delete found.state_id
    }
    for (const [k, msg] of Object.entries(checkPayload(fieldRules, payload))) found[k] ??= msg
    setErrors(found)
    if (Object.keys(found).length) return
    // Empty optional fields are left out: the server fills contact_name with the admin's name.
    const body: Record<string, unknown> = Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== null))
    body.city_id = geo.city_id
    duplicates.submit(body, (checked) => create.mutate(checked))
  }

  // The budget is in the currency of the country the listing is for: the one picked (master admin), else the admin's.
  const currency = userCurrency(countries.find((c) => c.id === geo.country_id)?.name ?? actor.country_name)

  const busy = create.isPending || duplicates.checking
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {general && (
        <div role="alert" className="alert alert-error text-sm">
          {general}
        </div>
      )}
      {master ? (
        <GeoSelect
          idPrefix="admin-create"
          required
          value={geo}
          onChange={changeGeo}
          initial={{ countries }}
          errors={{ country_id: errors.country_id, state_id: errors.state_id, city_id: errors.city_id }}
        />
      ) : (
        <Field id="admin-create-city" label="City" error={errors.city_id}>
          <input
            id="admin-create-city"
            className="input input-bordered w-full"
            readOnly
            value={[actor.city_name, actor.state_name].filter(Boolean).join(', ') || 'No city assigned'}
          />
          <span className="mt-1 block text-xs text-base-content/60">Listings you add belong to your city.</span>
        </Field>
      )}
      <ListingFields
        idPrefix="admin-create"
        values={values}
        errors={errors}
        onChange={change}
        statuses={CREATE_STATUSES}
        required={REQUIRED}
        currency={currency}
        contactNamePlaceholder={actor.full_name}
      />
      {duplicates.found && <DuplicateWarning duplicates={duplicates.found} />}
      <FormActions busy={busy} onCancel={onClose}>
        {duplicates.found ? 'Post Anyway' : 'Create Listing'}
      </FormActions>
    </form>
  )
}
