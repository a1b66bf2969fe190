import type { Server } from 'bun'
import type { AppContext } from '../../platform/http/context'
import { eventStream, type SendEvent, type StreamCaller } from '../../platform/http/sse'
import { can } from '../../platform/policy/permissions'
import { unseenCount } from '../matches/read'
import { expiringListings } from '../listings/reminders'
import { followSavedSearches } from '../saved-searches/alerts'
import { followPending } from '../users/stream'

/**
 * Follows the user's inbox of matches: sends `matches` with `{ unseen, new }` now (`new` empty) and whenever an entry
 * of theirs is announced (its id in `new`), seen or dismissed, or an edit elsewhere changes how many unseen ones still
 * hold. An event that would repeat the last count with nothing new is not sent.
 */
export function followMatches(ctx: AppContext, userId: number, send: SendEvent, end: () => void): () => void {
  let last: number | null = null
  const report = inOrder(async (created: number[]) => {
    const unseen = await unseenCount(ctx.db, userId)
    if (created.length === 0 && unseen === last) return
    last = unseen
    send('matches', { unseen, new: created })
  })
  const unsubscribe = ctx.matchEvents.subscribe((news) => {
    if (news.userId === userId) report(news.created)
    else if (news.userId === 'any') report([])
  }, end)
  report([])
  return unsubscribe
}

/**
 * Follows the owner's listings ending within 3 days (issue 17): sends `expiring` with `{ listings: [{ id, entry_id,
 * expires_at }] }` now, whenever a reminder of theirs is recorded (by any process), and when a change of one of their
 * listings changes that list (renewed, expired, closed).
 */
export function followExpiring(ctx: AppContext, userId: number, send: SendEvent, end: () => void): () => void {
  let last: string | null = null
  const report = inOrder(async (reminded: boolean) => {
    const listings = await expiringListings(ctx.db, userId)
    const text = JSON.stringify(listings)
    if (!reminded && text === last) return
    last = text
    send('expiring', { listings })
  })
  const unsubscribe = ctx.expiring.subscribe((news) => {
    if (news.userId === userId || news.userId === 'any') report(news.reminded)
  }, end)
  report(true)
  return unsubscribe
}

/**
 * One report at a time, in the order the news came: each is read asynchronously, and an older one must not be sent
 * after a newer one. A failed read is this stream's own (logged); the next news reads again.
 */
function inOrder<T>(report: (news: T) => Promise<void>): (news: T) => void {
  let reporting = Promise.resolve()
  return (news) => {
    reporting = reporting.then(() => report(news)).catch((err) => console.error('[events] a stream could not take its news:', err))
  }
}

/**
 * The signed-in user's one event stream (docs/decisions/009-live-events.md): `matches`, `expiring` and `saved_search` for everyone,
 * and `pending` for those who review registrations (the count of their scope, as GET /api/users/pending/stream sends it).
 */
export function userEvents(ctx: AppContext, caller: StreamCaller, request: Request, server: Server<unknown> | null): Response {
  const actor = caller.user
  return eventStream(request, server, ctx.sessionWatch, caller, (send, end) => {
    const releases = [followMatches(ctx, actor.id, send, end), followExpiring(ctx, actor.id, send, end), followSavedSearches(ctx.savedSearchAlerts, actor, send, end)]
    if (can(actor.role, 'read:user:city')) releases.push(followPending(ctx, actor, send, end))
    return () => releases.forEach((release) => release())
  })
}
