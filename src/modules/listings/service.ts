import type { Param, Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { conflict, fieldError, forbidden, notFound, invalid } from '../../platform/errors'
import type { ListingStatus } from '../../shared/constants'
import { calendarDate, postedAgo } from '../../shared/dates'
import type { AfterListingWrite, ListingWrite } from './after-write'
import { duplicatesOf } from './duplicates'
import { formatEntryId } from '../../shared/entry-id'
import type { CreateListingBody, Listing, ReviewRequestBody, UpdateListingBody } from './model'
import { assertMayChangeStatus, liftRefusal, moderates, moderationStep, tellAdmins, underModeration } from './moderation'
import { countListings, getListing } from './store/read'
import { deleteListingRow, insertedRow, insertListing, listingIdAhead, listingRowWhere, markReviewRequested, nextListingId, changedKeys, updatedRow, updateListingAsRead, type Row } from './store'
import { allOf, canEdit, listingIs, listingScope, visibleTo, type Viewer } from './store/where'
import { circleOwnedBy } from './store/circles'
import { PRIVATE_FIELDS, writePrivate, type PrivateFields } from './store/private'
import { cityStays } from '../geography/store'

type Actor = Viewer & { fullName: string }

export type { Row } from './store'

const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

/**
 * SPEC section 4: Suspend only from ACTIVE; out of SUSPENDED only back to ACTIVE (Reactivate / Unsuspend);
 * ACTIVE, ON_HOLD and CLOSED move freely among themselves.
 */
export function assertTransition(from: ListingStatus, to: ListingStatus): void {
  if (from === to) return
  if (to === 'EXPIRED') throw invalid('EXPIRED is set when a listing’s expires_at passes, not by hand: set expires_at instead')
  if (from === 'EXPIRED' && to !== 'CLOSED') throw conflict('This listing has expired: renew it (or give it a new expires_at) to put it back on the network')
  if (to === 'SUSPENDED' && from !== 'ACTIVE') throw conflict(`Only an active listing can be suspended; this one is ${from}`)
  if (from === 'SUSPENDED' && to !== 'ACTIVE') throw conflict(`A suspended listing can only be reactivated (to ACTIVE), not moved to ${to}`)
}

// Optional texts: trimmed, and empty means "none".
const clean = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : v.trim() || null)

/** The columns a body sets, by column name; texts trimmed, empty optional texts stored as none. */
function fieldsOf(body: UpdateListingBody) {
  const out: Record<string, Param> = {}
  if (body.post_type !== undefined) out.post_type = body.post_type
  if (body.sale_or_rent !== undefined) out.sale_or_rent = body.sale_or_rent
  if (body.contact_value !== undefined) {
    out.contact_value = body.contact_value.trim()
    if (out.contact_value.length < 5) throw fieldError('contact_value', 'Contact value must be at least 5 characters')
  }
  if (body.property_type !== undefined) {
    out.property_type = body.property_type.trim()
    if (out.property_type.length < 2) throw fieldError('property_type', 'Property type is required')
  }
  if (body.budget !== undefined) out.budget = body.budget
  if (body.size !== undefined) out.size = body.size
  if (body.location !== undefined) out.location = body.location
  for (const key of ['locality', 'reference', 'type_details', 'details', 'comments', 'google_location_url'] as const) {
    const v = clean(body[key])
    if (v !== undefined) out[key] = v
  }
  return out
}

/**
 * The visibility columns a body sets (issue 35), for a listing of `ownerId`: CIRCLE needs one of the owner's circles;
 * any other visibility clears the circle.
 */
async function visibilityOf(db: Queryable, ownerId: number, body: UpdateListingBody, before: Row | null): Promise<Record<string, Param>> {
  if (body.visibility === undefined && body.circle_id === undefined) return {}
  const visibility = body.visibility ?? before?.visibility ?? 'NETWORK'
  if (visibility !== 'CIRCLE') return { visibility, circle_id: null }
  const circleId = body.circle_id ?? before?.circleId ?? null
  if (circleId === null) throw fieldError('circle_id', 'Choose the circle to show this listing to')
  if (!(await circleOwnedBy(db, circleId, ownerId))) throw fieldError('circle_id', 'No such circle of the listing’s owner')
  return { visibility, circle_id: circleId }
}

