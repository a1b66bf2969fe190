// The live count of pending registrations: one Server-Sent Events connection per page, shared by every island that
// asks for it (the approvals board and the navigation badge). While it is not connected, callers poll instead.
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { atom, useAtomValue, useStore } from 'jotai'
import { useEffect } from 'react'

/** The pending list (the board's query); its prefix also covers the count. */
export const PENDING_KEY = ['pending-approvals'] as const
/** Just the number, for the navigation badge. */
export const PENDING_COUNT_KEY = ['pending-approvals', 'count'] as const
export const PENDING_URL = '/api/users/pending/approvals'
export const PENDING_STREAM_URL = '/api/users/pending/stream'

/** How long to wait before opening a new stream when the browser gave up on one (a refusal, a server restart). */
const REOPEN_MS = 30_000

/** Whether the stream is open now. Callers poll while it is false. */
export const pendingStreamConnectedAtom = atom(false)

type Store = ReturnType<typeof useStore>

// One connection per page, counted by its users: opened by the first, closed by the last.
let users = 0
let source: EventSource | null = null
let reopenTimer: ReturnType<typeof setTimeout> | undefined
// The first message of the page's first connection only confirms what the server rendered.
let firstMessage = true

const totalOf = (data: string): number | null => {
  try {
    const total = (JSON.parse(data) as { total?: unknown }).total
    return typeof total === 'number' ? total : null
  } catch {
    return null
  }
}

function open(store: Store, queryClient: QueryClient) {
  const es = new EventSource(PENDING_STREAM_URL)
  source = es
  es.addEventListener('open', () => store.set(pendingStreamConnectedAtom, true))
  es.addEventListener('pending', (event) => {
    const total = totalOf((event as MessageEvent<string>).data)
    const known = queryClient.getQueryData<number>(PENDING_COUNT_KEY)
    if (total !== null) queryClient.setQueryData(PENDING_COUNT_KEY, total)
    // Unchanged on arrival: the list the page was rendered with is current, so it is not fetched again.
    const confirmsRender = firstMessage && total !== null && total === known
    firstMessage = false
    if (!confirmsRender) void queryClient.invalidateQueries({ queryKey: PENDING_KEY, exact: true })
  })
  es.addEventListener('error', () => {
    // The browser reconnects by itself after a dropped connection; meanwhile the callers poll.
    store.set(pendingStreamConnectedAtom, false)
    if (es.readyState !== EventSource.CLOSED) return
    // Closed for good (an error status, a wrong content type): try again later, still polling in between.
    source = null
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined
      if (users > 0 && !source) open(store, queryClient)
    }, REOPEN_MS)
  })
}

function close(store: Store) {
  clearTimeout(reopenTimer)
  reopenTimer = undefined
  source?.close()
  source = null
  store.set(pendingStreamConnectedAtom, false)
}

/**
 * Follows the pending registrations live: each `pending` event refreshes the list and sets the count.
 * Returns whether the stream is connected (the caller's fallback polling runs while it is not).
 */
export function usePendingStream(): boolean {
  const store = useStore()
  const queryClient = useQueryClient()
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    users++
    if (!source && !reopenTimer) open(store, queryClient)
    return () => {
      users--
      if (users === 0) close(store)
    }
  }, [store, queryClient])
  return useAtomValue(pendingStreamConnectedAtom)
}
