import type { Param, Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { fieldError, forbidden, type DomainError } from '../../platform/errors'
import { SUSPENSION_REASON_REQUIRED, type ListingStatus } from '../../shared/constants'
import { formatMoment } from '../../shared/dates'
import { listingSuspended, reviewRequested, suspensionLifted } from '../mail/templates'
import type { UpdateListingBody } from './model'
import type { Row } from './store'
import { listingScope, type Viewer } from './store/where'
import { cityName } from '../geography/store'
import { cityAdminEmails, reachableUser } from '../users/store'

// Moderation (issue 29; docs/decisions/027-moderation.md). A suspension by an admin of the listing's city, or a master
// admin, of a listing not their own is moderation: it carries the admin's reason, only an admin lifts it, and its owner
// may ask for a review. A suspension by the owner stays theirs to lift, as SPEC section 4 says.

/** The moderation columns, none: a listing reactivated (by whoever) carries no trace of its suspension but the audit's. */
const CLEARED = { suspended_by: null, suspension_reason: null, suspended_at: null, review_requested_at: null, review_note: null }

/** Admins moderate: a module admin their city's listings, a master admin all (a `manage:listing` scope wider than one's own). */
export const moderates = (actor: Viewer): boolean => {
  const kind = listingScope(actor, 'manage').kind
  return kind === 'city' || kind === 'all'
}

/** Suspended by an admin, not by its owner. */
export const underModeration = (l: Pick<Row, 'status' | 'suspendedBy'>): boolean => l.status === 'SUSPENDED' && l.suspendedBy !== null

/** The owner's refusal, naming who may lift the suspension and what the owner may do instead. */
export async function liftRefusal(db: Queryable, cityId: number): Promise<DomainError> {
  const city = await cityName(db, cityId)
  return forbidden(
    `This listing was suspended by an admin: only an admin of ${city ?? 'its city'} (or a master admin) can reactivate it. You can ask them for a review from My Listings.`,
  )
}

/**
 * Refuses (403) a change of status to anyone but an admin when an admin suspended the listing: reactivating it, and
 * any other move (the status rules would refuse those with 409 anyway; the owner learns the real reason first). Its
 * other fields stay the owner's to edit, so they can put right what the reason says before asking for a review.
 */
export async function assertMayChangeStatus(db: Queryable, actor: Viewer, before: Row, body: UpdateListingBody): Promise<void> {
  if (underModeration(before) && !moderates(actor) && body.status !== undefined && body.status !== before.status) throw await liftRefusal(db, before.cityId)
}

/** What a change does to the moderation of a listing: the columns to write, the audit action and reason, the owner's mail. */
export type ModerationStep = {
  columns: Record<string, Param>
  /** The audit action, when the step decides it (otherwise the status change does). */
  action?: 'listing.suspend' | 'listing.suspension_upheld'
  reason?: string
  tell?: 'suspended' | 'upheld' | 'lifted'
}

/**
 * The moderation part of a PATCH, after the status rules passed (`from`: the status the change starts from).
 * - An admin suspending another's ACTIVE listing must say why (422 `suspension_reason`); so must one who takes over a
 *   suspension its owner made (status SUSPENDED with a reason): from then on only an admin lifts it.
 * - A reason sent again on a listing under moderation replaces the old one and answers a pending review: upheld.
 * - Out of SUSPENDED (to ACTIVE, the only way out), the moderation is gone with the suspension.
 * - `suspension_reason` from anyone else, or without status SUSPENDED, is a mistake to say (422), not to ignore.
 */
export function moderationStep(actor: Viewer, before: Row, from: ListingStatus, body: UpdateListingBody, now: number): ModerationStep {
  const moderator = moderates(actor) && actor.id !== before.ownerUserId
  const to = body.status ?? before.status
  const given = body.suspension_reason !== undefined
  if (given && !moderator) throw fieldError('suspension_reason', 'Only an admin suspending another broker’s listing gives a suspension_reason')
  if (given && to !== 'SUSPENDED') throw fieldError('suspension_reason', 'A suspension_reason goes with status SUSPENDED')
  const reason = body.suspension_reason?.trim()
  if (given && !reason) throw fieldError('suspension_reason', SUSPENSION_REASON_REQUIRED)
  if (to === 'SUSPENDED' && moderator) {
    const takesOver = before.status === 'SUSPENDED' && !underModeration(before) && given
    if (from === 'ACTIVE' || takesOver) {
      if (!reason) throw fieldError('suspension_reason', SUSPENSION_REASON_REQUIRED)
      return { columns: { ...CLEARED, suspended_by: actor.id, suspension_reason: reason, suspended_at: now }, action: 'listing.suspend', reason, tell: 'suspended' }
    }
    if (underModeration(before) && reason) {
      const pending = before.reviewRequestedAt !== null
      return { columns: { suspension_reason: reason, review_requested_at: null, review_note: null }, action: pending ? 'listing.suspension_upheld' : undefined, reason, tell: pending ? 'upheld' : undefined }
    }
    return { columns: {} }
  }
  if (before.status === 'SUSPENDED' && to !== 'SUSPENDED')
    return { columns: before.suspendedBy === null ? {} : CLEARED, tell: underModeration(before) && actor.id !== before.ownerUserId ? 'lifted' : undefined }
  return { columns: {} }
}

type Owner = { email: string; full_name: string }

const describe = (l: Row, city: string) => ({ entryId: l.entryId, what: `${l.propertyType}, ${city}` })

/** Mails the listing's owner (an active account) what the step did, in the writing transaction. */
export async function tellOwner(ctx: Pick<AppContext, 'mail' | 'config'>, tx: Queryable, after: Row, step: ModerationStep): Promise<void> {
  if (!step.tell) return
  const owner: Owner | undefined = await reachableUser(tx, after.ownerUserId)
  if (!owner) return
  const city = (await cityName(tx, after.cityId))!
  const to = { email: owner.email, fullName: owner.full_name }
  const listing = describe(after, city)
  const { publicUrl } = ctx.config
  await ctx.mail.send(tx, step.tell === 'lifted' ? suspensionLifted(publicUrl, to, listing) : listingSuspended(publicUrl, to, { ...listing, reason: after.suspensionReason ?? '', upheld: step.tell === 'upheld' }))
}

/**
 * Mails a review request to the active module admins of the listing's city and every active master admin (as a
 * registration is announced, src/modules/auth/registration.ts), in the writing transaction; answers how many.
 */
export async function tellAdmins(ctx: Pick<AppContext, 'mail' | 'config'>, tx: Queryable, l: Row, ownerName: string): Promise<number> {
  const city = (await cityName(tx, l.cityId))!
  const admins = await cityAdminEmails(tx, l.cityId, true)
  const link = `${ctx.config.publicUrl}/dashboard/listings?${new URLSearchParams({ search: l.entryId, status: 'SUSPENDED' })}`
  const request = {
    ...describe(l, city),
    owner: ownerName,
    city,
    reason: l.suspensionReason ?? '',
    suspendedOn: formatMoment(Number(l.suspendedAt), ctx.config.timeZone),
    note: l.reviewNote,
    link,
  }
  await ctx.mail.send(tx, ...admins.map((a) => reviewRequested(a.email, request)))
  return admins.length
}
