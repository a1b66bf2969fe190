import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { PendingApprovals, User } from '../../src/modules/users/model'
import { REFRESH_MS } from '../../src/shared/constants'
import { ConfirmDialog } from '../shared/Modal'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import IdCardDialog from './IdCardDialog'
import { PENDING_COUNT_KEY, PENDING_KEY, PENDING_URL, usePendingStream } from './usePendingStream'

type PendingUser = PendingApprovals['pending_users'][number]
type Decision = { kind: 'approve' | 'reject'; user: PendingUser }

type Props = {
  /** The pending registrations when the page was rendered: the first view, with no request. */
  initial: PendingApprovals
  /** The server's clock at render (ms): the first paint's relative times, so hydration matches the server's HTML. */
  now: number
}

// SPEC section 2 "User Approvals" and section 8 "Approvals": every sentence of this screen, in one place.
const TEXT = {
  title: 'User Approvals',
  intro: 'Review and approve new user registrations. Manage access to the platform for new brokers.',
  loading: 'Loading pending users...',
  emptyTitle: 'All caught up!',
  empty: 'No pending user registrations at the moment.',
  emptyHint: 'New registrations will appear here automatically.',
  errorTitle: 'Error Loading Pending Users',
  errorFallback: 'Failed to load pending users',
  approved: (name: string) => `${name || 'User'} has been approved successfully!`,
  rejected: (name: string) => `${name || 'User'}'s registration has been rejected.`,
  approveFailed: 'Failed to approve user. Please try again.',
  rejectFailed: 'Failed to reject user. Please try again.',
} as const

const HOUR_MS = 3_600_000

/**
 * 'Just now' under an hour, 'Nh ago' under a day, 'Nd ago' under a week, else the full date and time
 * (in `timeZone`, the browser's own when not given).
 */
export function relativeTime(iso: string, now: number = Date.now(), timeZone?: string): string {
  const then = new Date(iso)
  const hours = Math.floor((now - then.getTime()) / HOUR_MS)
  if (hours < 1) return 'Just now'
  if (hours < 24) return `${hours}h ago`
  const days = Math.floor(hours / 24)
  if (days < 7) return `${days}d ago`
  return then.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone })
}

/**
 * The clock for relative times. The first render (server, then hydration) uses the server's instant and UTC, so
 * both produce the same text; after mounting it is the browser's clock and time zone, ticking each minute.
 */
function useClock(serverNow: number): { now: number; timeZone?: string } {
  const [clock, setClock] = useState<{ now: number; timeZone?: string }>({ now: serverNow, timeZone: 'UTC' })
  useEffect(() => {
    const tick = () => setClock({ now: Date.now() })
    tick()
    const timer = setInterval(tick, 60_000)
    return () => clearInterval(timer)
  }, [])
  return clock
}

