import { Elysia } from 'elysia'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { ShareLink, ShareLinkParams, ShareLinks as ShareLinksAnswer } from './model'
import type { ShareLinks } from './service'

const tags = ['Share links']
const errors = { 401: Detail, 403: Detail, 404: Detail }

/** Public links to a listing (issue 34): made, listed with their views, revoked by the broker who shares. */
export const shareLinksApi = (ctx: AppContext, links: ShareLinks) =>
  new Elysia({ name: 'share-links-api' })
    .use(authGuard(ctx))
    .post('/api/listings/:id/share-link', ({ params, user }) => links.linkFor(user, params.id), {
      permission: 'manage:listing:own',
      params: ShareLinkParams,
      response: { 200: ShareLink, ...errors },
      detail: {
        tags,
        summary: 'The caller’s public link to a listing (made the first time, the same one afterwards)',
        description:
          '`/l/<token>`: a page anyone with the link may open without signing in: the listing’s type, deal, price, size, locality, city, details and photos, and the caller’s name, verified badge, Call and WhatsApp buttons; never the contact, comments or reference stored with the listing. Not indexed by search engines. Answers 410 once the listing is closed, suspended, expired or deleted, or the link revoked. An ACTIVE or ON HOLD listing (403 otherwise): the caller’s own, or another broker’s that the caller sees (404 otherwise) and whose owner allows onward sharing (`onward_sharing` NAMED or ANONYMOUS; 403 with a `detail` saying so when OFF). An onward page shows the listing’s owner by name only when they chose NAMED, never their contact, and its details without phone numbers or email addresses; it answers 410 once the owner turns onward sharing off (their link is revoked then: turning it on again does not revive it) or the caller no longer sees the listing. Views count for the caller.',
      },
    })
    .get('/api/share-links', async ({ user }) => ({ links: await links.mine(user) }), {
      permission: 'read:listing:own',
      response: { 200: ShareLinksAnswer, 401: Detail, 403: Detail },
      detail: { tags, summary: 'The caller’s public links, with how often each page was opened' },
    })
    .delete(
      '/api/share-links/:id',
      async ({ params, user, set }) => {
        await links.revoke(user, params.id)
        set.status = 204
      },
      {
        permission: 'manage:listing:own',
        params: ShareLinkParams,
        response: { 204: NoContent('Revoked: the page answers 410 from now on'), ...errors },
        detail: { tags, summary: 'Revoke one of the caller’s public links' },
      },
    )
