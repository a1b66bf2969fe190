import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import type { CreateListingBody, Listing, UpdateListingBody } from '../../src/modules/listings/model'
import { LOCATION_ZONES, POST_TYPE_LABELS, POST_TYPES, SALE_OR_RENT, type ListingStatus } from '../../src/shared/constants'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { describeListingError, LISTING_TEXT, PROPERTY_TYPE_SUGGESTIONS, saleOrRentLabel, STATUS_LABELS } from './listing-format'
import { Field, FormActions } from '../shared/form-parts'

/** The broker form's statuses (SPEC section 4): SUSPENDED is the admins' and the row menu's, not the form's. */
export const FORM_STATUSES = ['ACTIVE', 'ON_HOLD', 'CLOSED'] as const satisfies readonly ListingStatus[]

export type ListingFormDialogProps = {
  open: boolean
  /** The listing to edit; null or absent creates a new one. */
  listing?: Listing | null
  /** `formRules(CreateListingBody)`: the server's own rules and messages. */
  rules: ObjectSchema
  onClose: () => void
  onSaved: (listing: Listing, mode: 'create' | 'edit') => void
  /** Told of a failed save (the form shows it too), e.g. for a toast. */
  onFailed?: (error: unknown, mode: 'create' | 'edit') => void
  /** Shown under the title, e.g. the city and contact name the server fills in. */
  note?: ReactNode
}

/** SPEC "Broker listing form": create and edit. The form lives only while the dialog is open, so it starts fresh. */
export function ListingFormDialog({ open, listing = null, onClose, ...rest }: ListingFormDialogProps) {
  return (
    <Modal open={open} title={listing ? `Edit Listing ${listing.entry_id}` : 'New Listing'} size="lg" onClose={onClose}>
      <ListingForm listing={listing} onClose={onClose} {...rest} />
    </Modal>
  )
}

type Values = {
  post_type: string
  sale_or_rent: string
  contact_value: string
  property_type: string
  budget: string
  size: string
  location: string
  locality: string
  reference: string
  type_details: string
  details: string
  comments: string
  google_location_url: string
  status: string
}
type Name = keyof Values
const NAMES = Object.keys({
  post_type: 0,
  sale_or_rent: 0,
  contact_value: 0,
  property_type: 0,
  budget: 0,
  size: 0,
  location: 0,
  locality: 0,
  reference: 0,
  type_details: 0,
  details: 0,
  comments: 0,
  google_location_url: 0,
  status: 0,
} satisfies Record<Name, 0>) as Name[]
const NUMBERS: Name[] = ['budget', 'size']

const text = (v: string | null | undefined) => v ?? ''
const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))