/** The names of the private fields a body sends (what the audit trail records of them: never their values). */
const privateNames = (body: UpdateListingBody): string[] => (body.private ? PRIVATE_FIELDS.filter((k) => body.private![k] !== undefined) : [])

/** A body's private fields, trimmed (empty texts are none). */
function privateOf(body: UpdateListingBody): Partial<PrivateFields> {
  const p = body.private ?? {}
  const out: Partial<PrivateFields> = {}
  for (const k of ['owner_name', 'owner_phone', 'address', 'note'] as const) {
    const v = clean(p[k])
    if (v !== undefined) out[k] = v
  }
  if (p.bottom_price !== undefined) out.bottom_price = p.bottom_price
  return out
}

async function cityOf(db: Queryable, cityId: number) {
  const city = await cityStays(db, cityId)
  if (!city) throw fieldError('city_id', 'City is required')
  return city
}

/** The city's default stay for a deal (issue 17): RENT and SALE days, set per city. */
const stayMs = (city: { rent_days: number; sale_days: number }, deal: 'SALE' | 'RENT') => (deal === 'RENT' ? city.rent_days : city.sale_days) * 86_400_000

/**
 * When a listing written now leaves the network: the city's default for its deal from now, or the earlier moment its
 * author asks (issue 17). Later than the default, or not in the future, is refused with the limit in the message.
 */
export function expiryOf(asked: string | undefined, city: { rent_days: number; sale_days: number }, deal: 'SALE' | 'RENT', now: number): number {
  const latest = now + stayMs(city, deal)
  if (asked === undefined) return latest
  const at = Date.parse(asked)
  if (!(at > now)) throw fieldError('expires_at', 'expires_at must be in the future')
  if (at > latest)
    throw fieldError('expires_at', `expires_at can be at most ${deal === 'RENT' ? city.rent_days : city.sale_days} days from now for a ${deal} listing in this city (${new Date(latest).toISOString()})`)
  return at
}

/**
 * A new listing. A broker's takes their city and their name as contact; an admin's needs a city (a module admin's is
 * always their own) and details, and its contact name defaults to the admin's name (SPEC section 6).
 */
/**
 * The city a new listing goes to, following the `manage:listing` scope: one's own (a broker: their city), one's city
 * (a module admin), or any city named (a master admin).
 */
export function targetCity(actor: Actor, cityId: number | undefined): number {
  const scope = listingScope(actor, 'manage')
  if (scope.kind === 'own') {
    if (actor.cityId === null) throw invalid('Your account has no city yet: ask an administrator to assign one')
    return actor.cityId
  }
  if (scope.kind === 'all') {
    if (!cityId) throw fieldError('city_id', 'City is required')
    return cityId
  }
  if (scope.kind !== 'city') throw forbidden('You have no assigned city to post listings in')
  return scope.cityId
}

