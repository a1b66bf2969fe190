import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { SettingForm, WholeNumberInput } from '../shared/form-parts'
import { parseWholeNumber, type ObjectSchema } from '../shared/form-rules'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { listingErrorMessage } from '../listings/listing-format'
import { MATCH_QUERY_KEYS } from './match-format'

/** A city's budget tolerance as the page gives it, with the rules of the PUT's body (formRules(ToleranceBody)). */
export type CityTolerance = { city_id: number; city_name: string; match_tolerance: number; rules: ObjectSchema }

/** The tolerance typed, as a number; or the message of the rule it breaks (the server's own messages). */
export const parseTolerance = (rules: ObjectSchema, raw: string) => parseWholeNumber(rules, 'match_tolerance', raw)

export const saveTolerance = (cityId: number, percent: number) =>
  sendJson<{ city_id: number; match_tolerance: number }>(`/api/geographic/cities/${cityId}/match-tolerance`, 'PUT', { match_tolerance: percent })

/** The number input of a tolerance, 0 to 30 %, with its message. Used by the module admin's control and the city form. */
export function ToleranceInput({ id, value, error, onChange, label }: { id: string; value: string; error?: string; onChange: (v: string) => void; label: string }) {
  return (
    <WholeNumberInput
      id={id}
      name="match_tolerance"
      label={label}
      value={value}
      error={error}
      min={0}
      max={30}
      hint="How far over a requirement's budget an availability may ask and still match (0 to 30 %)."
      onChange={onChange}
    />
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
    <SettingForm
      name="tolerance"
      title={`Matching tolerance for ${tolerance.city_name}`}
      now={`Now ${saved} %: an availability asking up to ${saved} % over a requirement's budget still matches it.`}
      busy={save.isPending}
      onSubmit={submit}
    >
      <ToleranceInput id="match-tolerance" label="Tolerance (%)" value={raw} error={error} onChange={(v) => (setRaw(v), setError(undefined))} />
    </SettingForm>
  )
}
