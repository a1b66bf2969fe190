// The listing form's fields (the broker's new/edit dialog and the admin's create and edit dialogs): the admin dialogs'
// values and the payload they become, and the inputs every listing form shows.
import type { Listing } from '../../src/modules/listings/model'
import { LISTING_STATUSES, LOCATION_ZONES, type ListingStatus, type LocationZone } from '../../src/shared/constants'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import type { Currency } from '../../src/shared/currency'
import { formatMoney, NOT_AN_AMOUNT, parseMoney } from '../../src/shared/money'
import { PROPERTY_TYPE_SUGGESTIONS, STATUS_LABELS } from './listing-format'
import { Field } from '../shared/form-parts'

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

/**
 * The Budget field's text as the API takes it (issue 32): what the budget filters read (`45k`, `35L`, `1.2cr`,
 * `35,00,000`, digits: src/shared/money.ts); else a plain number (so `-5` meets the rules' "must be positive"); else
 * the text itself, which no rule accepts (`budgetError` names it). Empty is undefined.
 */
export function budgetValue(text: string): number | string | undefined {
  const v = text.trim()
  if (v === '') return undefined
  return parseMoney(v) ?? (Number.isFinite(Number(v)) ? Number(v) : v)
}

/** The Budget field's own message: set when its text is no amount at all. */
export const budgetError = (text: string): string | undefined => (typeof budgetValue(text) === 'string' ? NOT_AN_AMOUNT : undefined)

const OPTIONAL_TEXT = ['contact_name', 'locality', 'reference', 'type_details', 'details', 'comments', 'google_location_url'] as const

