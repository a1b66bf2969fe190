import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, ApiError } from '../shared/api'
import { checkForm, type FieldErrors, type ObjectSchema } from '../shared/form-rules'
import { ConfirmDialog, Modal } from '../shared/Modal'
import { fetchJson } from '../shared/query'
import { toast } from '../shared/toast'
import { GeoSelect, type GeoValue } from './GeoSelect'
import { FormActions } from '../shared/form-parts'
import { parseTolerance, saveTolerance, ToleranceInput } from '../matches/ToleranceControl'
import { EXPIRY_DAYS } from '../../src/shared/constants'
import { ExpiryInputs, expirySummary, expiryValues, parseExpiry, saveExpiry, type ExpiryValues } from './ListingExpiry'

type City = { id: number; name: string; state_id: number; newsco_region: string | null; match_tolerance: number; rent_days: number; sale_days: number }
type State = { id: number; name: string; code: string; country_id: number; cities: City[] }
type Country = { id: number; name: string; code: string; states: State[] }
type Level = 'country' | 'state' | 'city'

/**
 * `toleranceRules`: formRules(ToleranceBody), the rule of a city's match tolerance (issue 15); `expiryRules`:
 * formRules(ListingExpiryBody), its listing expiry defaults (issue 17). Each is set through its own route.
 */
type Props = { hierarchy: Country[]; rules: Record<Level, ObjectSchema>; toleranceRules: ObjectSchema; expiryRules: ObjectSchema }

type Form = { name: string; code: string; newsco_region: string; country_id: number | null; state_id: number | null; match_tolerance: string } & ExpiryValues
type Editing = { mode: 'create' | 'edit'; level: Level; id?: number; parentLocked: boolean; values: Form }
type Deleting = { level: Level; id: number; name: string }

const LABEL: Record<Level, string> = { country: 'Country', state: 'State', city: 'City' }
const PATH: Record<Level, string> = { country: 'countries', state: 'states', city: 'cities' }
/** A new city's tolerance: the database's default (DEFAULT_TOLERANCE in src/modules/matches/rules.ts). */
const NEW_CITY_TOLERANCE = '10'
/** A new city's listing expiry: the database's defaults. */
const NEW_CITY_EXPIRY = expiryValues({ rent_days: EXPIRY_DAYS.RENT, sale_days: EXPIRY_DAYS.SALE })
const empty: Form = { name: '', code: '', newsco_region: '', country_id: null, state_id: null, match_tolerance: NEW_CITY_TOLERANCE, ...NEW_CITY_EXPIRY }
const HIERARCHY_KEY = ['geographic', 'hierarchy'] as const

