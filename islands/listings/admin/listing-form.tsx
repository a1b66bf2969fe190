// The listing fields of the admin create and edit dialogs: values, the payload they become, and the inputs.
import type { Listing } from '../../../src/modules/listings/model'
import { LISTING_STATUSES, LOCATION_ZONES, type ListingStatus, type LocationZone } from '../../../src/shared/constants'
import { checkForm, type FieldErrors, type ObjectSchema } from '../../shared/form-rules'
import { PROPERTY_TYPE_SUGGESTIONS, STATUS_LABELS } from '../listing-format'
import { Field } from '../../shared/form-parts'

export type ListingFormValues = {
  post_type: '' | 'REQ' | 'AVL'
  sale_or_rent: '' | 'SALE' | 'RENT'
  property_type: string
  contact_value: string
  contact_name: string
  budget: string
  size: string
  location: '' | LocationZone
  locality: string
  reference: string
  type_details: string
  details: string
  comments: string
  google_location_url: string
  status: ListingStatus
}

export const EMPTY_FORM: ListingFormValues = {
  post_type: '',
  sale_or_rent: '',
  property_type: '',
  contact_value: '',
  contact_name: '',
  budget: '',
  size: '',
  location: '',
  locality: '',
  reference: '',
  type_details: '',
  details: '',
  comments: '',
  google_location_url: '',
  status: 'ACTIVE',
}

export const formOf = (l: Listing): ListingFormValues => ({
  post_type: l.post_type,
  sale_or_rent: l.sale_or_rent,
  property_type: l.property_type,
  contact_value: l.contact_value,
  contact_name: l.contact_name,
  budget: l.budget === null ? '' : String(l.budget),
  size: l.size === null ? '' : String(l.size),
  location: l.location ?? '',
  locality: l.locality ?? '',
  reference: l.reference ?? '',
  type_details: l.type_details ?? '',
  details: l.details ?? '',
  comments: l.comments ?? '',
  google_location_url: l.google_location_url ?? '',
  status: l.status,
})

const OPTIONAL_TEXT = ['contact_name', 'locality', 'reference', 'type_details', 'details', 'comments', 'google_location_url'] as const

/** The values as the API takes them: trimmed text, numbers for numbers, and `null` for an empty optional field. */
export function payloadOf(v: ListingFormValues) {
  const num = (s: string) => (s.trim() === '' ? null : Number(s))
  const out: Record<string, string | number | null> = {
    post_type: v.post_type || null,
    sale_or_rent: v.sale_or_rent || null,
    property_type: v.property_type.trim(),
    contact_value: v.contact_value.trim(),
    budget: num(v.budget),
    size: num(v.size),
    location: v.location || null,
    status: v.status,
  }
  for (const k of OPTIONAL_TEXT) out[k] = v[k].trim() || null
  return out
}

/** Errors of `values` under `rules`, ignoring fields left empty (null) that the rules do not require. */
export function checkPayload(rules: ObjectSchema, payload: Record<string, unknown>): FieldErrors {
  const values = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, v === null ? undefined : v]))
  const errors = checkForm(rules, values)
  for (const k of ['budget', 'size'] as const) if (typeof payload[k] === 'number' && Number.isNaN(payload[k])) errors[k] = `${k === 'budget' ? 'Budget' : 'Size'} must be a number`
  return errors
}

const ZONES = LOCATION_ZONES

type FieldsProps = {
  idPrefix: string
  values: ListingFormValues
  errors: FieldErrors
  onChange: <K extends keyof ListingFormValues>(name: K, value: ListingFormValues[K]) => void
  /** Status options: all four (edit) or without SUSPENDED (create); `disabled` ones are shown but not pickable. */
  statuses: readonly ListingStatus[]
  statusDisabled?: (s: ListingStatus) => boolean
  /** Marks required fields with an asterisk. */
  required?: readonly (keyof ListingFormValues)[]
  contactNamePlaceholder?: string
}

/** Every listing field, in the order a broker reads a listing: what, who, how much, where, then notes. */
export function ListingFields({ idPrefix, values, errors, onChange, statuses, statusDisabled, required = [], contactNamePlaceholder }: FieldsProps) {
  const id = (n: string) => `${idPrefix}-${n}`
  const label = (n: keyof ListingFormValues, text: string) => (required.includes(n) ? `${text} *` : text)
  const input = (n: keyof ListingFormValues, text: string, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <input
        id={id(n)}
        name={n}
        className={`input input-bordered w-full ${errors[n] ? 'input-error' : ''}`}
        value={values[n]}
        aria-invalid={!!errors[n]}
        aria-describedby={errors[n] ? `${id(n)}-error` : undefined}
        onChange={(e) => onChange(n, e.target.value as never)}
        {...extra}
      />
    </Field>
  )
  const select = (n: keyof ListingFormValues, text: string, options: { value: string; label: string; disabled?: boolean }[], empty?: string) => (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <select
        id={id(n)}
        name={n}
        className={`select select-bordered w-full ${errors[n] ? 'select-error' : ''}`}
        value={values[n]}
        aria-invalid={!!errors[n]}
        aria-describedby={errors[n] ? `${id(n)}-error` : undefined}
        onChange={(e) => onChange(n, e.target.value as never)}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
  const textarea = (n: keyof ListingFormValues, text: string) => (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <textarea
        id={id(n)}
        name={n}
        rows={3}
        className={`textarea textarea-bordered w-full ${errors[n] ? 'textarea-error' : ''}`}
        value={values[n]}
        aria-invalid={!!errors[n]}
        aria-describedby={errors[n] ? `${id(n)}-error` : undefined}
        onChange={(e) => onChange(n, e.target.value as never)}
      />
    </Field>
  )
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {select('post_type', 'Post Type', [{ value: 'REQ', label: 'Requirement (REQ)' }, { value: 'AVL', label: 'Availability (AVL)' }], 'Select post type')}
      {select('sale_or_rent', 'Sale or Rent', [{ value: 'SALE', label: 'Sale' }, { value: 'RENT', label: 'Rent' }], 'Select sale or rent')}
      {input('property_type', 'Property Type', { placeholder: 'e.g. 2 BHK Apartment', list: id('property-types') })}
      <datalist id={id('property-types')}>
        {PROPERTY_TYPE_SUGGESTIONS.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      {input('contact_value', 'Contact (phone or email)')}
      {input('contact_name', 'Contact Name', { placeholder: contactNamePlaceholder })}
      {select(
        'status',
        'Status',
        statuses.map((s) => ({ value: s, label: STATUS_LABELS[s], disabled: statusDisabled?.(s) })),
      )}
      {input('budget', 'Budget', { type: 'number', min: 0, step: 1000, inputMode: 'numeric' })}
      {input('size', 'Size (sq ft)', { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
      {select('location', 'Location Zone', ZONES.map((z) => ({ value: z, label: z })), 'No zone')}
      {input('locality', 'Locality')}
      {input('reference', 'Reference')}
      {input('type_details', 'Type Details')}
      <div className="sm:col-span-2">{input('google_location_url', 'Google Maps Link', { type: 'url', placeholder: 'https://maps.google.com/...' })}</div>
      <div className="sm:col-span-2">{textarea('details', 'Details')}</div>
      <div className="sm:col-span-2">{textarea('comments', 'Comments')}</div>
    </div>
  )
}

export const ALL_STATUSES = LISTING_STATUSES
export const CREATE_STATUSES = LISTING_STATUSES.filter((s) => s !== 'SUSPENDED')

