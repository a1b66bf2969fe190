import { useEffect, useState } from 'react'
import { api, ApiError } from '../shared/api'

export type GeoValue = { country_id: number | null; state_id: number | null; city_id: number | null }
export type GeoOption = { id: number; name: string }
export type GeoOptions = { countries?: GeoOption[]; states?: GeoOption[]; cities?: GeoOption[] }
type Level = keyof GeoValue

type Props = {
  value: GeoValue
  onChange: (value: GeoValue) => void
  /** How deep the cascade goes: to the state (e.g. a city's parent) or to the city (default). */
  depth?: 'state' | 'city'
  errors?: Partial<Record<Level, string>>
  /** Levels shown read-only, e.g. a module admin's own city. */
  locked?: Partial<Record<Level, boolean>>
  /** Options the server already knows, so the first view is complete without waiting. */
  initial?: GeoOptions
  /** Placeholder texts; filters say 'All countries', forms 'Select country'. */
  placeholders?: Partial<Record<Level, string>>
  idPrefix?: string
  /** Every level must be chosen: labels marked with an asterisk, selects `aria-required`. */
  required?: boolean
}

const SOURCES: Record<Level, (parent: number | null) => string | null> = {
  country_id: () => '/api/geographic/countries',
  state_id: (countryId) => (countryId ? `/api/geographic/countries/${countryId}/states` : null),
  city_id: (stateId) => (stateId ? `/api/geographic/states/${stateId}/cities` : null),
}
const WHAT: Record<Level, string> = { country_id: 'countries', state_id: 'states', city_id: 'cities' }

/** Options of one level, loaded from the public endpoints when its parent changes; a failure is shown, with Retry. */
function useLevel(level: Level, parent: number | null, initial: GeoOption[] | undefined) {
  const url = SOURCES[level](parent)
  const [state, setState] = useState<{ url: string | null; options: GeoOption[]; error: string | null; loading: boolean }>({
    url: initial ? url : null,
    options: initial ?? [],
    error: null,
    loading: false,
  })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (url === state.url && attempt === 0) return
    if (!url) return setState({ url, options: [], error: null, loading: false })
    let cancelled = false
    setState((s) => ({ ...s, url, loading: true, error: null }))
    api<GeoOption[]>(url, { retries: 1 })
      .then((options) => !cancelled && setState({ url, options, error: null, loading: false }))
      .catch((e) => {
        if (cancelled) return
        const reason = e instanceof ApiError && e.status ? e.message : 'network error'
        setState({ url, options: [], error: `Failed to load ${WHAT[level]} (${reason})`, loading: false })
      })
    return () => {
      cancelled = true
    }
  }, [url, attempt])
  return { ...state, retry: () => setAttempt((n) => n + 1) }
}

/**
 * Country → state → city. A level stays disabled until its parent is chosen, and changing a level clears the
 * levels below it (SPEC section 4 "Filters"). A level's validation message waits until the level can be used:
 * "Please select a state" under a State that cannot be opened yet asks the impossible; once a country is chosen
 * the State's message shows (if the form still has it).
 */
export function GeoSelect({ value, onChange, depth = 'city', errors = {}, locked = {}, initial = {}, placeholders = {}, idPrefix = 'geo', required = false }: Props) {
  const countries = useLevel('country_id', null, initial.countries)
  const states = useLevel('state_id', value.country_id, initial.states)
  const cities = useLevel('city_id', value.state_id, initial.cities)

  const levels: { level: Level; label: string; data: ReturnType<typeof useLevel>; parentChosen: boolean }[] = [
    { level: 'country_id', label: 'Country', data: countries, parentChosen: true },
    { level: 'state_id', label: 'State', data: states, parentChosen: value.country_id !== null },
  ]
  if (depth === 'city') levels.push({ level: 'city_id', label: 'City', data: cities, parentChosen: value.state_id !== null })

  function choose(level: Level, raw: string) {
    const id = raw ? Number(raw) : null
    if (level === 'country_id') onChange({ country_id: id, state_id: null, city_id: null })
    else if (level === 'state_id') onChange({ ...value, state_id: id, city_id: null })
    else onChange({ ...value, city_id: id })
  }

  return (
    <div className={`grid gap-3 ${depth === 'city' ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
      {levels.map(({ level, label, data, parentChosen }) => {
        const id = `${idPrefix}-${level}`
        // A locked level is shown as it is; any other one says nothing about itself before its parent is chosen.
        const error = (parentChosen || locked[level] ? errors[level] : undefined) ?? data.error
        return (
          <div key={level} className="form-control">
            <label htmlFor={id} className="label-text mb-1 block font-medium">
              {required ? `${label} *` : label}
            </label>
            <select
              id={id}
              name={level}
              className={`select select-bordered w-full ${error ? 'select-error' : ''}`}
              value={value[level] ?? ''}
              disabled={!parentChosen || locked[level] || data.loading}
              aria-invalid={!!error}
              aria-required={required || undefined}
              onChange={(e) => choose(level, e.target.value)}
            >
              <option value="">{data.loading ? 'Loading...' : (placeholders[level] ?? `Select ${label.toLowerCase()}`)}</option>
              {data.options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
            {error && (
              <p className="mt-1 text-sm text-error" role={data.error ? 'alert' : undefined}>
                {error}
                {data.error && (
                  <button type="button" className="btn btn-link btn-xs text-error" onClick={data.retry}>
                    Retry
                  </button>
                )}
              </p>
            )}
          </div>
        )
      })}
    </div>
  )
}