export async function createListing(ctx: AppContext, written: AfterListingWrite, actor: Actor, body: CreateListingBody, shown?: (tx: Queryable, id: number) => void): Promise<Row> {
  if (body.status === 'SUSPENDED') throw invalid('A new listing cannot start suspended')
  if (body.status === 'EXPIRED') throw invalid('A new listing cannot start expired: give it an expires_at instead')
  const cityId = targetCity(actor, body.city_id)
  // A broker's listings carry their name as the contact; an admin's need details and may name a contact.
  let contactName = actor.fullName
  if (listingScope(actor, 'manage').kind !== 'own') {
    if (!body.details?.trim()) throw fieldError('details', 'Details are required')
    contactName = body.contact_name?.trim() || actor.fullName || 'Admin'
  }
  // Duplicate control (issue 17): a near-copy of one's own ACTIVE listing needs confirming; of another broker's is
  // allowed (co-listing) and marked for admins.
  const columns = fieldsOf(body)
  // The reads a post needs, sent together (issue 36: each round trip waits a turn of a busy event loop); their
  // refusals in the order they were always checked: the duplicate, the city, the circle (the body's own fields first).
  const [duplicates, city, visibility, idAhead] = await inOrder([
    duplicatesOf(ctx.db, actor, { ...body, city_id: cityId }),
    cityStays(ctx.db, cityId),
    visibilityOf(ctx.db, actor.id, body, null),
    listingIdAhead(ctx.db),
  ] as const)
  const own = duplicates.find((d) => d.own)
  if (own && !body.confirm_duplicate)
    throw conflict(
      `duplicate listing: this looks like ${own.candidate.entry_id}, posted by you ${postedAgo(new Date(Number(own.candidate.created_at)).toISOString())}. Send confirm_duplicate: true to post it anyway`,
    )
  const other = duplicates.find((d) => !d.own)
  if (!city) throw fieldError('city_id', 'City is required')
  const fields: Record<string, Param> = {
    ...columns,
    post_type: body.post_type,
    sale_or_rent: body.sale_or_rent,
    contact_name: contactName,
    status: body.status ?? 'ACTIVE',
    owner_user_id: actor.id,
    city_id: cityId,
    possible_duplicate_of: other?.candidate.id ?? null,
    ...visibility,
    ...(body.onward_sharing ? { onward_sharing: body.onward_sharing } : {}),
  }
  const now = Date.now()
  fields.expires_at = expiryOf(body.expires_at, city, body.sale_or_rent, now)
  fields.date = calendarDate(new Date(now), ctx.config.timeZone)
  fields.created_at = now
  fields.updated_at = now
  // Days on market (issue 35): a repost of a property the duplicate check links to (one's own, confirmed; another
  // broker's, marked `possible_duplicate_of`) keeps the earliest first posting, so reposting does not make it new.
  fields.first_posted_at = Math.min(now, ...[own, other].flatMap((d) => (d ? [Number(d.candidate.first_posted_at)] : [])))
  let inserted: Promise<Row> | null = null
  const write = await ctx.db.tx(async (tx) => {
    // The readable code is made of the row's id, taken first: the row goes in whole (one change-feed row).
    const id = idAhead ?? (await nextListingId(tx))
    Object.assign(fields, { id, entry_id: formatEntryId(body.post_type, city.name, id) })
    // Not awaited: the new row is known from its fields, so its audit and queue go out with it (one round trip on
    // PostgreSQL, issue 36); a refusal of any of them fails the whole post.
    inserted = insertListing(tx, fields)
    inserted.catch(() => {})
    const after = insertedRow(fields)
    const privateChanged = privateNames(body)
    if (privateChanged.length) await writePrivate(tx, actor, id, privateOf(body), now)
    const w: ListingWrite = { action: 'listing.create', actor: actorOf(actor), before: null, after, now, privateChanged }
    await written.within(tx, w)
    shown?.(tx, id)
    return w
  })
  // What follows the commit reads the row as the database answered it; a difference from the one the audit recorded
  // would be a column insertedRow does not know (a new default): said loudly, the post itself stands.
  const stored = await inserted!
  written.committed(asStored(ctx, write, stored, Object.keys(write.after!) as (keyof Row)[]))
  return stored
}

/**
 * Lets a write's caller read the listing as its author sees it inside the write's transaction, sent with its COMMIT
 * rather than in a round trip of its own after it (issue 36). The answer, once the write has committed.
 */
export function answerOf(db: Queryable, actor: Viewer): { shown: (tx: Queryable, id: number) => void; answer: (id: number) => Promise<Listing> } {
  let read: Promise<Listing> | null = null
  return {
    shown: (tx, id) => {
      read = getListing(tx, actor, id)
      read.catch(() => {})
    },
    // A change that wrote nothing (the same values again) read nothing in a transaction: read now.
    answer: (id) => read ?? getListing(db, actor, id),
  }
}

