import { Field } from '../shared/form-parts'

/** A proposed split as the form holds it: the requester's share in percent, or a flat fee. */
export type SplitForm = { kind: 'PERCENT' | 'FLAT'; percent: string; fee: string }
export const DEFAULT_SPLIT: SplitForm = { kind: 'PERCENT', percent: '50', fee: '' }

/** The body's split (`requester_percent` or `flat_fee`), or the message of what is wrong with it. */
export function splitBody(s: SplitForm): { requester_percent: number } | { flat_fee: number } | { error: string } {
  if (s.kind === 'FLAT') {
    const fee = Number(s.fee.replace(/[,\s]/g, ''))
    return s.fee.trim() && Number.isFinite(fee) && fee > 0 ? { flat_fee: fee } : { error: 'Enter the flat fee, a positive amount' }
  }
  const n = Number(s.percent)
  return s.percent.trim() && Number.isInteger(n) && n >= 0 && n <= 100 ? { requester_percent: n } : { error: 'A share is a whole percent from 0 to 100' }
}

type Props = { id: string; value: SplitForm; error?: string; onChange: (s: SplitForm) => void; requesterLabel: string; ownerLabel: string }

/**
 * A split of the commission: a percentage for each broker (the two always sum to 100: the other's share is derived),
 * or a flat fee instead.
 */
export function SplitFields({ id, value, error, onChange, requesterLabel, ownerLabel }: Props) {
  const other = Number(value.percent)
  const rest = Number.isInteger(other) && other >= 0 && other <= 100 ? `${100 - other}%` : '—'
  return (
    <fieldset className="space-y-3" data-split>
      <legend className="label-text mb-1 font-medium">Proposed split</legend>
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Kind of split">
        {(
          [
            ['PERCENT', 'Percent split'],
            ['FLAT', 'Flat fee'],
          ] as const
        ).map(([kind, label]) => (
          <label key={kind} className="flex h-11 min-h-11 cursor-pointer items-center gap-2 rounded-box border border-base-300 px-3">
            <input type="radio" className="radio radio-sm" name={`${id}-kind`} value={kind} checked={value.kind === kind} onChange={() => onChange({ ...value, kind })} />
            <span>{label}</span>
          </label>
        ))}
      </div>
      {value.kind === 'PERCENT' ? (
        <div className="flex flex-wrap items-end gap-4">
          <Field id={`${id}-percent`} label={requesterLabel} error={error}>
            <input
              id={`${id}-percent`}
              name="requester_percent"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              step={1}
              className={`input input-bordered h-11 w-28 ${error ? 'input-error' : ''}`}
              value={value.percent}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-percent-error` : undefined}
              onChange={(e) => onChange({ ...value, percent: e.target.value })}
            />
          </Field>
          <p className="pb-3 text-sm" data-split-rest>
            {`${ownerLabel}: ${rest}`}
          </p>
        </div>
      ) : (
        <Field id={`${id}-fee`} label="Flat fee" error={error}>
          <input
            id={`${id}-fee`}
            name="flat_fee"
            inputMode="decimal"
            className={`input input-bordered h-11 w-full max-w-xs ${error ? 'input-error' : ''}`}
            value={value.fee}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-fee-error` : undefined}
            onChange={(e) => onChange({ ...value, fee: e.target.value })}
          />
        </Field>
      )}
    </fieldset>
  )
}
