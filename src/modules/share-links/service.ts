import type { Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { forbidden, notFound } from '../../platform/errors'
import { brokersWhoSee, getListing, listingForLink, listingsByIds, type Viewer } from '../listings/store/read'
import type { Listing } from '../listings/model'
import type { ListingParts } from '../listings/after-write'
import { brokerCard, type BrokerCard } from '../users/store'
import type { PhotoRow, PhotoService } from '../photos/service'
import { forClient } from './for-client'
import type { MyShareLink, ShareLink } from './model'
import { countView, insertShare, revokeOnward, liveShare, revokeShare, shareByToken, sharesOf, type ShareRow } from './store'

/** The statuses a public page shows; any other (closed, suspended, expired) and a deleted listing answer 410. */
const LIVE = new Set(['ACTIVE', 'ON_HOLD'])
/** 128 random bits, base64url: 22 characters nobody guesses. */
const newToken = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64url')
export const TOKEN = /^[A-Za-z0-9_-]{22}$/

/** The caller may make a public link of the listing: theirs, or another's whose owner allows it (issue 34). */
const mayShare = (actor: Viewer, l: Listing) => l.owner_user_id === actor.id || l.onward_sharing !== 'OFF'

/**
 * What the public page shows, or why it shows nothing. `onward`: the sharer is not the listing's owner (issue 34);
 * `lister` then the owner's name and badge when they chose to be named (NAMED), never a contact; null otherwise.
 */
export type PublicView =
  | { state: 'live'; share: ShareRow; listing: Listing; sharer: BrokerCard; photos: PhotoRow[]; onward: boolean; lister: { fullName: string; verified: boolean } | null }
  | { state: 'gone' }
  | { state: 'unknown' }

/**
 * Public links to a listing (issue 34): a broker makes one for a listing of their own, or for another broker's that
 * they see and whose owner allows onward sharing (`onward_sharing` NAMED or ANONYMOUS); its page shows the listing and
 * the sharer's name and contact, never the owner's contact, comments, reference or private fields, nor the owner's
 * name when they chose ANONYMOUS. One live link per sharer and listing, reused. An onward link lives while the owner's
 * consent does: withdrawn, the links are revoked (`parts`) and the page answers 410 (checked again at each view).
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

  /**
   * The caller's live link to the listing, made when there is none: their own listing, or another broker's that they
   * see (404 otherwise) and whose owner allows onward sharing (403 otherwise, saying so).
   */
  async linkFor(actor: Viewer, listingId: number): Promise<ShareLink> {
    const listing = await getListing(this.db, actor, listingId)
    if (!mayShare(actor, listing)) throw forbidden('The broker who posted this listing has not allowed other brokers to share it with clients: share your own listings, or ask them')
    if (!LIVE.has(listing.status)) throw forbidden('Only an ACTIVE or ON HOLD listing can be shared with a client')
    return this.toAnswer((await liveShare(this.db, actor.id, listingId)) ?? (await insertShare(this.db, newToken(), listingId, actor.id, Date.now())))
  }

  /**
   * The live link to share in the WhatsApp text, when the caller may make one, with the listing as the client may read
   * it (another broker's: `forClient`); null otherwise.
   */
  async linkIfAllowed(actor: Viewer, listing: Listing): Promise<{ url: string; listing: Listing } | null> {
    if (!mayShare(actor, listing) || !LIVE.has(listing.status)) return null
    const { url } = await this.linkFor(actor, listing.id)
    return { url, listing: listing.owner_user_id === actor.id ? listing : (await this.forClient(listing)).shown }
  }

  /**
   * Another broker's listing for a client (./for-client.ts): the owner's own words may carry their number, address or,
   * when they chose ANONYMOUS, their name; the client calls the sharing broker. With the owner's card (null if gone).
   */
  private async forClient(listing: Listing): Promise<{ shown: Listing; owner: BrokerCard | null }> {
    const owner = await brokerCard(this.db, listing.owner_user_id)
    return { shown: forClient(listing, owner?.fullName ?? null), owner }
  }

  /** The caller's links, each with its listing as they see it now and whether its page opens (the rules of `view`). */
  async mine(actor: Viewer): Promise<MyShareLink[]> {
    const shares = await sharesOf(this.db, actor.id)
    const listings = await listingsByIds(this.db, actor, [...new Set(shares.map((s) => s.listingId))])
    return Promise.all(
      shares.map(async (s) => {
        const l = listings.get(s.listingId)
        if (!l) return { ...this.toAnswer(s), listing: null, live: false }
        const own = l.owner_user_id === actor.id
        const opens = s.revokedAt === null && LIVE.has(l.status) && (own || (l.onward_sharing !== 'OFF' && (await brokersWhoSee(this.db, l.id, [actor.id])).has(actor.id)))
        const { entry_id, post_type, sale_or_rent, property_type, locality, status, onward_sharing } = l
        return { ...this.toAnswer(s), listing: { entry_id, post_type, sale_or_rent, property_type, locality, status, onward_sharing, own }, live: opens }
      }),
    )
  }

  async revoke(actor: Viewer, id: number): Promise<void> {
    if (!(await revokeShare(this.db, id, actor.id, Date.now()))) throw notFound('Link not found')
  }

  /**
   * What this feature keeps of a listing follows its writes (src/app.ts hands it to the listings feature): consent
   * withdrawn revokes the other brokers' links in the same transaction (turned on again, they stay dead: a client's
   * old link does not come back to life). A deleted listing's links stay, so that their pages answer 410, not 404.
   */
  readonly parts: ListingParts = {
    within: async (tx, w) => {
      if (w.after && w.before && w.before.onwardSharing !== 'OFF' && w.after.onwardSharing === 'OFF') await revokeOnward(tx, w.after.id, w.after.ownerUserId, w.now)
    },
    committed: () => {},
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
    const onward = listing.owner_user_id !== share.sharerUserId
    // An onward link lives while the owner's consent does, and while its sharer still sees the listing (a CIRCLE
    // listing's circle may have lost them): checked here as well as revoked at the withdrawal (`parts`).
    if (onward && (listing.onward_sharing === 'OFF' || !(await brokersWhoSee(this.db, listing.id, [share.sharerUserId])).has(share.sharerUserId))) return { state: 'gone' }
    if (count) await countView(this.db, share.id)
    const { shown, owner } = onward ? await this.forClient(listing) : { shown: listing, owner: null }
    const lister = owner && listing.onward_sharing === 'NAMED' ? { fullName: owner.fullName, verified: owner.verified } : null
    return { state: 'live', share, listing: shown, sharer, photos: await this.photos.photosForLink(listing.id), onward, lister }
  }

  /** A photo of a live link's listing; null when the link is dead or the name none of its photos'. */
  async photo(token: string, name: string): Promise<Blob | null> {
    const v = await this.view(token, { count: false })
    return v.state === 'live' ? this.photos.fileForLink(v.listing.id, name) : null
  }
}