/** Every promise's value, or the first refusal in the order given (not the first to arrive): all sent at once. */
async function inOrder<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work)
  const refused = settled.find((r) => r.status === 'rejected')
  if (refused) throw (refused as PromiseRejectedResult).reason
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T
}

export { listingRow } from './store'

/** The listing an actor may change: invisible ones are "not found"; visible but not theirs is 403. */
async function changeable(db: Queryable, actor: Actor, id: number): Promise<Row> {
  const row = await listingRowWhere(db, allOf(listingIs(id), visibleTo(actor)))
  if (!row) throw notFound('Listing not found')
  if (!canEdit(actor, row)) throw forbidden('You can only change your own listings')
  return row
}

/**
 * A partial change (e.g. only the status), checked against the status rules; brokers cannot move a listing's city. A
 * listing an admin suspended keeps its status against everyone but an admin (403), and an admin suspending another's
 * listing says why (./moderation.ts).
 */
export async function updateListing(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number, body: UpdateListingBody, shown?: (tx: Queryable, id: number) => void): Promise<Row> {
  const before = await changeable(ctx.db, actor, id)
  await assertMayChangeStatus(ctx.db, actor, before, body)
  // Off the network by brokers' reports (issue 35): its broker answers them (./reports.ts), which sets its status.
  if (before.reportedOffAt !== null && body.status !== undefined && body.status !== before.status)
    throw conflict('Three brokers reported this listing: answer the reports (still available, or closed) to change its status')
  const changes = fieldsOf(body)
  // An expired listing given a new end may take any status with it: the new end is its renewal.
  const from = before.status === 'EXPIRED' && body.expires_at !== undefined ? 'ACTIVE' : before.status
  if (body.status !== undefined) {
    assertTransition(from, body.status)
    changes.status = body.status
  }
  const now = Date.now()
  const moderation = moderationStep(actor, before, from, body, now)
  Object.assign(changes, moderation.columns)
  const scope = listingScope(actor, 'manage')
  if (body.contact_name !== undefined && scope.kind !== 'own') changes.contact_name = body.contact_name?.trim() || before.contactName
  if (body.city_id !== undefined && body.city_id !== before.cityId) {
    if (scope.kind !== 'all') throw forbidden('Only a master admin can move a listing to another city')
    changes.city_id = (await cityOf(ctx.db, body.city_id)).id
  }
  if (body.expires_at !== undefined) {
    const city = await cityOf(ctx.db, (changes.city_id as number | undefined) ?? before.cityId)
    changes.expires_at = expiryOf(body.expires_at, city, (changes.sale_or_rent as 'SALE' | 'RENT' | undefined) ?? before.saleOrRent, now)
    // A new end for an expired listing puts it back, as renewing does (ACTIVE unless the same change says otherwise).
    if (before.status === 'EXPIRED' && body.status === undefined) changes.status = 'ACTIVE'
  }
  Object.assign(changes, await visibilityOf(ctx.db, before.ownerUserId, body, before))
  for (const [k, v] of [['visibility', before.visibility], ['circle_id', before.circleId]] as const) if (changes[k] === v) delete changes[k]
  // Onward sharing (issue 34) is the owner's consent: an admin who may edit the listing does not give it for them.
  if (body.onward_sharing !== undefined && body.onward_sharing !== before.onwardSharing) {
    if (actor.id !== before.ownerUserId) throw forbidden('Only the listing’s broker decides whether other brokers may share it')
    changes.onward_sharing = body.onward_sharing
  }
  const privateChanged = privateNames(body)
  if (Object.keys(changes).length === 0) return privateChanged.length ? writePrivateOnly(ctx, written, actor, before, body, privateChanged, now) : before
  changes.updated_at = now
  // The hotsheet (issue 17): a new budget, or a return to ACTIVE, is news.
  if (changes.status === 'ACTIVE' && before.status !== 'ACTIVE') Object.assign(changes, { hot_event: 'BACK_ON_MARKET', hot_at: now })
  else if (changes.budget !== undefined && changes.budget !== before.budget) Object.assign(changes, { hot_event: 'PRICE_CHANGED', hot_at: now })
  // Its refusal as stale (StaleWrite) is answered 409 by the error handler.
  const { w: write, stored } = await ctx.db.tx(async (tx) => {
    // Only the listing as read: a change racing an admin's suspension (or its lifting) must not undo it unseen. Not
    // awaited: the rest goes out with it (issue 36), and fails with it when it finds the listing changed.
    const stored = updateListingAsRead(tx, id, changes, { status: before.status, suspendedBy: before.suspendedBy })
    tx.defer(stored)
    const statusAction =
      changes.status === 'SUSPENDED' && before.status !== 'SUSPENDED' ? 'listing.suspend' : before.status === 'SUSPENDED' && changes.status === 'ACTIVE' ? 'listing.reactivate' : 'listing.update'
    if (privateChanged.length && !(await writePrivate(tx, actor, id, privateOf(body), now))) throw forbidden('You can only change your own listings')
    const w = { action: moderation.action ?? statusAction, actor: actorOf(actor), before, after: updatedRow(before, changes), now, reason: moderation.reason, moderation, privateChanged }
    await written.within(tx, w)
    shown?.(tx, id)
    return { w, stored }
  })
  written.committed(asStored(ctx, write, await stored, changedKeys(changes)))
  return write.after!
}

