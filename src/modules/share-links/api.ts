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
        summary: 'The caller’s public link to their own listing (made the first time, the same one afterwards)',
        description:
          '`/l/<token>`: a page anyone with the link may open without signing in: the listing’s type, deal, price, size, locality, city, details and photos, and the caller’s name, verified badge, Call and WhatsApp buttons; never the contact, comments or reference stored with the listing. Not indexed by search engines. Answers 410 once the listing is closed, suspended, expired or deleted, or the link revoked. The caller’s own ACTIVE or ON HOLD listings only (403 otherwise; another broker’s hidden listing 404).',
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