/** The geography tree of the master admin: countries, their states, their cities, with add, edit and delete. */
export default function GeoTree({ hierarchy, rules, toleranceRules, expiryRules }: Props) {
  const queryClient = useQueryClient()
  // The server's hierarchy is the first view (no fetch on load); saves and deletes invalidate it.
  const query = useQuery({ queryKey: HIERARCHY_KEY, queryFn: () => fetchJson<Country[]>('/api/geographic/hierarchy'), initialData: hierarchy })
  const tree = query.data
  const loadError = query.isError ? 'Failed to load geographic data. Please try again.' : null
  const loading = query.isFetching
  const reload = () => void query.refetch()
  const invalidate = () => void queryClient.invalidateQueries({ queryKey: HIERARCHY_KEY })
  const [open, setOpen] = useState<Set<string>>(new Set())
  const [editing, setEditing] = useState<Editing | null>(null)
  const [deleting, setDeleting] = useState<Deleting | null>(null)

  const toggle = (key: string) => setOpen((s) => (s.has(key) ? (s.delete(key), new Set(s)) : new Set(s).add(key)))
  const expand = (...keys: string[]) => setOpen((s) => new Set([...s, ...keys]))
  // What was just saved stays in view, even when it moved to another parent.
  const revealParents = (saved: Form) => expand(...(saved.country_id ? [`c${saved.country_id}`] : []), ...(saved.state_id ? [`s${saved.state_id}`] : []))

  if (loadError && tree.length === 0)
    return (
      <div role="alert" className="alert alert-error flex flex-col items-start">
        <h2 className="font-bold">Error Loading Data</h2>
        <p>{loadError}</p>
        <button type="button" className="btn btn-sm" onClick={reload}>
          Try Again
        </button>
      </div>
    )

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-base-content/70">{loading ? 'Loading geographic data...' : `${tree.length} countries`}</p>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing({ mode: 'create', level: 'country', parentLocked: false, values: empty })}>
          Add Country
        </button>
      </div>
      {loadError && (
        <div role="alert" className="alert alert-error">
          <span>{loadError}</span>
          <button type="button" className="btn btn-sm" onClick={reload}>
            Try Again
          </button>
        </div>
      )}

      {tree.length === 0 ? (
        <div className="card bg-base-100 shadow-sm">
          <div className="card-body items-center text-center">
            <h2 className="card-title">No Countries Found</h2>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing({ mode: 'create', level: 'country', parentLocked: false, values: empty })}>
              Add First Country
            </button>
          </div>
        </div>
      ) : (
        <ul className="space-y-2" aria-label="Countries">
          {tree.map((country) => {
            const ck = `c${country.id}`
            return (
              <li key={country.id} className="rounded-box border border-base-300 bg-base-100" data-country={country.name}>
                <Row
                  expanded={open.has(ck)}
                  onToggle={() => toggle(ck)}
                  title={country.name}
                  badge={country.code}
                  actions={[
                    ['Add State', () => (expand(ck), setEditing({ mode: 'create', level: 'state', parentLocked: true, values: { ...empty, country_id: country.id } }))],
                    ['Edit', () => setEditing({ mode: 'edit', level: 'country', id: country.id, parentLocked: false, values: { ...empty, name: country.name, code: country.code } })],
                    ['Delete', () => setDeleting({ level: 'country', id: country.id, name: country.name })],
                  ]}
                />
                {open.has(ck) && (
                  <ul className="border-t border-base-300 py-2 pl-6 pr-2" aria-label={`States of ${country.name}`}>
                    {country.states.length === 0 && <li className="px-2 py-1 text-sm text-base-content/60">No states found for this country.</li>}
                    {country.states.map((state) => {
                      const sk = `s${state.id}`
                      return (
                        <li key={state.id} data-state={state.name}>
                          <Row
                            expanded={open.has(sk)}
                            onToggle={() => toggle(sk)}
                            title={state.name}
                            badge={state.code}
                            actions={[
                              ['Add City', () => (expand(sk), setEditing({ mode: 'create', level: 'city', parentLocked: true, values: { ...empty, country_id: country.id, state_id: state.id } }))],
                              ['Edit', () => setEditing({ mode: 'edit', level: 'state', id: state.id, parentLocked: false, values: { ...empty, name: state.name, code: state.code, country_id: country.id } })],
                              ['Delete', () => setDeleting({ level: 'state', id: state.id, name: state.name })],
                            ]}
                          />
                          {open.has(sk) && (
                            <ul className="py-1 pl-8" aria-label={`Cities of ${state.name}`}>
                              {state.cities.length === 0 && <li className="px-2 py-1 text-sm text-base-content/60">No cities found for this state.</li>}
                              {state.cities.map((city) => (
                                <li key={city.id} data-city={city.name} className="flex flex-wrap items-center justify-between gap-2 rounded px-2 py-1 hover:bg-base-200">
                                  <div>
                                    <p>{city.name}</p>
                                    {city.newsco_region && <p className="text-xs text-base-content/60">NEWSCO: {city.newsco_region}</p>}
                                    <p className="text-xs text-base-content/70" data-city-tolerance={city.match_tolerance}>{`Match tolerance: ${city.match_tolerance} %`}</p>
                                    <p className="text-xs text-base-content/70" data-city-expiry={`${city.rent_days}/${city.sale_days}`}>{expirySummary(city)}</p>
                                  </div>
                                  <Actions
                                    label={city.name}
                                    actions={[
                                      ['Edit', () => setEditing({ mode: 'edit', level: 'city', id: city.id, parentLocked: false, values: { ...empty, name: city.name, newsco_region: city.newsco_region ?? '', country_id: country.id, state_id: state.id, match_tolerance: String(city.match_tolerance), ...expiryValues(city) } })],
                                      ['Delete', () => setDeleting({ level: 'city', id: city.id, name: city.name })],
                                    ]}
                                  />
                                </li>
                              ))}
                            </ul>
                          )}
                        </li>
                      )
                    })}
                  </ul>
                )}
              </li>
            )
          })}
        </ul>
      )}

      {editing && <GeoForm editing={editing} tree={tree} rules={rules[editing.level]} toleranceRules={toleranceRules} expiryRules={expiryRules} onClose={() => setEditing(null)} onSaved={(saved) => (setEditing(null), revealParents(saved), invalidate())} />}
      <DeleteDialog deleting={deleting} onClose={() => setDeleting(null)} onDeleted={() => (setDeleting(null), invalidate())} />
    </div>
  )
}

