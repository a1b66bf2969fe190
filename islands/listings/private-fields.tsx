// The listing form's part of issue 35: who sees the listing (network, a circle, only me), the private fields only
// its broker and their city's admins see, and the contact's notes (shown to the network; a warning when it is an
// owner's phone kept private on another listing).
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { ContactCheckAnswer, PrivateFields } from '../../src/modules/listings/model'
import { fetchJson, sendJson } from '../shared/query'

export type PrivateValues = { owner_name: string; owner_phone: string; address: string; bottom_price: string; note: string }
export type VisibilityValues = { visibility: 'NETWORK' | 'CIRCLE' | 'ONLY_ME'; circle_id: string; onward_sharing: 'OFF' | 'NAMED' | 'ANONYMOUS' }
export const EMPTY_PRIVATE: PrivateValues = { owner_name: '', owner_phone: '', address: '', bottom_price: '', note: '' }
const PRIVATE_NAMES = Object.keys(EMPTY_PRIVATE) as (keyof PrivateValues)[]

type Circles = { circles: { id: number; name: string; members: { id: number }[] }[] }

/** The private fields as the form shows them (all empty when none are saved). */
export const privateValuesOf = (p: PrivateFields | null): PrivateValues =>
  p ? { owner_name: p.owner_name ?? '', owner_phone: p.owner_phone ?? '', address: p.address ?? '', bottom_price: p.bottom_price === null ? '' : String(p.bottom_price), note: p.note ?? '' } : EMPTY_PRIVATE

/** What the body sends of them: a new listing every filled one; an edit those changed (emptied: null). */
export function privatePayload(values: PrivateValues, initial: PrivateValues, editing: boolean): Record<string, string | number | null> | undefined {
  const out: Record<string, string | number | null> = {}
  for (const n of PRIVATE_NAMES) {
    const v = values[n].trim()
    if (editing ? v === initial[n].trim() : v === '') continue
    out[n] = v === '' ? null : n === 'bottom_price' ? Number(v) : v
  }
  return Object.keys(out).length ? out : undefined
}

/** The saved private fields of a listing being edited (its owner's, or an admin's of its city). */
export const usePrivateFields = (listingId: number | null) =>
  useQuery({ queryKey: ['listing-private', listingId], queryFn: () => fetchJson<PrivateFields>(`/api/listings/${listingId}/private`), enabled: listingId !== null, retry: false })

/**
 * Listings of the caller's own that keep this contact as an owner's private phone: asked a moment after the contact
 * stops changing (the server looks at the caller's own listings only).
 */
