import { Elysia } from 'elysia'
import type { AppContext } from '../../platform/context'
import type { PhotoService } from '../photos/service'
import { shareLinksApi } from './api'
import { shareLinkPages } from './pages'
import { ShareLinks } from './service'

/**
 * Public links to a listing for a broker's client (issue 34): `/l/<token>`, server-rendered, no sign-in. The intake
 * feature's WhatsApp text links there when the sharer owns the listing.
 */
export function shareLinksFeature(ctx: AppContext, uses: { photos: PhotoService }) {
  const links = new ShareLinks(ctx, uses.photos)
  return { links, plugin: new Elysia({ name: 'share-links' }).use(shareLinksApi(ctx, links)).use(shareLinkPages(ctx, links, uses.photos)) }
}
