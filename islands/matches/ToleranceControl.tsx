import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { checkField, type ObjectSchema } from '../shared/form-rules'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { listingErrorMessage } from '../listings/listing-format'
import { MATCH_QUERY_KEYS } from './match-format'

/** A city's budget tolerance as the page gives it, with the rules of the PUT's body (formRules(ToleranceBody)). */
export type CityTolerance = { city_id: number; city_name: string; match_tolerance: number; rules: ObjectSchema }

/** The tolerance typed, as a number; or the message of the rule it breaks (the server's own messages). */
export function parseTolerance(rules: ObjectSchema, raw: string): { value: number } | { error: string } {
  // Elysia's t.Integer accepts a numeric string too (anyOf string, integer): the number's own rule is the one to check.
  const field = rules.properties.match_tolerance!
  const integer = field.anyOf?.find((m) => m.type === 'integer') ?? field
  const typeMessage = integer.errorMessage?.type ?? 'Tolerance must be a whole number'
  const n = raw.trim() === '' ? undefined : Number(raw)
  if (n !== undefined && !Number.isInteger(n)) return { error: typeMessage }
  const error = checkField(integer, n, true)
  return error ? { error } : { value: n! }
}

export const saveTolerance = (cityId: number, percent: number) =>
  sendJson<{ city_id: number; match_tolerance: number }>(`/api/geographic/cities/${cityId}/match-tolerance`, 'PUT', { match_tolerance: percent })

/** The number input of a tolerance, 0 to 30 %, with its message. Used by the module admin's control and the city form. */
export function ToleranceInput({ id, value, error, onChange, label }: { id: string; value: string; error?: string; onChange: (v: string) => void; label: string }) {
  return (
    <div className="form-control">
      <label htmlFor={id} className="label-text mb-1 block font-medium">
        {label}
      </label>
      <input
        id={id}
        name="match_tolerance"
        type="number"
        inputMode="numeric"
        min={0}
        max={30}
        step={1}
        className={`input input-bordered w-28 ${error ? 'input-error' : ''}`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <span id={`${id}-error`} className="mt-1 block text-sm text-error">
          {error}
        </span>
      ) : (
        <span id={`${id}-hint`} className="mt-1 block text-xs text-base-content/70">
          How far over a requirement's budget an availability may ask and still match (0 to 30 %).
        </span>
      )}
    </div>
  )
}

/** A module admin's own city's tolerance, on the matches screen (a master admin sets each city's in Geographic). */
export function ToleranceControl({ tolerance }: { tolerance: CityTolerance }) {
  const queryClient = useQueryClient()
  const [saved, setSaved] = useState(tolerance.match_tolerance)
  const [raw, setRaw] = useState(String(tolerance.match_tolerance))
  const [error, setError] = useState<string | undefined>()
  const save = useMutation({
    mutationFn: (percent: number) => saveTolerance(tolerance.city_id, percent),
    onSuccess: (r) => {
      setSaved(r.match_tolerance)
      toast.success(`Matching tolerance for ${tolerance.city_name} set to ${r.match_tolerance} %`)
      // What matches in the city has changed.
      for (const queryKey of Object.values(MATCH_QUERY_KEYS)) void queryClient.invalidateQueries({ queryKey })
    },
    onError: (err) => setError(listingErrorMessage(err, 'Failed to save the tolerance')),
  })
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    const parsed = parseTolerance(tolerance.rules, raw)
    if ('error' in parsed) return setError(parsed.error)
    setError(undefined)
    save.mutate(parsed.value)
  }
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="match-tolerance-title" data-tolerance>
      <form noValidate onSubmit={submit} className="card-body gap-3 p-4">
        <h2 id="match-tolerance-title" className="font-semibold">{`Matching tolerance for ${tolerance.city_name}`}</h2>
        <p className="text-sm text-base-content/70" data-tolerance-now>
          {`Now ${saved} %: an availability asking up to ${saved} % over a requirement's budget still matches it.`}
        </p>
        <div className="flex flex-wrap items-start gap-3">
          <ToleranceInput id="match-tolerance" label="Tolerance (%)" value={raw} error={error} onChange={(v) => (setRaw(v), setError(undefined))} />
          <button type="submit" className="btn btn-primary btn-sm mt-7" disabled={save.isPending}>
            {save.isPending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Save
          </button>
        </div>
      </form>
    </section>
  )
}