type Action = [label: string, run: () => void]

function Actions({ label, actions }: { label: string; actions: Action[] }) {
  return (
    <div className="flex flex-wrap gap-1">
      {actions.map(([name, run]) => (
        <button key={name} type="button" className={`btn btn-xs ${name === 'Delete' ? 'btn-ghost text-error' : 'btn-ghost'}`} aria-label={`${name} ${label}`} onClick={run}>
          {name}
        </button>
      ))}
    </div>
  )
}

function Row({ expanded, onToggle, title, badge, actions }: { expanded: boolean; onToggle: () => void; title: string; badge: string; actions: Action[] }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 px-2 py-2">
      <button type="button" className="flex items-center gap-2 text-left font-medium pointer-coarse:min-h-11" aria-expanded={expanded} onClick={onToggle}>
        <span aria-hidden="true" className={`inline-block transition-transform ${expanded ? 'rotate-90' : ''}`}>
          ▸
        </span>
        {title}
        <span className="badge badge-ghost badge-sm">{badge}</span>
      </button>
      <Actions label={title} actions={actions} />
    </div>
  )
}

type FormProps = { editing: Editing; tree: Country[]; rules: ObjectSchema; toleranceRules: ObjectSchema; expiryRules: ObjectSchema; onClose: () => void; onSaved: (values: Form) => void }

