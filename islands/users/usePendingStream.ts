// The live count of pending registrations: the `pending` events of the user's stream (islands/shared/useLiveEvents),
// shared by every island that asks for it (the approvals board and the navigation badge).
import type { QueryClient } from '@tanstack/react-query'
import { useLiveEvent } from '../shared/useLiveEvents'

/** The pending list (the board's query); its prefix also covers the count. */
export const PENDING_KEY = ['pending-approvals'] as const
/** Just the number, for the navigation badge. */
export const PENDING_COUNT_KEY = ['pending-approvals', 'count'] as const
export const PENDING_URL = '/api/users/pending/approvals'

// The first event of the page only confirms what the server rendered.
let firstEvent = true

function onPending(data: unknown, queryClient: QueryClient) {
  const total = (data as { total?: unknown } | null)?.total
  const known = queryClient.getQueryData<number>(PENDING_COUNT_KEY)
  if (typeof total === 'number') queryClient.setQueryData(PENDING_COUNT_KEY, total)
  // Unchanged on arrival: the list the page was rendered with is current, so it is not fetched again.
  const confirmsRender = firstEvent && typeof total === 'number' && total === known
  firstEvent = false
  if (!confirmsRender) void queryClient.invalidateQueries({ queryKey: PENDING_KEY, exact: true })
}

/**
 * Follows the pending registrations live: each `pending` event refreshes the list and sets the count.
 * Returns whether the stream is connected (the caller's fallback polling runs while it is not).
 */
export function usePendingStream(): boolean {
  return useLiveEvent('pending', onPending)
}