/** The admin's queue of registrations waiting for approval, kept current by the live stream (or polling). */
export default function ApprovalsBoard({ initial, now: serverNow }: Props) {
  const queryClient = useQueryClient()
  const live = usePendingStream()
  const clock = useClock(serverNow)
  const query = useQuery({
    queryKey: PENDING_KEY,
    queryFn: () => fetchJson<PendingApprovals>(PENDING_URL),
    initialData: initial,
    // The stream says when something changed; only without it does the screen poll (SPEC section 9: 10 s).
    refetchInterval: live ? false : REFRESH_MS.pendingApprovalsScreen,
  })
  const data = query.data
  const total = data?.total ?? 0

  // The navigation badge shows the same number as this screen.
  useEffect(() => {
    if (data) queryClient.setQueryData(PENDING_COUNT_KEY, data.total)
  }, [data, queryClient])

  const [decision, setDecision] = useState<Decision | null>(null)
  const [reason, setReason] = useState('')
  const [decisionError, setDecisionError] = useState<string | null>(null)
  const [viewing, setViewing] = useState<{ user: PendingUser; open: boolean } | null>(null)
  // Issue 32: a registration with an ID card document is approved only once this admin has loaded it here.
  const [checked, setChecked] = useState<ReadonlySet<number>>(() => new Set())

  const close = () => (setDecision(null), setReason(''), setDecisionError(null))
  /** Takes the user off the list at once, then asks the server for the current list. */
  const settled = (user: PendingUser) => {
    queryClient.setQueryData<PendingApprovals>(PENDING_KEY, (d) =>
      d && d.pending_users.some((u) => u.id === user.id) ? { total: d.total - 1, pending_users: d.pending_users.filter((u) => u.id !== user.id) } : d,
    )
    void queryClient.invalidateQueries({ queryKey: PENDING_KEY, exact: true })
    void queryClient.invalidateQueries({ queryKey: ['users'] })
  }
  const failed = (message: string, error: Error) => {
    toast.error(message)
    // The server's reason (already approved, no longer in your city...) stays in the dialog; the list may be stale.
    setDecisionError(error.message || message)
    void queryClient.invalidateQueries({ queryKey: PENDING_KEY, exact: true })
  }

  const approve = useMutation({
    mutationFn: (user: PendingUser) => sendJson<User>(`/api/users/${user.id}/approve`, 'POST'),
    onSuccess: (_user, user) => (toast.success(TEXT.approved(user.full_name)), settled(user), close()),
    onError: (error) => failed(TEXT.approveFailed, error),
  })
  const reject = useMutation({
    mutationFn: ({ user, reason }: { user: PendingUser; reason: string }) =>
      sendJson<User>(`/api/users/${user.id}/reject${reason ? `?reason=${encodeURIComponent(reason)}` : ''}`, 'POST'),
    onSuccess: (_user, { user }) => (toast.info(TEXT.rejected(user.full_name)), settled(user), close()),
    onError: (error) => failed(TEXT.rejectFailed, error),
  })
  const busy = approve.isPending || reject.isPending

  const ask = (kind: Decision['kind'], user: PendingUser) => (setDecisionError(null), setReason(''), setDecision({ kind, user }))
  const name = decision?.user.full_name || 'this user'

  return (
    <div className="space-y-6" data-stream={live ? 'live' : 'polling'}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">{TEXT.title}</h1>
          <p className="mt-1 text-base-content/70">{TEXT.intro}</p>
        </div>
        <div className="flex items-center gap-2">
          <span className="badge badge-warning" data-pending-total>{pendingText(total)}</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            Refresh
          </button>
        </div>
      </div>

      {query.isError && (
        <div role="alert" className="alert alert-error flex flex-col items-start">
          <h2 className="font-bold">{TEXT.errorTitle}</h2>
          <p>{query.error.message || TEXT.errorFallback}</p>
          <button type="button" className="btn btn-sm" onClick={() => void query.refetch()}>
            Retry
          </button>
        </div>
      )}

      {!data ? (
        query.isFetching && <p className="text-base-content/70">{TEXT.loading}</p>
      ) : data.pending_users.length === 0 ? (
        <div className="card bg-base-100 shadow-sm">
          <div className="card-body items-center py-12 text-center">
            <h2 className="card-title text-success">{TEXT.emptyTitle}</h2>
            <p>{TEXT.empty}</p>
            <p className="text-sm text-base-content/60">{TEXT.emptyHint}</p>
          </div>
        </div>
      ) : (
        <ul className="space-y-3" aria-label="Pending registrations">
          {data.pending_users.map((user) => (
            <PendingCard
              key={user.id}
              user={user}
              registered={relativeTime(user.created_at, clock.now, clock.timeZone)}
              onApprove={() => ask('approve', user)}
              onReject={() => ask('reject', user)}
              onViewDocument={() => setViewing({ user, open: true })}
              mustCheck={!!user.id_card_document_url && !checked.has(user.id)}
            />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={decision?.kind === 'approve'}
        title="Approve User Registration"
        message={`Are you sure you want to approve ${name}? They will gain access to the platform and be able to log in.`}
        confirmLabel="Approve User"
        tone="primary"
        busy={busy}
        error={decisionError}
        onConfirm={() => decision && approve.mutate(decision.user)}
        onClose={() => !busy && close()}
      />
      <ConfirmDialog
        open={decision?.kind === 'reject'}
        title="Reject User Registration"
        message={
          <>
            {`Are you sure you want to reject ${name}? Their account will stay inactive and they will not be able to log in.`}
            <label className="mt-4 block">
              <span className="label-text mb-1 block font-medium">Reason (optional)</span>
              <textarea
                name="reason"
                className="textarea textarea-bordered w-full"
                rows={3}
                maxLength={500}
                value={reason}
                placeholder="Told to the applicant by email"
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
          </>
        }
        confirmLabel="Reject Registration"
        tone="error"
        busy={busy}
        error={decisionError}
        onConfirm={() => decision && reject.mutate({ user: decision.user, reason: reason.trim() })}
        onClose={() => !busy && close()}
      />
      {viewing && (
        <IdCardDialog
          open={viewing.open}
          onClose={() => setViewing({ ...viewing, open: false })}
          userId={viewing.user.id}
          fullName={viewing.user.full_name}
          onLoaded={() => setChecked((c) => new Set(c).add(viewing.user.id))}
        />
      )}
    </div>
  )
}

type CardProps = {
  user: PendingUser
  registered: string
  onApprove: () => void
  onReject: () => void
  onViewDocument: () => void
  /** Approve waits until the ID card document has been opened (issue 32), and says so. */
  mustCheck: boolean
}

/** '1 pending approval', '4 pending approvals'. */
export const pendingText = (n: number) => `${n} pending ${n === 1 ? 'approval' : 'approvals'}`

const MUST_CHECK = 'Open the ID card to approve'

function PendingCard({ user, registered, onApprove, onReject, onViewDocument, mustCheck }: CardProps) {
  const why = `approve-why-${user.id}`
  const place = [user.city_name, user.state_name].filter(Boolean).join(', ')
  return (
    <li className="card bg-base-100 shadow-sm" data-pending-user={user.email}>
      <div className="card-body flex-col gap-4 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-4">
          <div className="avatar avatar-placeholder">
            <div className="w-12 rounded-full bg-primary text-primary-content">
              <span className="text-lg font-semibold">{(user.full_name.trim().charAt(0) || '?').toUpperCase()}</span>
            </div>
          </div>
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold">{user.full_name}</h2>
              <span className="badge badge-warning badge-sm">Pending Approval</span>
            </div>
            <p className="break-all text-sm">{user.email}</p>
            {user.phone && <p className="text-sm">{user.phone}</p>}
            {place && <p className="text-sm text-base-content/70">{place}</p>}
            <p className="text-sm text-base-content/60">
              <time dateTime={user.created_at}>{`Registered ${registered}`}</time>
            </p>
            {(user.id_card_number || user.id_card_document_url) && (
              <div className="flex flex-wrap items-center gap-2 text-sm">
                {user.id_card_number && <span>{`ID Card: ${user.id_card_number}`}</span>}
                {user.id_card_document_url && (
                  <button type="button" className="btn btn-link btn-xs px-0" onClick={onViewDocument} aria-label={`View Document of ${user.full_name}`}>
                    View Document
                  </button>
                )}
              </div>
            )}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          {mustCheck && (
            <p id={why} className="w-full text-sm text-base-content/70 sm:text-right" data-approve-why>
              {MUST_CHECK}
            </p>
          )}
          <button
            type="button"
            className="btn btn-success btn-sm"
            onClick={onApprove}
            aria-label={`Approve ${user.full_name}`}
            disabled={mustCheck}
            aria-describedby={mustCheck ? why : undefined}
          >
            Approve
          </button>
          <button type="button" className="btn btn-outline btn-error btn-sm" onClick={onReject} aria-label={`Reject ${user.full_name}`}>
            Reject
          </button>
        </div>
      </div>
    </li>
  )
}
