import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { streamCaller } from '../../platform/http/sse'
import { userEvents } from './stream'

/**
 * The signed-in user's live events, one stream per page (docs/decisions/009-live-events.md): the events the features
 * registered, each described in the API document by its feature. Composed after them (src/app.ts).
 */
export const eventsApi = (ctx: AppContext) =>
  new Elysia({ name: 'events-api' }).use(authGuard(ctx)).get('/api/events', ({ user, headers, cookie, request, server }) => userEvents(ctx, streamCaller(user, headers, cookie), request, server), {
    signedIn: true,
    detail: {
      tags: ['Events'],
      summary: 'Your live events (server-sent events)',
      description: [
        '`text/event-stream`, one per signed-in user; it stays open. Events, each with one line of JSON:',
        ...ctx.features.events.map((e) => `- ${e.description}`),
        '- `session_ended` `{}`, the last: the session the stream was opened with ended (signed out here or elsewhere, the token rotated, the account deactivated, the password reset, the session expired). The stream closes within a second of that, whichever process or instance ended it; connecting again with that session is a 401.',
        'A change of your city (or role) closes the stream without `session_ended`: connect again for events of the new scope.',
      ].join('\n'),
      responses: { 200: { description: 'The event stream; it stays open', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
    },
  })
