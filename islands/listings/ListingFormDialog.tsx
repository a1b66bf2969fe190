import { useMutation } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import type { CreateListingBody, Listing, UpdateListingBody } from '../../src/modules/listings/model'
import type { ListingStatus } from '../../src/shared/constants'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { FormActions } from '../shared/form-parts'
import { listingCurrency, type Currency } from '../../src/shared/currency'
import { DuplicateWarning, useDuplicateCheck } from './duplicate-warning'
import { describeListingError, LISTING_TEXT } from './listing-format'
import { budgetError, budgetValue, EMPTY_FORM, formOf, ListingFields, statusAllowed, statusesFor } from './listing-form'
import { isModerated, ModerationNotice } from './moderation-format'
import { PhotoManager } from './photos/PhotoManager'
import {
  ContactNote,
  EMPTY_PRIVATE,
  privatePayload,
  privateValuesOf,
  useContactCheck,
  usePrivateFields,
  VisibilityAndPrivate,
  type PrivateValues,
  type VisibilityValues,
} from './private-fields'

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
  /** The budget's currency for a new listing: the user's (`userCurrency`); an edit shows the listing's country's. */
  currency: Currency
  /** The broker's own phone, the contact a new listing starts with (issue 32: brokers post their own number). */
  ownPhone?: string | null
}

/** SPEC "Broker listing form": create and edit. The form lives only while the dialog is open, so it starts fresh. */
export function ListingFormDialog({ open, listing = null, onClose, ...rest }: ListingFormDialogProps) {
  return (
    <Modal open={open} title={listing ? `Edit Listing ${listing.entry_id}` : 'New Listing'} size="lg" onClose={onClose}>
      <ListingForm listing={listing} onClose={onClose} {...rest} />
    </Modal>
  )
}

