import type { PendingApprovals } from '../../src/modules/users/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { fetchJson } from '../shared/query'
import { PENDING_COUNT_KEY, PENDING_URL, usePendingStream } from '../users/usePendingStream'
import { NavCountBadge, useNavCount } from './NavCount'

type Props = { /** The count when the page was rendered. */ initial: number }

const fetchCount = async () => (await fetchJson<PendingApprovals>(PENDING_URL)).total

/** The count of pending registrations beside 'User Approvals' in the navigation (admins only). */
export default function PendingBadge({ initial }: Props) {
  const live = usePendingStream()
  const count = useNavCount({ queryKey: PENDING_COUNT_KEY, fetchCount, initial, live, pollMs: REFRESH_MS.pendingApprovalsNav })
  return <NavCountBadge count={count} label={`${count} pending ${count === 1 ? 'approval' : 'approvals'}`} tone="badge-warning" mark="data-pending-badge" />
}
