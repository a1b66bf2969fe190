// A city's listing expiry defaults (issue 17): how many days its RENT and SALE listings stay on the network after
// posting or renewal. A module admin sets their city's beside its match tolerance; a master admin any city's in the
// Geographic screen's city form. Both through PUT /api/geographic/cities/{id}/listing-expiry.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { SettingForm, WholeNumberInput } from '../shared/form-parts'
import { integerRule, parseWholeNumber, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { describeListingError } from '../listings/listing-format'

export type ExpiryDays = { rent_days: number; sale_days: number }
/** A city's defaults as the page gives them, with the rules of the PUT's body (formRules(ListingExpiryBody)). */
export type CityExpiry = ExpiryDays & { city_id: number; city_name: string; rules: ObjectSchema }
/** The inputs as typed. */
export type ExpiryValues = Record<keyof ExpiryDays, string>

const FIELDS = [
  { name: 'rent_days', label: 'Rent listings expire after (days)', deal: 'RENT' },
  { name: 'sale_days', label: 'Sale listings expire after (days)', deal: 'SALE' },
] as const

export const expiryValues = (d: ExpiryDays): ExpiryValues => ({ rent_days: String(d.rent_days), sale_days: String(d.sale_days) })

/** The days typed, as numbers; or each field's message (the server's own rules). */
export function parseExpiry(rules: ObjectSchema, values: ExpiryValues): { value: ExpiryDays } | { errors: FieldErrors } {
  const errors: FieldErrors = {}
  const value = {} as ExpiryDays
  for (const { name } of FIELDS) {
    const parsed = parseWholeNumber(rules, name, values[name])
    if ('error' in parsed) errors[name] = parsed.error
    else value[name] = parsed.value
  }
  return Object.keys(errors).length ? { errors } : { value }
}

export const saveExpiry = (cityId: number, days: ExpiryDays) =>
  sendJson<ExpiryDays & { city_id: number }>(`/api/geographic/cities/${cityId}/listing-expiry`, 'PUT', days)

export const expirySummary = (d: ExpiryDays) => `Listings expire after ${d.rent_days} days (rent), ${d.sale_days} days (sale)`

/** The two day inputs, each with its error or hint. */
export function ExpiryInputs({ idPrefix, rules, values, errors, onChange }: { idPrefix: string; rules: ObjectSchema; values: ExpiryValues; errors: FieldErrors; onChange: (patch: Partial<ExpiryValues>) => void }) {
  return (
    <div className="flex flex-wrap items-start gap-3">
      {FIELDS.map(({ name, label, deal }) => {
        const { minimum = 1, maximum = 365 } = integerRule(rules, name)
        return (
          <WholeNumberInput
            key={name}
            id={`${idPrefix}-${name.replace('_', '-')}`}
            name={name}
            label={label}
            value={values[name]}
            error={errors[name]}
            min={minimum}
            max={maximum}
            hint={`How long a ${deal} listing stays on the network after posting or renewal (${minimum} to ${maximum}).`}
            onChange={(v) => onChange({ [name]: v })}
          />
        )
      })}
    </div>
  )
}

/** A module admin's own city's defaults, on the matches screen beside its tolerance. */
export function ListingExpiryControl({ expiry }: { expiry: CityExpiry }) {
  const [saved, setSaved] = useState<ExpiryDays>(expiry)
  const [values, setValues] = useState(() => expiryValues(expiry))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (days: ExpiryDays) => saveExpiry(expiry.city_id, days),
    onSuccess: (r) => {
      setSaved(r)
      toast.success(`Listing expiry for ${expiry.city_name} set: ${r.rent_days} days for rent, ${r.sale_days} for sale`)
    },
    onError: (err) => {
      const found = describeListingError(err, FIELDS.map((f) => f.name), 'Failed to save the listing expiry')
      setErrors(found.fields)
      setBanner(found.banner)
    },
  })
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setBanner(null)
    const parsed = parseExpiry(expiry.rules, values)
    if ('errors' in parsed) return setErrors(parsed.errors)
    setErrors({})
    save.mutate(parsed.value)
  }
  return (
    <SettingForm
      name="listing-expiry"
      title={`Listing expiry for ${expiry.city_name}`}
      now={`${expirySummary(saved)}, unless the owner sets an earlier date.`}
      busy={save.isPending}
      alert={banner}
      onSubmit={submit}
    >
      <ExpiryInputs idPrefix="listing-expiry" rules={expiry.rules} values={values} errors={errors} onChange={(patch) => (setValues((v) => ({ ...v, ...patch })), setErrors({}))} />
    </SettingForm>
  )
}
