import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import type { ListingMatches } from '../../src/modules/matches/model'
import { ApiError } from '../shared/api'
import { LoadError } from '../shared/LoadError'
import { Pagination, showingText } from '../shared/Pagination'
import { fetchJson } from '../shared/query'
import { MatchCard } from './MatchCard'
import { MATCH_QUERY_KEYS, MATCH_TEXT } from './match-format'
import { useDealActions } from '../deals/useDealActions'

const PER_PAGE = 10

/**
 * The Matches tab of a listing's details (any listing, own or others'): its matches best first, ten at a time. A broker
 * (`cobrokeAs`) gets "I have a client for this" on each counterpart, as in the inbox, naming this listing as theirs when
 * it is; its dialog opens over the details.
 */
export function ListingMatchesTab({ listing, cobrokeAs = null }: { listing: Listing; cobrokeAs?: number | null }) {
  const [page, setPage] = useState(1)
  const deals = useDealActions(cobrokeAs)
  const mine = cobrokeAs !== null && listing.owner_user_id === cobrokeAs ? listing : null
  const query = useQuery({
    queryKey: [...MATCH_QUERY_KEYS.listing, listing.id, page],
    queryFn: () => fetchJson<ListingMatches>(`/api/listings/${listing.id}/matches?page=${page}&per_page=${PER_PAGE}`),
    placeholderData: keepPreviousData,
  })
  const data = query.data

  if (query.isError && !data)
    return (
      <LoadError
        title={MATCH_TEXT.loadFailed}
        message={query.error instanceof ApiError && query.error.status ? query.error.message : null}
        onRetry={() => void query.refetch()}
        heading="h3"
      />
    )
  if (!data)
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-base-content/70" role="status">
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
        Loading matches...
      </p>
    )
  if (data.total === 0)
    return (
      <div className="py-6 text-center" data-empty>
        <h3 className="font-semibold">No matches</h3>
        <p className="mt-1 text-sm text-base-content/70">{listing.status === 'ACTIVE' ? MATCH_TEXT.tabEmpty : MATCH_TEXT.tabInactive}</p>
      </div>
    )

  const totalPages = Math.ceil(data.total / data.per_page)
  return (
    <>
      <div className={`space-y-3 transition-opacity ${query.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={query.isFetching || undefined} data-listing-matches={listing.entry_id}>
        <ul className="space-y-3" aria-label={`Matches of ${listing.entry_id}`}>
          {data.matches.map((m) => (
            <li key={m.listing.id}>
              <MatchCard listing={m.listing} score={m.score} reasons={m.reasons} actions={deals.button(m.listing, mine)} />
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-base-content/70">{showingText(data.page, data.per_page, data.total, data.total === 1 ? 'match' : 'matches')}</p>
          <Pagination page={data.page} totalPages={totalPages} onPage={setPage} label="Match pages" />
        </div>
      </div>
      {deals.dialogs}
    </>
  )
}