/**
 * The write with its row as the database answered it, for what follows the commit (caches, matching). The audit went
 * out with the statement, so it records the row as this write made it (`insertedRow`; an edit's: `updatedRow`). A
 * difference in the columns the write `decided` (every column of a new listing; an edit's changed ones, `changedKeys`)
 * would be something those do not know (a new default, a trigger): said loudly, the write itself stands. An edit's
 * other columns may differ rightly: another write came between its read and its update, and the audit does not claim
 * them.
 */
function asStored(ctx: AppContext, write: ListingWrite, stored: Row, decided: readonly (keyof Row)[]): ListingWrite {
  const expected = write.after!
  if (decided.some((k) => !Bun.deepEquals(stored[k], expected[k]))) ctx.logger.error({ listing: stored.id, expected, stored }, 'a listing’s written row differs from the one its audit recorded')
  write.after = stored
  return write
}

/**
 * A change of the private fields alone (issue 35): the listing's row is not written (no change-feed row: nothing any
 * other answer shows has changed), the audit trail records which fields changed.
 */
async function writePrivateOnly(ctx: AppContext, written: AfterListingWrite, actor: Actor, before: Row, body: UpdateListingBody, privateChanged: string[], now: number): Promise<Row> {
  const write = await ctx.db.tx(async (tx) => {
    if (!(await writePrivate(tx, actor, before.id, privateOf(body), now))) throw forbidden('You can only change your own listings')
    const w = { action: 'listing.private_update', actor: actorOf(actor), before, after: before, now, privateChanged }
    await written.within(tx, w)
    return w
  })
  written.committed(write)
  return write.after
}

/**
 * Renewing (issue 17): the listing stays for its city's default from now, and an expired one is ACTIVE again (news on
 * the hotsheet: back on market). The owner or their admins (`manage:listing`), early too; a closed or suspended listing
 * is not on offer, so there is nothing to renew.
 */
export async function renewListing(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number, via: 'api' | 'link' = 'api'): Promise<Row> {
  const before = await changeable(ctx.db, actor, id)
  // Its owner learns who may put it back (an admin), rather than only that a suspended listing is not renewed.
  if (underModeration(before) && !moderates(actor)) throw await liftRefusal(ctx.db, before.cityId)
  return renew(ctx, written, actorOf(actor), before, via)
}

