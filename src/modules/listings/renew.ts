import { StaleWrite } from '../../../db/faults'
import type { AppContext } from '../../platform/context'
import { Conflict } from '../../platform/errors'
import { RENEW_LINK_MS } from '../../shared/constants'
import { underModeration } from './moderation'
import { readRenewToken, renewKey } from './renew-link'
import type { AfterListingWrite } from './after-write'
import { expiryOf, listingRow, renew, type Row } from './service'
import { cityStays } from '../geography/store'
import { userReach } from '../users/store'

// The pages of a reminder's renew link (docs/decisions/016-renew-links.md): GET shows what one click would do and
// changes nothing (mail scanners and link previews fetch GET links); the page's one button POSTs and renews. No
// sign-in: the signed token is the authority, for its one listing and the one end it was mailed about.

/** A link that may renew: the listing as read, in words, whose it is, and the end it would get. */
export type RenewOffer = { row: Row; what: string; owner: { id: number; fullName: string }; until: number }
/** A link that may not, with the status to answer and why, in words for its reader. */
export type RenewRefusal = { status: 400 | 409 | 410; reason: string }

const LINK_DAYS = RENEW_LINK_MS / 86_400_000
const USED = 'This link has been used already: the listing was renewed, or given another end, since the reminder was sent.'

type Details = { city: string; rent_days: number; sale_days: number; full_name: string; reachable: boolean }

/** What the token at `now` allows: an offer, or a refusal that says why. Never throws for a bad token. */
export async function judgeRenewLink(ctx: AppContext, token: string, now = Date.now()): Promise<RenewOffer | RenewRefusal> {
  const claims = readRenewToken(await renewKey(ctx.db), token, now)
  if (claims === 'invalid') return { status: 400, reason: 'This renew link is not valid: it is incomplete or was changed. Copy the whole link from the mail.' }
  if (claims === 'expired') return { status: 410, reason: `This renew link has expired: each works for ${LINK_DAYS} days after its reminder.` }
  const row = await listingRow(ctx.db, claims.listingId)
  if (!row) return { status: 410, reason: 'The listing of this link no longer exists.' }
  if (Number(row.expiresAt) !== claims.expiresAt) return { status: 410, reason: USED }
  if (underModeration(row)) return { status: 409, reason: `${row.entryId} was suspended by an admin, so it cannot be renewed: only an admin of its city can reactivate it.` }
  if (row.status === 'CLOSED' || row.status === 'SUSPENDED')
    return { status: 409, reason: `${row.entryId} is ${row.status === 'CLOSED' ? 'closed' : 'suspended'}, so it cannot be renewed.` }
  const [city, owner] = await Promise.all([cityStays(ctx.db, row.cityId), userReach(ctx.db, row.ownerUserId)])
  const d: Details = { city: city!.name, rent_days: city!.rent_days, sale_days: city!.sale_days, full_name: owner!.full_name, reachable: Boolean(owner!.reachable) }
  if (!d.reachable) return { status: 410, reason: 'This renew link no longer works: its owner’s account is not active.' }
  return { row, what: `${row.propertyType}, ${d.city}`, owner: { id: row.ownerUserId, fullName: d.full_name }, until: expiryOf(undefined, d, row.saleOrRent, now) }
}

/** Renews the link's listing as its owner (audited `listing.renew`, via link); a renewal that lost a race is refused. */
export async function renewByLink(ctx: AppContext, written: AfterListingWrite, token: string): Promise<{ entryId: string; until: number } | RenewRefusal> {
  const offer = await judgeRenewLink(ctx, token)
  if ('reason' in offer) return offer
  try {
    const renewed = await renew(ctx, written, offer.owner, offer.row, 'link')
    return { entryId: renewed.entryId, until: Number(renewed.expiresAt) }
  } catch (e) {
    // The same link clicked twice at once, or the clock expiring the listing in between: the other one won (seen
    // before the write, a Conflict; by the write itself, a StaleWrite).
    if (e instanceof Conflict || e instanceof StaleWrite) return { status: 410, reason: USED }
    throw e
  }
}
