import { useQuery, type QueryClient } from '@tanstack/react-query'
import { useHydrated } from '../shared/useHydrated'
import { useLiveEvent } from '../shared/useLiveEvents'
import { NavCountBadge } from './NavCount'

/** How many of the user's listings end within 3 days, as the `expiring` events set it (issue 17's reminder). */
export const EXPIRING_COUNT_KEY = ['listings', 'expiring-count'] as const

export function onExpiring(data: unknown, queryClient: QueryClient) {
  const listings = (data as { listings?: unknown } | null)?.listings
  if (Array.isArray(listings)) queryClient.setQueryData(EXPIRING_COUNT_KEY, listings.length)
}

/**
 * The count beside 'My Listings' in the navigation: listings ending within 3 days, renewable there. Set by the event
 * stream alone (on connect, at each reminder, when one is renewed): a hint, so nothing polls while it is down.
 */
export default function ExpiringBadge() {
  useLiveEvent('expiring', onExpiring)
  const { data = 0 } = useQuery({ queryKey: EXPIRING_COUNT_KEY, queryFn: () => 0, initialData: 0, enabled: false })
  // The header's bell follows the same events and may have filled the cache before this hydrates.
  const count = useHydrated() ? data : 0
  const label = `${count} of your listings ${count === 1 ? 'expires' : 'expire'} within 3 days`
  // Its meaning in words, not only in a tooltip (phones have no hover: issue 32).
  return <NavCountBadge count={count} label={label} text={`${count} expiring`} tone="badge-warning" mark="data-expiring-badge" />
}
