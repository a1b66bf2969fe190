import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import type { MatchCounts } from '../../src/modules/matches/model'
import { fetchJson } from '../shared/query'
import { MATCH_QUERY_KEYS } from './match-format'

/** Each listing's count of matches by id; 'loading' while asked for; undefined when none will be shown. */
export type MatchCountsState = Readonly<Record<string, number>> | 'loading' | undefined

/** The API takes at most this many ids a call. */
const BATCH = 100

/**
 * The "3 matches" of each shown listing, asked once the table is on screen (never on the server: the server draws
 * each row with the count's place, empty, and the counts fill it a moment later), in one call per page of up to 100
 * rows (My Listings, which is not paged, may need more than one). Only ACTIVE listings match, so only theirs are asked
 * for. 'loading' while they are asked for (and on the server, whose render is the first one); undefined when there are
 * none to show (none ACTIVE, or the request failed).
 */
export function useMatchCounts(listings: readonly Listing[]): MatchCountsState {
  const ids = useMemo(() => listings.filter((l) => l.status === 'ACTIVE').map((l) => l.id), [listings])
  const query = useQuery({
    queryKey: [...MATCH_QUERY_KEYS.counts, ids],
    queryFn: async () => {
      const batches: number[][] = []
      for (let i = 0; i < ids.length; i += BATCH) batches.push(ids.slice(i, i + BATCH))
      const answers = await Promise.all(batches.map((b) => fetchJson<MatchCounts>(`/api/listings/match-counts?ids=${b.join(',')}`)))
      return Object.assign({}, ...answers.map((a) => a.counts)) as Record<string, number>
    },
    enabled: ids.length > 0,
  })
  if (query.data) return query.data
  return query.fetchStatus === 'fetching' ? 'loading' : undefined
}
