import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { LocalityDecisionBody, LocalityOffers as Offers } from '../../src/modules/intake/model'
import { LOCATION_ZONES } from '../../src/shared/constants'
import { ApiError } from '../shared/api'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'

export type LocalityOffersProps = { cityName: string }

const KEY = ['locality-offers'] as const
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/**
 * Issue 30, on a module admin's dashboard: the places the city's listings use often enough (GET /api/localities/offers),
 * each to add as one of the city's localities with its zone, or to dismiss (POST /api/localities). An added one is
 * known to the WhatsApp parser, spelling and zone, at once.
 */
export default function LocalityOffers({ cityName }: LocalityOffersProps) {
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: KEY, queryFn: () => fetchJson<Offers>('/api/localities/offers') })
  const [zones, setZones] = useState<Record<string, string>>({})
  const decide = useMutation({
    mutationFn: (body: LocalityDecisionBody) => sendJson('/api/localities/', 'POST', body),
    meta: { handled: true },
    onSuccess: (_, body) => {
      toast.success(body.decision === 'ACCEPT' ? `${body.name} added to ${cityName}` : `${body.name} dismissed`)
      queryClient.setQueryData<Offers>(KEY, (old) => old && { ...old, offers: old.offers.filter((o) => o.name !== body.name) })
    },
    onError: (error) => toast.error(error instanceof ApiError ? error.message : 'The locality could not be saved'),
  })
  const offers = query.data?.offers ?? []
  const titleId = 'locality-offers-title'
  return (
    <section aria-labelledby={titleId} className="card mt-6 bg-base-100 shadow-sm" data-locality-offers>
      <div className="card-body gap-3 p-4 sm:p-6">
        <h2 id={titleId} className="card-title text-lg">
          New localities in {cityName}
        </h2>
        <p className="text-sm text-base-content/70">
          Places {plural(query.data?.offer_at ?? 3, 'listing')} or more of your city use, that are not among its localities yet: add one with its zone, and pasted
          WhatsApp messages are read with its spelling and zone; or dismiss it.
        </p>
        {query.isPending ? (
          <p className="text-sm" role="status">
            <span className="loading loading-spinner loading-sm mr-2" aria-hidden="true" />
            Loading…
          </p>
        ) : query.isError ? (
          <p role="alert" className="text-sm text-error">
            The localities could not be loaded.
          </p>
        ) : offers.length === 0 ? (
          <p className="text-sm" data-no-offers>
            No new locality to decide on.
          </p>
        ) : (
          <ul className="divide-y divide-base-300">
            {offers.map((o, i) => {
              const zoneId = `offer-zone-${i}`
              const zone = zones[o.name] ?? o.zone ?? ''
              return (
                <li key={o.name} className="flex flex-wrap items-end gap-3 py-3" data-offer={o.name}>
                  <div className="min-w-0 grow basis-48">
                    <p className="font-medium [overflow-wrap:anywhere]">{o.name}</p>
                    <p className="text-sm text-base-content/70">
                      {plural(o.listings, 'listing')}
                      {o.spellings.length > 1 && `, also written ${o.spellings.filter((s) => s !== o.name).join(', ')}`}
                    </p>
                  </div>
                  <div className="form-control">
                    <label htmlFor={zoneId} className="label-text mb-1 text-xs font-medium uppercase tracking-wide text-base-content/60">
                      Zone
                    </label>
                    <select id={zoneId} className="select select-bordered select-sm max-sm:h-11" value={zone} onChange={(e) => setZones((z) => ({ ...z, [o.name]: e.target.value }))}>
                      <option value="">No zone</option>
                      {LOCATION_ZONES.map((z) => (
                        <option key={z} value={z}>
                          {z}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm max-sm:h-11 max-sm:min-h-11"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ name: o.name, decision: 'ACCEPT', zone: (zone || null) as LocalityDecisionBody['zone'] })}
                  >
                    Add<span className="sr-only"> {o.name}</span>
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm max-sm:h-11 max-sm:min-h-11" disabled={decide.isPending} onClick={() => decide.mutate({ name: o.name, decision: 'DISMISS' })}>
                    Dismiss<span className="sr-only"> {o.name}</span>
                  </button>
                </li>
              )
            })}
          </ul>
        )}
      </div>
    </section>
  )
}
