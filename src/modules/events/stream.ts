import type { Server } from 'bun'
import type { AppContext } from '../../platform/context'
import { eventStream, type StreamCaller } from '../../platform/http/sse'

/**
 * The signed-in user's one event stream (docs/decisions/009-live-events.md): every event the features registered
 * (src/platform/features.ts) that is for this user, each followed until the stream ends. Which events there are, and
 * who gets each, is the features' to say: `matches`, `expiring` and `saved_search` for everyone, and `pending` for those
 * who review registrations.
 */
export function userEvents(ctx: AppContext, caller: StreamCaller, request: Request, server: Server<unknown> | null): Response {
  return eventStream(request, server, ctx.sessionWatch, caller, (send, end) => {
    const releases = ctx.features.events.map((e) => e.follow(caller.user, send, end)).filter((release) => release !== null)
    return () => releases.forEach((release) => release())
  })
}