function GeoForm({ editing, tree, rules, toleranceRules, expiryRules, onClose, onSaved }: FormProps) {
  const { level, mode } = editing
  const [values, setValues] = useState(editing.values)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [banner, setBanner] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const set = (patch: Partial<Form>) => {
    setValues((v) => ({ ...v, ...patch }))
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in patch) && !(k === 'country_id' && 'state_id' in patch))))
  }

  function body(): Record<string, unknown> {
    if (level === 'country') return { name: values.name, code: values.code }
    if (level === 'state') return { name: values.name, code: values.code, country_id: values.country_id }
    return { name: values.name, state_id: values.state_id, newsco_region: values.newsco_region.trim() || null }
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setBanner(null)
    const payload = body()
    const found = checkForm(rules, payload)
    // A city's tolerance has a route of its own (PUT .../match-tolerance), called once the city itself is saved.
    const tolerance = level === 'city' ? parseTolerance(toleranceRules, values.match_tolerance) : null
    if (tolerance && 'error' in tolerance) found.match_tolerance = tolerance.error
    // Its listing expiry too (PUT .../listing-expiry), when either number changed.
    const expiry = level === 'city' ? parseExpiry(expiryRules, values) : null
    if (expiry && 'errors' in expiry) Object.assign(found, expiry.errors)
    setErrors(found)
    if (Object.keys(found).length) return
    setSaving(true)
    try {
      const path = `/api/geographic/${PATH[level]}${mode === 'edit' ? `/${editing.id}` : ''}`
      const saved = await api<{ id: number }>(path, { method: mode === 'edit' ? 'PUT' : 'POST', json: payload, retries: 0 })
      toast.success(`${LABEL[level]} ${mode === 'edit' ? 'updated' : 'created'} successfully`)
      if (tolerance && 'value' in tolerance && values.match_tolerance.trim() !== editing.values.match_tolerance) {
        // The city is saved either way: a failure here is told, and the form closes on the saved city.
        await saveTolerance(saved.id, tolerance.value).then(
          () => toast.success(`Match tolerance of ${values.name} set to ${tolerance.value} %`),
          (err) => toast.error(err instanceof ApiError && err.status ? err.message : 'The city was saved, but its match tolerance was not. Please try again.'),
        )
      }
      if (expiry && 'value' in expiry && (values.rent_days.trim() !== editing.values.rent_days || values.sale_days.trim() !== editing.values.sale_days)) {
        await saveExpiry(saved.id, expiry.value).then(
          () => toast.success(`Listing expiry of ${values.name} set: ${expiry.value.rent_days} days for rent, ${expiry.value.sale_days} for sale`),
          (err) => toast.error(err instanceof ApiError && err.status ? err.message : 'The city was saved, but its listing expiry was not. Please try again.'),
        )
      }
      onSaved(values)
    } catch (err) {
      const detail = err instanceof ApiError ? (err.body as { detail?: unknown })?.detail : undefined
      if (Array.isArray(detail)) setErrors(Object.fromEntries(detail.map((d: { loc: string[]; msg: string }) => [d.loc.at(-1), d.msg])))
      else setBanner(err instanceof ApiError && err.status ? err.message : 'Failed to save. Please try again.')
      setSaving(false)
    }
  }

  const geo: GeoValue = { country_id: values.country_id, state_id: values.state_id, city_id: null }
  const statesOf = (countryId: number | null) => tree.find((c) => c.id === countryId)?.states ?? []
  return (
    <Modal open title={`${mode === 'edit' ? 'Edit' : 'Add'} ${LABEL[level]}`} onClose={onClose}>
      <form noValidate onSubmit={submit} className="space-y-4">
        {banner && (
          <div role="alert" className="alert alert-error text-sm">
            {banner}
          </div>
        )}
        {level === 'state' && (
          <div>
            <label htmlFor="geo-form-country" className="label-text mb-1 block font-medium">
              Country
            </label>
            <select
              id="geo-form-country"
              className={`select select-bordered w-full ${errors.country_id ? 'select-error' : ''}`}
              value={values.country_id ?? ''}
              disabled={editing.parentLocked}
              onChange={(e) => set({ country_id: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">Select country</option>
              {tree.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            {errors.country_id && <p className="mt-1 text-sm text-error">{errors.country_id}</p>}
          </div>
        )}
        {level === 'city' && (
          <GeoSelect
            idPrefix="geo-form"
            depth="state"
            value={geo}
            locked={{ country_id: editing.parentLocked, state_id: editing.parentLocked }}
            errors={{ state_id: errors.state_id }}
            initial={{ countries: tree, states: statesOf(values.country_id) }}
            onChange={(v) => set({ country_id: v.country_id, state_id: v.state_id })}
          />
        )}
        <Field label="Name" error={errors.name}>
          <input name="name" className={`input input-bordered w-full ${errors.name ? 'input-error' : ''}`} value={values.name} onChange={(e) => set({ name: e.target.value })} autoFocus />
        </Field>
        {level !== 'city' ? (
          <Field label="Code" error={errors.code}>
            <input
              name="code"
              maxLength={10}
              className={`input input-bordered w-full uppercase ${errors.code ? 'input-error' : ''}`}
              value={values.code}
              onChange={(e) => set({ code: e.target.value.toUpperCase() })}
            />
          </Field>
        ) : (
          <>
            <Field label="NEWSCO Region (optional)" error={errors.newsco_region}>
              <input name="newsco_region" maxLength={50} className="input input-bordered w-full" value={values.newsco_region} onChange={(e) => set({ newsco_region: e.target.value })} />
            </Field>
            <ToleranceInput id="geo-form-match-tolerance" label="Match tolerance (%)" value={values.match_tolerance} error={errors.match_tolerance} onChange={(v) => set({ match_tolerance: v })} />
            <ExpiryInputs idPrefix="geo-form" rules={expiryRules} values={values} errors={errors} onChange={set} />
          </>
        )}
        <FormActions busy={saving} onCancel={onClose}>
          {mode === 'edit' ? 'Save Changes' : `Create ${LABEL[level]}`}
        </FormActions>
      </form>
    </Modal>
  )
}

function Field({ label, error, children }: { label: string; error?: string; children: React.ReactNode }) {
  return (
    <label className="block">
      <span className="label-text mb-1 block font-medium">{label}</span>
      {children}
      {error && <span className="mt-1 block text-sm text-error">{error}</span>}
    </label>
  )
}

/** Delete after confirmation; a refusal is shown with the server's reason (the original only logged it). */
function DeleteDialog({ deleting, onClose, onDeleted }: { deleting: Deleting | null; onClose: () => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const close = () => (setError(null), onClose())
  async function confirm() {
    if (!deleting) return
    setBusy(true)
    setError(null)
    try {
      await api(`/api/geographic/${PATH[deleting.level]}/${deleting.id}`, { method: 'DELETE', retries: 0 })
      toast.success(`${LABEL[deleting.level]} deleted successfully`)
      onDeleted()
    } catch (e) {
      const message = e instanceof ApiError && e.status ? e.message : 'Failed to delete. Please try again.'
      setError(message)
      toast.error(message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete ${deleting ? LABEL[deleting.level] : ''}`}
      message={`Are you sure you want to delete "${deleting?.name ?? ''}"? This action cannot be undone and may affect related data.`}
      confirmLabel="Delete"
      tone="error"
      busy={busy}
      error={error}
      onConfirm={confirm}
      onClose={close}
    />
  )
}
