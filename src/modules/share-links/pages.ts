import { Elysia, t } from 'elysia'
import type { AppContext } from '../../platform/context'
import { dashboardPage } from '../../platform/pages/dashboard-page'
import { guardOf } from '../../platform/pages/nav'
import { SHARE_LINKS_PAGE } from '../../../islands/share-links/share-link-text'
import { PHOTO_NAME } from '../../shared/photo-url'
import type { ShareLinks } from './service'
import type { PhotoService } from '../photos/service'

const page = { detail: { hide: true } }
const TokenParams = t.Object({ token: t.String({ maxLength: 64 }) })

/**
 * The screen of one's own links (./share-links.page.tsx, loaded on its first request), and a public link's page and
 * its images (issue 34): no sign-in, no script. Images are public to the link (a client's
 * phone, a preview fetcher), kept a day by any cache: a revoked link's page is gone at once, its images within a day.
 */
export const shareLinkPages = (ctx: AppContext, links: ShareLinks, photos: PhotoService) =>
  new Elysia({ name: 'share-link-pages' })
    .get(
      SHARE_LINKS_PAGE,
      dashboardPage(ctx, 'Public links', async (user) => (await import('./share-links.page')).view(links, user), {
        ...guardOf(SHARE_LINKS_PAGE),
        current: SHARE_LINKS_PAGE,
        section: 'Public links',
        denied: 'Public links are for users who share listings.',
      }),
      page,
    )
    .get('/l/:token', async ({ params, request }) => (await import('./public-listing.page')).view(await links.view(params.token, { count: request.method === 'GET' }), ctx.config.publicUrl), {
      ...page,
      params: TokenParams,
    })
    .get(
      '/l/:token/photos/:name',
      async ({ params, set }) => {
        const blob = PHOTO_NAME.test(params.name) ? await links.photo(params.token, params.name) : null
        if (!blob) {
          set.status = 404
          return { detail: 'Not found' }
        }
        return new Response(blob, { headers: { 'content-type': 'image/webp', 'cache-control': 'public, max-age=86400, immutable', 'x-robots-tag': 'noindex' } })
      },
      { ...page, params: t.Object({ token: t.String({ maxLength: 64 }), name: t.String({ maxLength: 64 }) }) },
    )
    .get(
      '/l/:token/og.jpg',
      async ({ params, set }) => {
        const v = await links.view(params.token, { count: false })
        const card = v.state === 'live' ? await photos.coverCard(v.listing.id) : null
        if (!card) {
          set.status = 404
          return { detail: 'Not found' }
        }
        return new Response(card as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'image/jpeg', 'cache-control': 'public, max-age=86400', 'x-robots-tag': 'noindex' } })
      },
      { ...page, params: TokenParams },
    )
