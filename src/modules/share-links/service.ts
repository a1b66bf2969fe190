import type { Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { forbidden, notFound } from '../../platform/errors'
import { getListing, listingForLink, type Viewer } from '../listings/store/read'
import type { Listing } from '../listings/model'
import { brokerCard, type BrokerCard } from '../users/store'
import type { PhotoRow, PhotoService } from '../photos/service'
import type { ShareLink } from './model'
import { countView, insertShare, liveShare, revokeShare, shareByToken, sharesOf, type ShareRow } from './store'

/** The statuses a public page shows; any other (closed, suspended, expired) and a deleted listing answer 410. */
const LIVE = new Set(['ACTIVE', 'ON_HOLD'])
/** 128 random bits, base64url: 22 characters nobody guesses. */
const newToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')
export const TOKEN = /^[A-Za-z0-9_-]{22}$/

/** What the public page shows, or why it shows nothing. */
export type PublicView =
  | { state: 'live'; share: ShareRow; listing: Listing; sharer: BrokerCard; photos: PhotoRow[] }
  | { state: 'gone' }
  | { state: 'unknown' }

/**
 * Public links to a listing (issue 34): a broker makes one for a listing of their own; its page shows the listing and
 * the sharer's name and contact, never the owner's private contact, comments or reference. One live link per sharer
 * and listing, reused. Another broker's listing is not offered here: the owner's permission to share it onward is
 * not recorded yet.
 */
export class ShareLinks {
  constructor(
    private readonly ctx: Pick<AppContext, 'db' | 'config'>,
    private readonly photos: PhotoService,
  ) {}

  private get db(): Queryable {
    return this.ctx.db
  }

  toAnswer = (s: ShareRow): ShareLink => ({
    id: s.id,
    url: `${this.ctx.config.publicUrl}/l/${s.token}`,
    listing_id: s.listingId,
    views: s.views,
    created_at: new Date(s.createdAt).toISOString(),
    revoked_at: s.revokedAt === null ? null : new Date(s.revokedAt).toISOString(),
  })

  /** The caller's live link to the listing, made when there is none. Their own listing only (403 otherwise). */
  async linkFor(actor: Viewer, listingId: number): Promise<ShareLink> {
    const listing = await getListing(this.db, actor, listingId)
    if (listing.owner_user_id !== actor.id) throw forbidden('A public link can be made for your own listings only')
    if (!LIVE.has(listing.status)) throw forbidden('Only an ACTIVE or ON HOLD listing can be shared with a client')
    return this.toAnswer((await liveShare(this.db, actor.id, listingId)) ?? (await insertShare(this.db, newToken(), listingId, actor.id, Date.now())))
  }

  /** The live link to share in the WhatsApp text, when the caller may make one; null otherwise. */
  async linkIfOwn(actor: Viewer, listing: Listing): Promise<string | null> {
    if (listing.owner_user_id !== actor.id || !LIVE.has(listing.status)) return null
    return (await this.linkFor(actor, listing.id)).url
  }

  async mine(actor: Viewer): Promise<ShareLink[]> {
    return (await sharesOf(this.db, actor.id)).map(this.toAnswer)
  }

  async revoke(actor: Viewer, id: number): Promise<void> {
    if (!(await revokeShare(this.db, id, actor.id, Date.now()))) throw notFound('Link not found')
  }

  /** The page's content for a token; a view counted when `count`. */
  async view(token: string, { count }: { count: boolean }): Promise<PublicView> {
    if (!TOKEN.test(token)) return { state: 'unknown' }
    const share = await shareByToken(this.db, token)
    if (!share) return { state: 'unknown' }
    if (share.revokedAt !== null) return { state: 'gone' }
    const listing = await listingForLink(this.db, share.listingId)
    const sharer = await brokerCard(this.db, share.sharerUserId)
    if (!listing || !LIVE.has(listing.status) || !sharer) return { state: 'gone' }
    if (count) await countView(this.db, share.id)
    return { state: 'live', share, listing, sharer, photos: await this.photos.photosForLink(listing.id) }
  }

  /** A photo of a live link's listing; null when the link is dead or the name none of its photos'. */
  async photo(token: string, name: string): Promise<Blob | null> {
    const v = await this.view(token, { count: false })
    return v.state === 'live' ? this.photos.fileForLink(v.listing.id, name) : null
  }
}
