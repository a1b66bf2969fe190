import type { Param, Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/http/context'
import { conflict, fieldError, forbidden, notFound, invalid } from '../../platform/errors'
import type { ListingStatus } from '../../shared/constants'
import { calendarDate, postedAgo } from '../../shared/dates'
import { recordAudit } from '../audit/service'
import { queueAnnouncement } from '../matches/service'
import { findDuplicates } from './duplicates'
import { formatEntryId } from '../../shared/entry-id'
import type { CreateListingBody, ReviewRequestBody, UpdateListingBody } from './model'
import { assertMayChangeStatus, liftRefusal, moderates, moderationStep, tellAdmins, tellOwner, underModeration } from './moderation'
import { countListings } from './read'
import { allOf, canEdit, listingScope, visibleTo, type Viewer } from './where'

type Actor = Viewer & { fullName: string }

/** A listing's stored fields as the audit trail has always kept them (camelCase, the order of the schema). */
export type Row = {
  id: number
  entryId: string
  postType: 'REQ' | 'AVL'
  saleOrRent: 'SALE' | 'RENT'
  propertyType: string
  contactValue: string
  contactName: string
  budget: number | null
  size: number | null
  location: string | null
  locality: string | null
  reference: string | null
  typeDetails: string | null
  details: string | null
  comments: string | null
  googleLocationUrl: string | null
  status: ListingStatus
  date: string
  ownerUserId: number
  cityId: number
  expiresAt: number | null
  /** Moderation (issue 29, ./moderation.ts): the admin who suspended it, why and when, and the owner's review request. */
  suspendedBy: number | null
  suspensionReason: string | null
  suspendedAt: number | null
  reviewRequestedAt: number | null
  reviewNote: string | null
}

const ROW = `listings.id, entry_id as "entryId", post_type as "postType", sale_or_rent as "saleOrRent", property_type as "propertyType",
  contact_value as "contactValue", contact_name as "contactName", budget, size, location, locality, reference,
  type_details as "typeDetails", details, comments, google_location_url as "googleLocationUrl", status, date,
  owner_user_id as "ownerUserId", city_id as "cityId", expires_at as "expiresAt", suspended_by as "suspendedBy",
  suspension_reason as "suspensionReason", suspended_at as "suspendedAt", review_requested_at as "reviewRequestedAt", review_note as "reviewNote"`

/** What the audit trail keeps of a listing: its whole content, so a deleted listing's last state survives there. */
const auditView = (l: Row) => ({ ...l })
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

async function cityOf(db: Queryable, cityId: number) {
  const city = await db.get<{ id: number; name: string; rent_days: number; sale_days: number }>('select id, name, rent_days, sale_days from cities where id = ?', [cityId])
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

export async function createListing(ctx: AppContext, actor: Actor, body: CreateListingBody): Promise<Row> {
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
  const duplicates = await findDuplicates(ctx.db, actor, { ...body, city_id: cityId })
  const own = duplicates.find((d) => d.own)
  if (own && !body.confirm_duplicate)
    throw conflict(`duplicate listing: this looks like ${own.listing.entry_id}, posted by you ${postedAgo(own.listing.created_at)}. Send confirm_duplicate: true to post it anyway`)
  const other = duplicates.find((d) => !d.own)
  const city = await cityOf(ctx.db, cityId)
  const fields: Record<string, Param> = {
    ...fieldsOf(body),
    post_type: body.post_type,
    sale_or_rent: body.sale_or_rent,
    contact_name: contactName,
    status: body.status ?? 'ACTIVE',
    entry_id: `NEW-${crypto.randomUUID()}`,
    owner_user_id: actor.id,
    city_id: cityId,
    possible_duplicate_of: other?.listing.id ?? null,
  }
  const now = Date.now()
  fields.expires_at = expiryOf(body.expires_at, city, body.sale_or_rent, now)
  fields.date = calendarDate(new Date(now), ctx.config.timeZone)
  fields.created_at = now
  fields.updated_at = now
  const columns = Object.keys(fields)
  const created = await ctx.db.tx(async (tx) => {
    const { rows } = await tx.run<{ id: number }>(
      `insert into listings (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')}) returning id`,
      Object.values(fields),
    )
    const id = rows[0]!.id
    // The readable code needs the row id, known only now.
    const listing = (await tx.run<Row>(`update listings set entry_id = ? where id = ? returning ${ROW}`, [formatEntryId(body.post_type, city.name, id), id])).rows[0]!
    await recordAudit(tx, { actor: actorOf(actor), action: 'listing.create', entityType: 'listing', entityId: listing.id, cityId, after: auditView(listing) }, now)
    await queueAnnouncement(tx, listing.id, now)
    return listing
  })
  ctx.announcer.soon()
  ctx.expiry.due(created.expiresAt)
  return created
}

/** A listing's stored fields, whoever asks (a signed renew link is its own authority); null when it is gone. */
export const listingRow = async (db: Queryable, id: number): Promise<Row | null> => (await db.get<Row>(`select ${ROW} from listings where id = ?`, [id])) ?? null

/** The listing an actor may change: invisible ones are "not found"; visible but not theirs is 403. */
async function changeable(db: Queryable, actor: Actor, id: number): Promise<Row> {
  const where = allOf({ sql: 'listings.id = ?', params: [id] }, visibleTo(actor))
  const row = await db.get<Row>(`select ${ROW} from listings where ${where.sql}`, where.params)
  if (!row) throw notFound('Listing not found')
  if (!canEdit(actor, row)) throw forbidden('You can only change your own listings')
  return row
}

/**
 * A partial change (e.g. only the status), checked against the status rules; brokers cannot move a listing's city. A
 * listing an admin suspended keeps its status against everyone but an admin (403), and an admin suspending another's
 * listing says why (./moderation.ts).
 */
export async function updateListing(ctx: AppContext, actor: Actor, id: number, body: UpdateListingBody): Promise<Row> {
  const before = await changeable(ctx.db, actor, id)
  await assertMayChangeStatus(ctx.db, actor, before, body)
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
  if (Object.keys(changes).length === 0) return before
  changes.updated_at = now
  // The hotsheet (issue 17): a new budget, or a return to ACTIVE, is news.
  if (changes.status === 'ACTIVE' && before.status !== 'ACTIVE') Object.assign(changes, { hot_event: 'BACK_ON_MARKET', hot_at: now })
  else if (changes.budget !== undefined && changes.budget !== before.budget) Object.assign(changes, { hot_event: 'PRICE_CHANGED', hot_at: now })
  const updated = await ctx.db.tx(async (tx) => {
    const set = Object.keys(changes).map((c) => `${c} = ?`)
    // Only the listing as read: a change racing an admin's suspension (or its lifting) must not undo it unseen.
    const asRead = 'where id = ? and status = ? and suspended_by is not distinct from ?'
    const after = (await tx.run<Row>(`update listings set ${set.join(', ')} ${asRead} returning ${ROW}`, [...Object.values(changes), id, before.status, before.suspendedBy])).rows[0]
    if (!after) throw conflict('This listing changed meanwhile: look at it again')
    const statusAction =
      changes.status === 'SUSPENDED' && before.status !== 'SUSPENDED' ? 'listing.suspend' : before.status === 'SUSPENDED' && changes.status === 'ACTIVE' ? 'listing.reactivate' : 'listing.update'
    const action = moderation.action ?? statusAction
    await recordAudit(
      tx,
      { actor: actorOf(actor), action, entityType: 'listing', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after), reason: moderation.reason },
      now,
    )
    await tellOwner(ctx, tx, after, moderation)
    // Only what matching reads can make new pairs: an edit of the details or comments announces nothing.
    if (MATCHED_BY.some((k) => before[k] !== after[k])) await queueAnnouncement(tx, id, now)
    return after
  })
  ctx.announcer.soon()
  ctx.expiry.due(updated.expiresAt)
  return updated
}

/**
 * Renewing (issue 17): the listing stays for its city's default from now, and an expired one is ACTIVE again (news on
 * the hotsheet: back on market). The owner or their admins (`manage:listing`), early too; a closed or suspended listing
 * is not on offer, so there is nothing to renew.
 */
export async function renewListing(ctx: AppContext, actor: Actor, id: number, via: 'api' | 'link' = 'api'): Promise<Row> {
  const before = await changeable(ctx.db, actor, id)
  // Its owner learns who may put it back (an admin), rather than only that a suspended listing is not renewed.
  if (underModeration(before) && !moderates(actor)) throw await liftRefusal(ctx.db, before.cityId)
  return renew(ctx, actorOf(actor), before, via)
}

/** Renew a listing already judged changeable (by the caller's scope, or by a signed renew link). */
export async function renew(ctx: AppContext, actor: { id: number; fullName: string }, before: Row, via: 'api' | 'link'): Promise<Row> {
  if (before.status === 'CLOSED' || before.status === 'SUSPENDED') throw conflict(`A ${before.status === 'CLOSED' ? 'closed' : 'suspended'} listing cannot be renewed`)
  const now = Date.now()
  const city = await cityOf(ctx.db, before.cityId)
  const changes: Record<string, Param> = { expires_at: now + stayMs(city, before.saleOrRent), updated_at: now }
  if (before.status === 'EXPIRED') Object.assign(changes, { status: 'ACTIVE', hot_event: 'BACK_ON_MARKET', hot_at: now })
  const set = Object.keys(changes).map((c) => `${c} = ?`)
  const renewed = await ctx.db.tx(async (tx) => {
    // Only the listing as read: a renewal racing another (a renew link clicked twice) or the clock expiring it is refused.
    const asRead = 'where id = ? and status = ? and expires_at is not distinct from ?'
    const after = (await tx.run<Row>(`update listings set ${set.join(', ')} ${asRead} returning ${ROW}`, [...Object.values(changes), before.id, before.status, before.expiresAt])).rows[0]
    if (!after) throw conflict('This listing changed meanwhile: look at it again')
    await recordAudit(tx, { actor, action: 'listing.renew', entityType: 'listing', entityId: before.id, cityId: after.cityId, before: auditView(before), after: { ...auditView(after), via } }, now)
    if (before.status === 'EXPIRED') await queueAnnouncement(tx, before.id, now)
    return after
  })
  ctx.announcer.soon()
  ctx.expiry.due(renewed.expiresAt)
  return renewed
}

/**
 * The owner of a listing an admin suspended asks for a review (issue 29): the admins of its city and the master
 * admins are told by mail, and the grid tags it until an admin answers (reactivates it, or keeps it suspended with a
 * reason). Only the owner asks (403 for the admins who could answer; other brokers do not see it: 404); 409 when no
 * admin suspended it, or a review is already pending.
 */
export async function requestReview(ctx: AppContext, actor: Actor, id: number, body: ReviewRequestBody): Promise<{ listing: Row; adminsNotified: number }> {
  const where = allOf({ sql: 'listings.id = ?', params: [id] }, visibleTo(actor))
  const before = await ctx.db.get<Row>(`select ${ROW} from listings where ${where.sql}`, where.params)
  if (!before) throw notFound('Listing not found')
  if (before.ownerUserId !== actor.id) throw forbidden('Only the listing’s owner can ask for a review of its suspension')
  if (!underModeration(before)) throw conflict('This listing is not suspended by an admin: there is no suspension to review')
  if (before.reviewRequestedAt !== null)
    throw conflict(`A review was already asked for on ${new Date(Number(before.reviewRequestedAt)).toISOString()}: the admins have been told, and answer by reactivating the listing or keeping it suspended`)
  const now = Date.now()
  const note = body.note?.trim() || null
  return ctx.db.tx(async (tx) => {
    const asRead = "where id = ? and status = 'SUSPENDED' and suspended_by is not null and review_requested_at is null"
    const after = (await tx.run<Row>(`update listings set review_requested_at = ?, review_note = ? ${asRead} returning ${ROW}`, [now, note, id])).rows[0]
    if (!after) throw conflict('This listing changed meanwhile: look at it again')
    await recordAudit(tx, { actor: actorOf(actor), action: 'listing.review_request', entityType: 'listing', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after), reason: note }, now)
    return { listing: after, adminsNotified: await tellAdmins(ctx, tx, after, actor.fullName) }
  })
}

/** The listing's columns matching reads (MATCH_FIELDS, as the row names them). */
const MATCHED_BY = ['postType', 'saleOrRent', 'propertyType', 'budget', 'size', 'location', 'locality', 'status', 'cityId'] as const satisfies readonly (keyof Row)[]

/** Gone from every answer; its last content stays in the audit trail. */
export async function deleteListing(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const before = await changeable(ctx.db, actor, id)
  await ctx.db.tx(async (tx) => {
    await tx.run('delete from listings where id = ?', [id])
    await recordAudit(tx, { actor: actorOf(actor), action: 'listing.delete', entityType: 'listing', entityId: id, cityId: before.cityId, before: auditView(before) })
  })
}

/** Suspended listings in an admin's scope: the admin banner's "needing attention" (from the kept totals). */
export const countSuspended = (ctx: AppContext, viewer: Viewer): Promise<number> => countListings(ctx.db, ctx.counts, viewer, { status: 'SUSPENDED' })

/** Of those, the admins' suspensions whose owner asks for a review (issue 29): the banner's second line. */
export const countReviewRequests = (ctx: AppContext, viewer: Viewer): Promise<number> => countListings(ctx.db, ctx.counts, viewer, { review_requested: true })