/** The form's first values: the new-listing defaults (REQ, SALE, ACTIVE) or the listing's, SUSPENDED shown as ACTIVE. */
export function formValues(listing: Listing | null): Values {
  if (!listing)
    return {
      post_type: 'REQ',
      sale_or_rent: 'SALE',
      contact_value: '',
      property_type: '',
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
  return {
    post_type: listing.post_type,
    sale_or_rent: listing.sale_or_rent,
    contact_value: listing.contact_value,
    property_type: listing.property_type,
    budget: numberText(listing.budget),
    size: numberText(listing.size),
    location: text(listing.location),
    locality: text(listing.locality),
    reference: text(listing.reference),
    type_details: text(listing.type_details),
    details: text(listing.details),
    comments: text(listing.comments),
    google_location_url: text(listing.google_location_url),
    status: listing.status === 'SUSPENDED' ? 'ACTIVE' : listing.status,
  }
}

/** A field's value as the API takes it: trimmed text, numbers as numbers, empty as undefined. */
function parsed(name: Name, raw: string): string | number | undefined {
  const v = raw.trim()
  if (v === '') return undefined
  if (NUMBERS.includes(name)) return Number.isFinite(Number(v)) ? Number(v) : v
  return v
}

/**
 * The request body. Create: every filled field, empty ones (budget, size, URL, texts) left out. Edit: only what
 * changed; a field emptied that had a value is sent as null (cleared), and an untouched SUSPENDED status stays so.
 */
export function listingPayload(values: Values, listing: Listing | null): CreateListingBody | UpdateListingBody {
  const body: Record<string, unknown> = {}
  const initial = formValues(listing)
  for (const name of NAMES) {
    const value = parsed(name, values[name])
    if (!listing) {
      if (value !== undefined) body[name] = value
      continue
    }
    if (values[name].trim() === initial[name].trim()) continue
    body[name] = value === undefined ? null : value
  }
  return body as CreateListingBody | UpdateListingBody
}

function ListingForm({ listing, rules, onClose, onSaved, onFailed, note }: Omit<ListingFormDialogProps, 'open' | 'listing'> & { listing: Listing | null }) {
  const mode = listing ? 'edit' : 'create'
  const [values, setValues] = useState<Values>(() => formValues(listing))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)

  const save = useMutation({
    mutationFn: (body: CreateListingBody | UpdateListingBody) =>
      listing ? sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', body) : sendJson<Listing>('/api/listings', 'POST', body),
    // A create is not repeated on a server error: the first attempt may have been stored.
    retry: false,
    onSuccess: (saved) => onSaved(saved, mode),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, NAMES, LISTING_TEXT.formFailed)
      setErrors(fields)
      setBanner(banner)
      onFailed?.(err, mode)
    },
  })

  const update = (name: Name) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors((e) => (e[name] ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== name)) : e))
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const checked = Object.fromEntries(NAMES.map((n) => [n, parsed(n, values[n])]))
    const found = checkForm(rules, checked)
    // Only the form's fields: contact_name and city_id are the server's to fill for a broker.
    const mine = Object.fromEntries(Object.entries(found).filter(([k]) => (NAMES as string[]).includes(k)))
    setErrors(mine)
    if (Object.keys(mine).length) return
    const body = listingPayload(values, listing)
    if (listing && Object.keys(body).length === 0) return onClose()
    save.mutate(body)
  }

  const id = (name: Name) => `listing-form-${name}`
  const control = (name: Name) => ({
    id: id(name),
    name,
    value: values[name],
    'aria-invalid': !!errors[name],
    'aria-describedby': errors[name] ? `${id(name)}-error` : undefined,
  })
  const input = (name: Name, label: string, props: Record<string, unknown> = {}) => (
    <Field id={id(name)} label={label} error={errors[name]}>
      <input
        {...control(name)}
        className={`input input-bordered w-full ${errors[name] ? 'input-error' : ''}`}
        onChange={(e) => update(name)(e.target.value)}
        {...props}
      />
    </Field>
  )
  const select = (name: Name, label: string, options: readonly { value: string; label: string }[], empty?: string) => (
    <Field id={id(name)} label={label} error={errors[name]}>
      <select {...control(name)} className={`select select-bordered w-full ${errors[name] ? 'select-error' : ''}`} onChange={(e) => update(name)(e.target.value)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
  const textarea = (name: Name, label: string, rows = 3) => (
    <Field id={id(name)} label={label} error={errors[name]}>
      <textarea {...control(name)} rows={rows} className={`textarea textarea-bordered w-full ${errors[name] ? 'textarea-error' : ''}`} onChange={(e) => update(name)(e.target.value)} />
    </Field>
  )

  const busy = save.isPending
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {note && <p className="text-sm text-base-content/70">{note}</p>}
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {select('post_type', 'Post Type', POST_TYPES.map((p) => ({ value: p, label: `${POST_TYPE_LABELS[p]} (${p})` })), 'Select post type')}
        {select('sale_or_rent', 'Sale or Rent', SALE_OR_RENT.map((v) => ({ value: v, label: saleOrRentLabel(v) })), 'Select sale or rent')}
        {input('contact_value', 'Contact (phone or email)', { autoComplete: 'off' })}
        {input('property_type', 'Property Type', { list: 'listing-form-property-types', autoComplete: 'off' })}
        {input('budget', 'Budget', { type: 'number', min: 0, step: 1000, inputMode: 'numeric' })}
        {input('size', 'Size (sq ft)', { type: 'number', min: 0, step: 1, inputMode: 'numeric' })}
        {select('location', 'Location Zone', LOCATION_ZONES.map((z) => ({ value: z, label: z })), 'No zone')}
        {input('locality', 'Locality')}
        {input('reference', 'Reference')}
        {select('status', 'Status', FORM_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })))}
      </div>
      <datalist id="listing-form-property-types">
        {PROPERTY_TYPE_SUGGESTIONS.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      {input('type_details', 'Type Details')}
      {textarea('details', 'Details', 4)}
      {textarea('comments', 'Comments', 2)}
      {input('google_location_url', 'Google Location URL', { type: 'url', placeholder: 'https://maps.google.com/...' })}
      <FormActions busy={busy} onCancel={onClose}>
        {listing ? 'Update Listing' : 'Create Listing'}
      </FormActions>
    </form>
  )
}