/** The broker form's values: every field as typed (the paste screen's draft cards hold the same). */
export type BrokerFormValues = {
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
type Values = BrokerFormValues
type Name = keyof Values
/** The broker form's fields, in its order. */
export const BROKER_FORM_FIELDS = Object.keys({
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

/**
 * The form's first values: the new-listing defaults (REQ, SALE, ACTIVE) or the listing's, SUSPENDED shown as ACTIVE
 * (SPEC section 4) unless an admin suspended it (issue 29): that status is not the broker's to change, so it shows as is.
 * Built from the shared listing form's values (./listing-form.tsx), less the contact name this form does not ask.
 */
export function formValues(listing: Listing | null, ownPhone?: string | null): Values {
  const { contact_name: _, ...values } = listing
    ? formOf(listing)
    : { ...EMPTY_FORM, post_type: 'REQ' as const, sale_or_rent: 'SALE' as const, contact_value: ownPhone?.trim() ?? '' }
  return listing?.status === 'SUSPENDED' && !isModerated(listing) ? { ...values, status: 'ACTIVE' } : values
}

/** A field's value as the API takes it: trimmed text, numbers as numbers, empty as undefined. */
function parsed(name: Name, raw: string): string | number | undefined {
  const v = raw.trim()
  if (v === '') return undefined
  if (name === 'budget') return budgetValue(v)
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
  for (const name of BROKER_FORM_FIELDS) {
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

/** The form's messages for `values` under `rules` (the server's own), before anything is sent. */
export function brokerFormErrors(rules: ObjectSchema, values: Values): FieldErrors {
  const found = checkForm(rules, Object.fromEntries(BROKER_FORM_FIELDS.map((n) => [n, parsed(n, values[n])])))
  const budget = budgetError(values.budget)
  if (budget) found.budget = budget
  // Only the form's fields: contact_name and city_id are the server's to fill for a broker.
  return Object.fromEntries(Object.entries(found).filter(([k]) => (BROKER_FORM_FIELDS as string[]).includes(k)))
}

function ListingForm({ listing, rules, onClose, onSaved, onFailed, note, currency, ownPhone }: Omit<ListingFormDialogProps, 'open' | 'listing'> & { listing: Listing | null }) {
  const mode = listing ? 'edit' : 'create'
  const [values, setValues] = useState<Values>(() => formValues(listing, ownPhone))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)
  const duplicates = useDuplicateCheck()
  // Photos chosen while posting (issue 34): sent once the listing exists, each with its progress, before closing.
  const [chosen, setChosen] = useState<File[]>([])
  const [created, setCreated] = useState<Listing | null>(null)
  // Issue 35: who sees it, and its private fields (an edit loads the saved ones). The contact starts as the broker's
  // own phone through `ownPhone` (issue 32).
  const initialVisibility: VisibilityValues = {
    visibility: listing?.visibility ?? 'NETWORK',
    circle_id: listing?.circle_id ? String(listing.circle_id) : '',
    onward_sharing: listing?.onward_sharing ?? 'OFF',
  }
  const [visibility, setVisibility] = useState<VisibilityValues>(initialVisibility)
  const saved = usePrivateFields(listing?.id ?? null)
  const initialPrivate = privateValuesOf(saved.data ?? null)
  const [priv, setPriv] = useState<PrivateValues | null>(listing ? null : EMPTY_PRIVATE)
  useEffect(() => {
    if (saved.data && priv === null) setPriv(privateValuesOf(saved.data))
  }, [saved.data, priv])
  const privateContact = useContactCheck(values.contact_value)

  const save = useMutation({
    mutationFn: (body: CreateListingBody | UpdateListingBody) =>
      listing ? sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', body) : sendJson<Listing>('/api/listings', 'POST', body),
    // A create is not repeated on a server error: the first attempt may have been stored.
    retry: false,
    onSuccess: (saved) => (mode === 'create' && chosen.length > 0 ? setCreated(saved) : onSaved(saved, mode)),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, BROKER_FORM_FIELDS, LISTING_TEXT.formFailed)
      setErrors(fields)
      setBanner(banner)
      onFailed?.(err, mode)
    },
  })

  const update = (name: Name) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }))
    duplicates.reset()
    setErrors((e) => (e[name] ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== name)) : e))
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const mine = brokerFormErrors(rules, values)
    setErrors(mine)
    if (Object.keys(mine).length) return
    const body: Record<string, unknown> = { ...listingPayload(values, listing) }
    if (!listing || visibility.visibility !== initialVisibility.visibility || visibility.circle_id !== initialVisibility.circle_id) {
      if (visibility.visibility !== 'NETWORK' || listing) body.visibility = visibility.visibility
      if (visibility.visibility === 'CIRCLE') body.circle_id = visibility.circle_id ? Number(visibility.circle_id) : null
    }
    // Issue 34: the owner's consent to onward sharing, sent when given or changed.
    if (visibility.onward_sharing !== initialVisibility.onward_sharing) body.onward_sharing = visibility.onward_sharing
    const privateBody = priv ? privatePayload(priv, initialPrivate, !!listing) : undefined
    if (privateBody) body.private = privateBody
    if (listing && Object.keys(body).length === 0) return onClose()
    if (listing) return save.mutate(body as UpdateListingBody)
    // Duplicate control compares the listing's own fields: the private ones are not sent to it.
    const { private: _p, visibility: _v, circle_id: _c, onward_sharing: _o, ...draft } = body
    duplicates.submit(draft as CreateListingBody, (checked) => save.mutate({ ...body, ...checked } as CreateListingBody))
  }

  if (created)
    return (
      <div className="space-y-4">
        <p className="text-sm">
          Listing <span className="font-mono font-semibold">{created.entry_id}</span> is posted. Its photos are being sent:
        </p>
        <PhotoManager listingId={created.id} pending={chosen} />
        <div className="modal-action">
          <button type="button" className="btn btn-primary min-h-11" onClick={() => onSaved(created, 'create')}>
            Done
          </button>
        </div>
      </div>
    )

  const busy = save.isPending || duplicates.checking
  // Suspended by an admin: its status is shown, not offered; the rest stays the broker's to put right.
  const moderated = listing !== null && isModerated(listing)
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {note && <p className="text-sm text-base-content/70">{note}</p>}
      {listing && <ModerationNotice listing={listing} owner />}
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      <ListingFields
        idPrefix="listing-form"
        values={values}
        errors={errors}
        onChange={(name, value) => update(name as Name)(value)}
        statuses={moderated ? [...FORM_STATUSES, 'SUSPENDED'] : statusesFor(FORM_STATUSES, listing?.status)}
        statusDisabled={(s) => (moderated ? s !== 'SUSPENDED' : !statusAllowed(listing?.status, s))}
        required={rules.required?.filter((n) => (BROKER_FORM_FIELDS as string[]).includes(n))}
        currency={listing ? listingCurrency(listing) : currency}
        contactName={false}
        contactNote={<ContactNote id="listing-form-contact-note" found={privateContact} />}
      />
      <VisibilityAndPrivate
        idPrefix="listing-form"
        visibility={visibility}
        onVisibility={setVisibility}
        values={priv ?? initialPrivate}
        onChange={(name, value) => setPriv((p) => ({ ...(p ?? initialPrivate), [name]: value }))}
        errors={errors}
      />
      {listing ? (
        <PhotoManager listingId={listing.id} />
      ) : (
        <div className="space-y-1">
          <label htmlFor="listing-form-photos" className="text-sm font-medium">
            Photos <span className="font-normal text-base-content/70">(optional, up to 10; sent once the listing is posted)</span>
          </label>
          <input
            id="listing-form-photos"
            type="file"
            accept="image/*"
            multiple
            className="file-input file-input-bordered w-full min-h-11"
            onChange={(e) => setChosen([...(e.target.files ?? [])].slice(0, 10))}
          />
        </div>
      )}
      {duplicates.found && <DuplicateWarning duplicates={duplicates.found} />}
      <FormActions busy={busy} onCancel={onClose}>
        {listing ? 'Update Listing' : duplicates.found ? 'Post Anyway' : 'Create Listing'}
      </FormActions>
    </form>
  )
}


