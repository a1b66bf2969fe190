import type { QueryClient } from '@tanstack/react-query'
import type { Inbox } from '../../src/modules/matches/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { fetchJson } from '../shared/query'
import { useHydrated } from '../shared/useHydrated'
import { useLiveEvent } from '../shared/useLiveEvents'
import { useEffect } from 'react'
import { setAppBadge } from './app-badge'
import { NavCountBadge, useNavCount } from './NavCount'

/** The number of unseen matches, as the `matches` events set it. */
export const UNSEEN_MATCHES_KEY = ['matches', 'unseen-count'] as const

type Props = { /** The count when the page was rendered. */ initial: number }

export const fetchUnseenMatches = async () => (await fetchJson<Inbox>('/api/matches?unseen=1&per_page=10')).unseen

export function onMatches(data: unknown, queryClient: QueryClient) {
  const unseen = (data as { unseen?: unknown } | null)?.unseen
  if (typeof unseen === 'number') queryClient.setQueryData(UNSEEN_MATCHES_KEY, unseen)
}

/** The count of unseen matches beside 'Matches' in the navigation (every role), live from the user's event stream. */
export default function MatchesBadge({ initial }: Props) {
  const live = useLiveEvent('matches', onMatches)
  const liveCount = useNavCount({ queryKey: UNSEEN_MATCHES_KEY, fetchCount: fetchUnseenMatches, initial, live, pollMs: REFRESH_MS.unseenMatchesNav })
  // The header's bell follows the same events and may have filled the cache before this hydrates.
  const count = useHydrated() ? liveCount : initial
  // The app icon's badge says the same (issue 33).
  useEffect(() => setAppBadge(count), [count])
  const label = `${count} unseen ${count === 1 ? 'match' : 'matches'}`
  return <NavCountBadge count={count} label={label} tone="badge-primary" mark="data-matches-badge" />
}