/** Renew a listing already judged changeable (by the caller's scope, or by a signed renew link). */
export async function renew(ctx: AppContext, written: AfterListingWrite, actor: { id: number; fullName: string }, before: Row, via: 'api' | 'link'): Promise<Row> {
  if (before.status === 'CLOSED' || before.status === 'SUSPENDED') throw conflict(`A ${before.status === 'CLOSED' ? 'closed' : 'suspended'} listing cannot be renewed`)
  const now = Date.now()
  const city = await cityOf(ctx.db, before.cityId)
  const changes: Record<string, Param> = { expires_at: now + stayMs(city, before.saleOrRent), updated_at: now }
  if (before.status === 'EXPIRED') Object.assign(changes, { status: 'ACTIVE', hot_event: 'BACK_ON_MARKET', hot_at: now })
  const { w: write, stored } = await ctx.db.tx(async (tx) => {
    // Only the listing as read: a renewal racing another (a renew link clicked twice) or the clock expiring it is
    // refused (StaleWrite, a 409); not awaited, as an edit's.
    const stored = updateListingAsRead(tx, before.id, changes, { status: before.status, expiresAt: before.expiresAt })
    tx.defer(stored)
    const w = { action: 'listing.renew', actor, before, after: updatedRow(before, changes), now, via }
    await written.within(tx, w)
    return { w, stored }
  })
  written.committed(asStored(ctx, write, await stored, changedKeys(changes)))
  return write.after!
}

/**
 * The owner of a listing an admin suspended asks for a review (issue 29): the admins of its city and the master
 * admins are told by mail, and the grid tags it until an admin answers (reactivates it, or keeps it suspended with a
 * reason). Only the owner asks (403 for the admins who could answer; other brokers do not see it: 404); 409 when no
 * admin suspended it, or a review is already pending.
 */
export async function requestReview(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number, body: ReviewRequestBody): Promise<{ listing: Row; adminsNotified: number }> {
  const before = await listingRowWhere(ctx.db, allOf(listingIs(id), visibleTo(actor)))
  if (!before) throw notFound('Listing not found')
  if (before.ownerUserId !== actor.id) throw forbidden('Only the listing’s owner can ask for a review of its suspension')
  if (!underModeration(before)) throw conflict('This listing is not suspended by an admin: there is no suspension to review')
  if (before.reviewRequestedAt !== null)
    throw conflict(`A review was already asked for on ${new Date(Number(before.reviewRequestedAt)).toISOString()}: the admins have been told, and answer by reactivating the listing or keeping it suspended`)
  const now = Date.now()
  const note = body.note?.trim() || null
  const { write, adminsNotified } = await ctx.db.tx(async (tx) => {
    const after = await markReviewRequested(tx, id, now, note)
    if (!after) throw conflict('This listing changed meanwhile: look at it again')
    const w = { action: 'listing.review_request', actor: actorOf(actor), before, after, now, reason: note }
    await written.within(tx, w)
    // The admins who may answer, told by mail: how many is the request's answer.
    return { write: w, adminsNotified: await tellAdmins(ctx, tx, after, actor.fullName) }
  })
  written.committed(write)
  return { listing: write.after, adminsNotified }
}

/** Gone from every answer; its last content stays in the audit trail. */
export async function deleteListing(ctx: AppContext, written: AfterListingWrite, actor: Actor, id: number): Promise<void> {
  const before = await changeable(ctx.db, actor, id)
  const write = await ctx.db.tx(async (tx) => {
    // Not awaited: what follows goes out with it (issue 36); a failure of it fails the whole write.
    tx.defer(deleteListingRow(tx, id))
    const w = { action: 'listing.delete', actor: actorOf(actor), before, after: null, now: Date.now() }
    await written.within(tx, w)
    return w
  })
  written.committed(write)
}

/** Suspended listings in an admin's scope: the admin banner's "needing attention" (from the kept totals). */
export const countSuspended = (ctx: AppContext, viewer: Viewer): Promise<number> => countListings(ctx.db, ctx.counts, viewer, { status: 'SUSPENDED' })

/** Of those, the admins' suspensions whose owner asks for a review (issue 29): the banner's second line. */
export const countReviewRequests = (ctx: AppContext, viewer: Viewer): Promise<number> => countListings(ctx.db, ctx.counts, viewer, { review_requested: true })
