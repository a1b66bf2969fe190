import { useQuery } from '@tanstack/react-query'
import { REFRESH_MS } from '../../src/shared/constants'
import type { PendingApprovals } from '../../src/modules/users/model'
import { fetchJson } from '../shared/query'
import { PENDING_COUNT_KEY, PENDING_URL, usePendingStream } from '../users/usePendingStream'

type Props = { /** The count when the page was rendered. */ initial: number }

/**
 * The count of pending registrations beside 'User Approvals' in the navigation (admins only). It follows the live
 * stream, and polls every 30 s while the stream is down (SPEC section 9). Hidden at zero.
 */
export default function PendingBadge({ initial }: Props) {
  const connected = usePendingStream()
  const { data: count } = useQuery({
    queryKey: PENDING_COUNT_KEY,
    queryFn: async () => (await fetchJson<PendingApprovals>(PENDING_URL)).total,
    initialData: initial,
    refetchInterval: connected ? false : REFRESH_MS.pendingApprovalsNav,
  })
  // A failed poll keeps the last count: the badge is a hint, and the approvals page shows the error.
  if (!count) return null
  return (
    <span className="flex justify-end">
      <span className="badge badge-warning badge-sm" data-pending-badge aria-label={`${count} pending approvals`}>
        {count}
      </span>
    </span>
  )
}
