import type { Server } from 'bun'
import type { Actor } from '../../platform/http/auth'
import { scopeOf } from '../../platform/policy/scope'
import type { AppContext } from '../../platform/context'
import { eventStream, type SendEvent, type StreamCaller } from '../../platform/http/sse'
import type { PendingEvents, PendingScope } from './events'
import { countPending } from './store/read'

/**
 * Follows the registrations pending in the admin's scope: sends `pending` with `{ total }` now and at every
 * registration, approval and rejection that concerns them. Returns the unsubscribe.
 */
export function followPending(ctx: AppContext, pending: PendingEvents, actor: Pick<Actor, 'id' | 'role' | 'cityId'>, send: SendEvent, end: () => void): () => void {
  const scope = scopeOf(actor, 'user')
  const inScope = (cityId: PendingScope) => scope.kind === 'all' || cityId === 'any' || (scope.kind === 'city' && cityId === scope.cityId)
  // Counts may answer out of order (another backend, a slow one): an answer older than the last one sent is dropped.
  let asked = 0
  let sent = 0
  const count = () => {
    const turn = ++asked
    countPending(ctx.db, actor).then(
      (total) => {
        if (turn < sent) return
        sent = turn
        send('pending', { total })
      },
      (err) => console.error('[events] could not count pending registrations:', err),
    )
  }
  const unsubscribe = pending.subscribe((cityId) => inScope(cityId) && count(), end)
  count()
  return unsubscribe
}

/**
 * Server-sent events with the number of registrations pending in the admin's scope: once on connect, then at
 * every change that concerns them. The pages follow GET /api/events (the same `pending` events); this one stays
 * for scripts that used it.
 */
export function pendingStream(ctx: AppContext, pending: PendingEvents, caller: StreamCaller, request: Request, server: Server<unknown> | null) {
  return eventStream(request, server, ctx.sessionWatch, caller, (send, end) => followPending(ctx, pending, caller.user, send, end))
}