/** The values as the API takes them: trimmed text, numbers for numbers, and `null` for an empty optional field. */
export function payloadOf(v: ListingFormValues) {
  const num = (s: string) => (s.trim() === '' ? null : Number(s))
  const out: Record<string, string | number | null> = {
    post_type: v.post_type || null,
    sale_or_rent: v.sale_or_rent || null,
    property_type: v.property_type.trim(),
    contact_value: v.contact_value.trim(),
    budget: budgetValue(v.budget) ?? null,
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
  if (typeof payload.budget === 'string') errors.budget = NOT_AN_AMOUNT
  if (typeof payload.size === 'number' && Number.isNaN(payload.size)) errors.size = 'Size must be a number'
  return errors
}

const ZONES = LOCATION_ZONES

/** A field of the listing form. */
export type ListingFieldName = keyof ListingFormValues
/** What the fields show: every value as text (a screen may keep more precise types, as the admin dialogs do). */
export type ListingFieldValues = { [K in ListingFieldName]?: string }

type FieldsProps = {
  idPrefix: string
  values: ListingFieldValues
  errors: FieldErrors
  // A method, so a screen's typed setter (e.g. `(name: K, value: ListingFormValues[K])`) fits.
  onChange(name: ListingFieldName, value: string): void
  /** Status options: all four (admin edit), without SUSPENDED (admin create) or the broker's three; `disabled` ones are shown but not pickable. */
  statuses: readonly ListingStatus[]
  statusDisabled?: (s: ListingStatus) => boolean
  /** Required fields: marked with an asterisk in their label and `aria-required`, with a line saying what * means. */
  required?: readonly string[]
  /** The budget's currency: the listing's country's when editing, the user's (or the chosen country's) for a new one. */
  currency: Currency
  /** The contact name field (admins; a broker's listing takes the broker's name). */
  contactName?: boolean
  contactNamePlaceholder?: string
  /** Only these fields (e.g. what a pasted message gives: the paste screen's draft cards); absent, every field. */
  only?: readonly ListingFieldName[]
  /** Shown right under the contact (issue 35: what the contact is for, and a warning). */
  contactNote?: React.ReactNode
}

/**
 * Every listing field, in the order a broker reads a listing: what, who, how much, where, then notes. The one form body
 * of the broker's new/edit dialog and the admin's create and edit dialogs, so the fields, their labels, the required
 * marks and the budget's currency read the same everywhere.
 */
export function ListingFields({ idPrefix, values, errors, onChange, statuses, statusDisabled, required = [], currency, contactName = true, contactNamePlaceholder, only, contactNote }: FieldsProps) {
  const id = (n: string) => `${idPrefix}-${n}`
  const shown = (n: ListingFieldName) => !only || only.includes(n)
  const isRequired = (n: ListingFieldName) => required.includes(n)
  const label = (n: ListingFieldName, text: string) => (isRequired(n) ? `${text} *` : text)
  const describedBy = (n: ListingFieldName, ...more: string[]) => [...more, errors[n] ? `${id(n)}-error` : ''].filter(Boolean).join(' ') || undefined
  const common = (n: ListingFieldName) => ({
    id: id(n),
    name: n,
    value: values[n] ?? '',
    'aria-invalid': !!errors[n],
    'aria-required': isRequired(n) || undefined,
    'aria-describedby': describedBy(n),
  })
  const input = (n: ListingFieldName, text: string, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) => shown(n) && (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <input {...common(n)} className={`input input-bordered w-full ${errors[n] ? 'input-error' : ''}`} onChange={(e) => onChange(n, e.target.value)} {...extra} />
    </Field>
  )
  const select = (n: ListingFieldName, text: string, options: { value: string; label: string; disabled?: boolean }[], empty?: string) => shown(n) && (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <select {...common(n)} className={`select select-bordered w-full ${errors[n] ? 'select-error' : ''}`} onChange={(e) => onChange(n, e.target.value)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  )
  const textarea = (n: ListingFieldName, text: string) => shown(n) && (
    <Field id={id(n)} label={label(n, text)} error={errors[n]}>
      <textarea {...common(n)} rows={3} className={`textarea textarea-bordered w-full ${errors[n] ? 'textarea-error' : ''}`} onChange={(e) => onChange(n, e.target.value)} />
    </Field>
  )
  // The budget in its currency: the symbol before the amount, the ISO code after it (and in the field's description).
  const budgetCurrency = id('budget-currency')
  const budgetAmount = id('budget-amount')
  const budgetText = values.budget ?? ''
  const budgetParsed = budgetValue(budgetText)
  // The amount read, in the currency's grouping (₹35,00,000); nothing while the field is empty.
  const budgetRead = budgetParsed === undefined ? null : typeof budgetParsed === 'number' && budgetParsed >= 0 ? formatMoney(budgetParsed, currency) : NOT_AN_AMOUNT
  const showRead = !errors.budget && budgetRead !== null
  const budget = shown('budget') && (
    <Field id={id('budget')} label={label('budget', 'Budget')} error={errors.budget}>
      <div className={`input input-bordered w-full ${errors.budget ? 'input-error' : ''}`} data-currency={currency.code}>
        <span className="text-base-content/70" aria-hidden="true">
          {currency.symbol}
        </span>
        {/* Typed as brokers write amounts (issue 32): 45k, 35L, 1.2cr or digits, read as the filters read them; the
            letters keyboard, since lakh and crore are letters. The amount read is shown in full under the field. */}
        <input
          {...common('budget')}
          aria-describedby={describedBy('budget', budgetCurrency, showRead ? budgetAmount : '')}
          type="text"
          inputMode="text"
          autoComplete="off"
          placeholder="45k, 35L, 1.2cr"
          className="grow"
          onChange={(e) => onChange('budget', e.target.value)}
        />
        <span id={budgetCurrency} className="text-xs font-medium text-base-content/70">
          {currency.code}
        </span>
      </div>
      {showRead && (
        <span id={budgetAmount} className="mt-1 block text-sm text-base-content/70" data-budget-amount aria-live="polite">
          {budgetRead}
        </span>
      )}
    </Field>
  )
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {required.length > 0 && <p className="-mb-1 text-sm text-base-content/70 sm:col-span-2">Fields marked * are required.</p>}
      {select('post_type', 'Post Type', [{ value: 'REQ', label: 'Requirement (REQ)' }, { value: 'AVL', label: 'Availability (AVL)' }], 'Select post type')}
      {select('sale_or_rent', 'Sale or Rent', [{ value: 'SALE', label: 'Sale' }, { value: 'RENT', label: 'Rent' }], 'Select sale or rent')}
      {input('property_type', 'Property Type', { placeholder: 'e.g. 2 BHK Apartment', list: id('property-types'), autoComplete: 'off' })}
      <datalist id={id('property-types')}>
        {PROPERTY_TYPE_SUGGESTIONS.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      {/* The phone keypad while it reads as a number (issue 32), the email keyboard once it has letters or an @. */}
      {input('contact_value', 'Contact (phone or email)', { autoComplete: 'tel', inputMode: /[@a-z]/i.test(values.contact_value ?? '') ? 'email' : 'tel' })}
      {shown('contact_value') && contactNote}
      {contactName && input('contact_name', 'Contact Name', { placeholder: contactNamePlaceholder })}
      {select(
        'status',
        'Status',
        statuses.map((s) => ({ value: s, label: STATUS_LABELS[s], disabled: statusDisabled?.(s) })),
      )}
      {budget}
      {input('size', 'Size (sq ft)', { type: 'number', min: 0, step: 1, inputMode: 'numeric', autoComplete: 'off' })}
      {select('location', 'Location Zone', ZONES.map((z) => ({ value: z, label: z })), 'No zone')}
      {input('locality', 'Locality', { autoComplete: 'off', enterKeyHint: 'next' })}
      {input('reference', 'Reference', { autoComplete: 'off' })}
      {input('type_details', 'Type Details', { autoComplete: 'off' })}
      {shown('google_location_url') && (
        <div className="sm:col-span-2">{input('google_location_url', 'Google Maps Link', { type: 'url', inputMode: 'url', autoComplete: 'off', placeholder: 'https://maps.google.com/...' })}</div>
      )}
      {shown('details') && <div className="sm:col-span-2">{textarea('details', 'Details')}</div>}
      {shown('comments') && <div className="sm:col-span-2">{textarea('comments', 'Comments')}</div>}
    </div>
  )
}

/**
 * Statuses one may pick for a listing now in `current` (none yet: a new one): the server refuses (409) a move into SUSPENDED from
 * anything but ACTIVE, and out of SUSPENDED to anything but ACTIVE, so those are offered disabled.
 */
export function statusAllowed(current: ListingStatus | undefined, next: ListingStatus): boolean {
  if (next === current) return true
  // EXPIRED is the clock's; out of it by renewal, or closed for good (issue 17).
  if (next === 'EXPIRED') return false
  if (current === 'EXPIRED') return next === 'CLOSED'
  if (next === 'SUSPENDED') return current === 'ACTIVE'
  if (current === 'SUSPENDED') return next === 'ACTIVE'
  return true
}

/** The statuses a person may pick: EXPIRED is the clock's (issue 17). */
export const ALL_STATUSES = LISTING_STATUSES.filter((s) => s !== 'EXPIRED')
export const CREATE_STATUSES = ALL_STATUSES.filter((s) => s !== 'SUSPENDED')
/** An edit form's statuses: those offered, and EXPIRED too on a listing that has it, so the form shows where it stands. */
export const statusesFor = (offered: readonly ListingStatus[], current: ListingStatus | undefined): readonly ListingStatus[] =>
  current === 'EXPIRED' ? [...offered, 'EXPIRED'] : offered