export function useContactCheck(contact: string) {
  const [found, setFound] = useState<{ contact: string; of: ContactCheckAnswer['private_owner_phone_of'] }>({ contact: '', of: [] })
  useEffect(() => {
    if (contact.trim().length < 5) return
    let live = true
    const timer = setTimeout(
      () =>
        sendJson<ContactCheckAnswer>('/api/listings/contact-check', 'POST', { contact_value: contact }).then(
          (a) => live && setFound({ contact, of: a.private_owner_phone_of }),
          () => {},
        ),
      400,
    )
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [contact])
  return found.contact === contact ? found.of : []
}

/** Under the contact field: what it is for, and the warning. */
export function ContactNote({ id, found }: { id: string; found: { id: number; entry_id: string }[] }) {
  return (
    <div className="sm:col-span-2 -mt-2 space-y-2 text-sm">
      <p id={id} className="text-base-content/70">
        The contact is shown to every broker who sees this listing. Keep the owner’s name and phone in the private fields below.
      </p>
      {found.length > 0 && (
        <div role="alert" className="alert alert-warning text-sm" data-private-contact>
          This looks like an owner’s phone you keep private on {found.map((f) => f.entry_id).join(', ')}. Shown here, the network sees it.
        </div>
      )}
    </div>
  )
}

type SectionProps = {
  idPrefix: string
  visibility: VisibilityValues
  onVisibility: (v: VisibilityValues) => void
  values: PrivateValues
  onChange: (name: keyof PrivateValues, value: string) => void
  errors: Record<string, string | undefined>
}

/** Who sees the listing, and the private fields. */
export function VisibilityAndPrivate({ idPrefix, visibility, onVisibility, values, onChange, errors }: SectionProps) {
  const id = (n: string) => `${idPrefix}-${n}`
  const circles = useQuery({ queryKey: ['circles'], queryFn: () => fetchJson<Circles>('/api/circles'), enabled: visibility.visibility === 'CIRCLE', retry: false })
  const input = (n: keyof PrivateValues, label: string, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="form-control">
      <label htmlFor={id(`private-${n}`)} className="label text-sm">
        {label}
      </label>
      <input
        id={id(`private-${n}`)}
        name={`private.${n}`}
        value={values[n]}
        onChange={(e) => onChange(n, e.target.value)}
        aria-invalid={!!errors[n]}
        className={`input input-bordered h-11 w-full ${errors[n] ? 'input-error' : ''}`}
        autoComplete="off"
        {...extra}
      />
      {errors[n] && <p className="mt-1 text-sm text-error">{errors[n]}</p>}
    </div>
  )
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="form-control">
        <label htmlFor={id('visibility')} className="label text-sm">
          Who sees this listing
        </label>
        <select
          id={id('visibility')}
          name="visibility"
          className="select select-bordered h-11 w-full"
          value={visibility.visibility}
          onChange={(e) => onVisibility({ ...visibility, visibility: e.target.value as VisibilityValues['visibility'] })}
        >
          <option value="NETWORK">Network (every broker)</option>
          <option value="CIRCLE">My circle</option>
          <option value="ONLY_ME">Only me</option>
        </select>
      </div>
      {visibility.visibility === 'CIRCLE' && (
        <div className="form-control">
          <label htmlFor={id('circle')} className="label text-sm">
            Circle
          </label>
          <select
            id={id('circle')}
            name="circle_id"
            className={`select select-bordered h-11 w-full ${errors.circle_id ? 'select-error' : ''}`}
            value={visibility.circle_id}
            aria-invalid={!!errors.circle_id}
            onChange={(e) => onVisibility({ ...visibility, circle_id: e.target.value })}
          >
            <option value="">{circles.data?.circles.length === 0 ? 'No circles yet' : 'Choose a circle'}</option>
            {circles.data?.circles.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.members.length})
              </option>
            ))}
          </select>
          {errors.circle_id && <p className="mt-1 text-sm text-error">{errors.circle_id}</p>}
        </div>
      )}
      <div className="form-control sm:col-span-2" data-onward-sharing>
        <label htmlFor={id('onward')} className="label text-sm">
          Other brokers may share it with their clients
        </label>
        <select
          id={id('onward')}
          name="onward_sharing"
          aria-describedby={id('onward-note')}
          className="select select-bordered h-11 w-full"
          value={visibility.onward_sharing}
          onChange={(e) => onVisibility({ ...visibility, onward_sharing: e.target.value as VisibilityValues['onward_sharing'] })}
        >
          <option value="OFF">No</option>
          <option value="NAMED">Yes, naming me as the listing broker</option>
          <option value="ANONYMOUS">Yes, without my name</option>
        </select>
        <p id={id('onward-note')} className="mt-1 text-sm text-base-content/70">
          Their client page shows their name and phone, never yours or the private fields below. Turned off later, their links stop working.
        </p>
      </div>
      <fieldset className="sm:col-span-2 rounded-box border border-base-300 p-3" data-private-fields>
        <legend className="px-1 text-sm font-semibold">Private: only you and your city’s admins see these</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {input('owner_name', 'Owner or client name')}
          {input('owner_phone', 'Owner or client phone', { inputMode: 'tel' })}
          {input('address', 'Exact address or unit')}
          {input('bottom_price', 'Bottom price', { type: 'number', min: 0, inputMode: 'numeric' })}
          <div className="form-control sm:col-span-2">
            <label htmlFor={id('private-note')} className="label text-sm">
              Private note
            </label>
            <textarea id={id('private-note')} name="private.note" rows={2} value={values.note} onChange={(e) => onChange('note', e.target.value)} className="textarea textarea-bordered w-full" />
          </div>
        </div>
      </fieldset>
    </div>
  )
}
