import type { AppContext } from '../../platform/context'
import { getListing } from '../listings/store/read'
import type { Listing } from '../listings/model'
import { listingScope, type Viewer } from '../listings/store/where'
import { localitiesOf } from './localities'
import type { ParseAnswer, ParseBody, ShareAnswer } from './model'
import { parsePaste } from './parse'
import { shareText, whatsappUrl } from './share'

/**
 * The city whose localities a paste is read against: the one the caller's listings go to (a broker's own, a module
 * admin's), or for a master admin the one they name (none named: no known localities, places are taken as written).
 */
export function cityOf(user: Viewer, cityId: number | undefined): number | null {
  const scope = listingScope(user, 'manage')
  if (scope.kind === 'city') return scope.cityId
  if (scope.kind === 'all') return cityId ?? null
  return user.cityId
}

export async function parseForUser(ctx: AppContext, user: Viewer, body: ParseBody): Promise<ParseAnswer> {
  ctx.limits.pasteChars.charge(String(user.id), body.text.length, 'pastes read')
  const localities = await localitiesOf(ctx.db, cityOf(user, body.city_id))
  return { drafts: parsePaste(body.text, localities) }
}

/**
 * A public page for the listing that the caller may hand a client (share-links/, issue 34), with the listing as that
 * client may read it (another broker's: without the owner's contacts, nor their name when they chose ANONYMOUS), or null.
 */
export type PublicLink = (user: Viewer, listing: Listing) => Promise<{ url: string; listing: Listing } | null>

/**
 * A listing the caller may see, as a WhatsApp message (anyone else's hidden listing is a 404, as everywhere). It links
 * to the listing's public page when the caller may make one (their own, or another broker's shared onward with its
 * owner's consent), else to the listing on the network. A message linking to another broker's listing's public page
 * is for the caller's client: its contact is the caller's, never the owner's (issue 34).
 */
export async function shareListing(ctx: AppContext, user: Viewer & { fullName: string; phone: string | null }, id: number, publicLink?: PublicLink): Promise<ShareAnswer> {
  const listing = await getListing(ctx.db, user, id)
  const page = await publicLink?.(user, listing)
  const shown = page && listing.owner_user_id !== user.id ? { ...page.listing, contact_name: user.fullName, contact_value: user.phone ?? '' } : listing
  const text = shareText(shown, ctx.config.publicUrl, page?.url)
  return { text, whatsapp_url: whatsappUrl(text), public_url: page?.url ?? null }
}
