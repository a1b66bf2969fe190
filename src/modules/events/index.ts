import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/http/context'
import { streamCaller } from '../../platform/http/sse'
import { userEvents } from './stream'

/** The signed-in user's live events, one stream per page (docs/decisions/009-live-events.md). */
export const eventsApi = (ctx: AppContext) =>
  new Elysia({ name: 'events-api' }).use(authGuard(ctx)).get('/api/events', ({ user, headers, cookie, request, server }) => userEvents(ctx, streamCaller(user, headers, cookie), request, server), {
    signedIn: true,
    detail: {
      tags: ['Events'],
      summary: 'Your live events (server-sent events)',
      description: [
        '`text/event-stream`, one per signed-in user; it stays open. Events, each with one line of JSON:',
        '- `matches` `{"unseen": N, "new": [ids]}` for everyone: on connect (`new` empty), and within a second of any change to your inbox made through any process: an entry announced to you (its id in `new`), seen or dismissed, or a listing edit that changes how many of your unseen matches still hold.',
        '- `expiring` `{"listings": [{"id", "entry_id", "expires_at"}]}` for everyone: your ACTIVE or ON_HOLD listings ending within 3 days, soonest first; on connect, whenever a reminder of one of them is recorded (the mail goes out 3 days before an end), and when a change of one of your listings changes the list (renewed, expired).',
        '- `saved_search` `{"id", "name", "listing": {"id", "entry_id"}}` for everyone with an INSTANT saved search: a listing you may see (not yours) was posted, repriced or put back on the market and that search lets it through, within a second of the write made through any process.',
        '- `pending` `{"total": N}` for master and module admins: the registrations waiting for approval in your scope, on connect and whenever one is created, approved or rejected (as `GET /api/users/pending/stream`).',
        '- `session_ended` `{}`, the last: the session the stream was opened with ended (signed out here or elsewhere, the token rotated, the account deactivated, the password reset, the session expired). The stream closes within a second of that, whichever process or instance ended it; connecting again with that session is a 401.',
        'A change of your city (or role) closes the stream without `session_ended`: connect again for events of the new scope.',
      ].join('\n'),
      responses: { 200: { description: 'The event stream; it stays open', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
    },
  })
