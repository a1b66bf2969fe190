import { and, count, eq } from 'drizzle-orm'
import { cities, listings } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { conflict, fieldError, forbidden, notFound, unprocessable } from '../../http/errors'
import type { ListingStatus } from '../../shared/constants'
import { calendarDate } from '../../shared/dates'
import { recordAudit } from '../audit/service'
import { queueAnnouncement } from '../matches/service'
import { formatEntryId } from './entry-id'
import type { CreateListingBody, UpdateListingBody } from './model'
import { countListings } from './read'
import { asDrizzle, canEdit, listingScope, visibleTo, type Viewer } from './where'

type Actor = Viewer & { fullName: string }
type Row = typeof listings.$inferSelect

/** What the audit trail keeps of a listing: its whole content, so a deleted listing's last state survives there. */
const auditView = (l: Row) => {
  const { createdAt: _c, updatedAt: _u, propertyKey: _k, ...rest } = l
  return rest
}
const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

/**
 * SPEC section 4: Suspend only from ACTIVE; out of SUSPENDED only back to ACTIVE (Reactivate / Unsuspend);
 * ACTIVE, ON_HOLD and CLOSED move freely among themselves.
 */
export function assertTransition(from: ListingStatus, to: ListingStatus): void {
  if (from === to) return
  if (to === 'SUSPENDED' && from !== 'ACTIVE') throw conflict(`Only an active listing can be suspended; this one is ${from}`)
  if (from === 'SUSPENDED' && to !== 'ACTIVE') throw conflict(`A suspended listing can only be reactivated (to ACTIVE), not moved to ${to}`)
}

// Optional texts: trimmed, and empty means "none".
const clean = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : v.trim() || null)

function fieldsOf(body: UpdateListingBody) {
  const out: Partial<typeof listings.$inferInsert> = {}
  if (body.post_type !== undefined) out.postType = body.post_type
  if (body.sale_or_rent !== undefined) out.saleOrRent = body.sale_or_rent
  if (body.contact_value !== undefined) {
    out.contactValue = body.contact_value.trim()
    if (out.contactValue.length < 5) throw fieldError('contact_value', 'Contact value must be at least 5 characters')
  }
  if (body.property_type !== undefined) {
    out.propertyType = body.property_type.trim()
    if (out.propertyType.length < 2) throw fieldError('property_type', 'Property type is required')
  }
  if (body.budget !== undefined) out.budget = body.budget
  if (body.size !== undefined) out.size = body.size
  if (body.location !== undefined) out.location = body.location
  for (const [key, column] of [
    ['locality', 'locality'],
    ['reference', 'reference'],
    ['type_details', 'typeDetails'],
    ['details', 'details'],
    ['comments', 'comments'],
    ['google_location_url', 'googleLocationUrl'],
  ] as const) {
    const v = clean(body[key])
    if (v !== undefined) out[column] = v
  }
  return out
}

function cityOf(ctx: AppContext, cityId: number) {
  const city = ctx.db.select({ id: cities.id, name: cities.name }).from(cities).where(eq(cities.id, cityId)).get()
  if (!city) throw fieldError('city_id', 'City is required')
  return city
}

/**
 * A new listing. A broker's takes their city and their name as contact; an admin's needs a city (a module admin's is
 * always their own) and details, and its contact name defaults to the admin's name (SPEC section 6).
 */
export function createListing(ctx: AppContext, actor: Actor, body: CreateListingBody): Row {
  if (body.status === 'SUSPENDED') throw unprocessable('A new listing cannot start suspended')
  let cityId: number
  let contactName: string
  // Where a new listing goes follows the `manage:listing` scope: one's own (a broker: their city, their name as
  // contact), one's city (a module admin), or any city named (a master admin).
  const scope = listingScope(actor, 'manage')
  if (scope.kind === 'own') {
    if (actor.cityId === null) throw unprocessable('Your account has no city yet: ask an administrator to assign one')
    cityId = actor.cityId
    contactName = actor.fullName
  } else {
    if (scope.kind !== 'all') {
      if (scope.kind !== 'city') throw forbidden('You have no assigned city to post listings in')
      cityId = scope.cityId
    } else {
      if (!body.city_id) throw fieldError('city_id', 'City is required')
      cityId = body.city_id
    }
    if (!body.details?.trim()) throw fieldError('details', 'Details are required')
    contactName = body.contact_name?.trim() || actor.fullName || 'Admin'
  }
  const city = cityOf(ctx, cityId)
  const fields = fieldsOf(body)
  const now = new Date()
  const created = ctx.db.transaction((tx) => {
    const placeholder = `NEW-${crypto.randomUUID()}`
    const inserted = tx
      .insert(listings)
      .values({
        ...(fields as typeof listings.$inferInsert),
        postType: body.post_type,
        saleOrRent: body.sale_or_rent,
        contactValue: fields.contactValue!,
        propertyType: fields.propertyType!,
        contactName,
        status: body.status ?? 'ACTIVE',
        entryId: placeholder,
        date: calendarDate(now, ctx.config.timeZone),
        ownerUserId: actor.id,
        cityId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: listings.id })
      .get()
    // The readable code needs the row id, known only now.
    const listing = tx
      .update(listings)
      .set({ entryId: formatEntryId(body.post_type, city.name, inserted.id) })
      .where(eq(listings.id, inserted.id))
      .returning()
      .get()!
    recordAudit(tx, { actor: actorOf(actor), action: 'listing.create', entityType: 'listing', entityId: listing.id, cityId, after: auditView(listing) })
    queueAnnouncement(ctx.db, listing.id, now.getTime())
    return listing
  })
  ctx.announcer.soon()
  return created
}

/** The listing an actor may change: invisible ones are "not found"; visible but not theirs is 403. */
function changeable(ctx: AppContext, actor: Actor, id: number): Row {
  const visible = visibleTo(actor)
  const row = ctx.db.select().from(listings).where(and(eq(listings.id, id), visible ? asDrizzle(visible) : undefined)).get()
  if (!row) throw notFound('Listing not found')
  if (!canEdit(actor, row)) throw forbidden('You can only change your own listings')
  return row
}

/** A partial change (e.g. only the status), checked against the status rules; brokers cannot move a listing's city. */
export function updateListing(ctx: AppContext, actor: Actor, id: number, body: UpdateListingBody): Row {
  const before = changeable(ctx, actor, id)
  const changes = fieldsOf(body)
  if (body.status !== undefined) {
    assertTransition(before.status, body.status)
    changes.status = body.status
  }
  const scope = listingScope(actor, 'manage')
  if (body.contact_name !== undefined && scope.kind !== 'own') changes.contactName = body.contact_name?.trim() || before.contactName
  if (body.city_id !== undefined && body.city_id !== before.cityId) {
    if (scope.kind !== 'all') throw forbidden('Only a master admin can move a listing to another city')
    changes.cityId = cityOf(ctx, body.city_id).id
  }
  if (Object.keys(changes).length === 0) return before
  const updated = ctx.db.transaction((tx) => {
    const after = tx.update(listings).set({ ...changes, updatedAt: new Date() }).where(eq(listings.id, id)).returning().get()!
    const action = changes.status === 'SUSPENDED' ? 'listing.suspend' : before.status === 'SUSPENDED' && changes.status === 'ACTIVE' ? 'listing.reactivate' : 'listing.update'
    recordAudit(tx, { actor: actorOf(actor), action, entityType: 'listing', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after) })
    // Only what matching reads can make new pairs: an edit of the details or comments announces nothing.
    if (MATCHED_BY.some((k) => before[k] !== after[k])) queueAnnouncement(ctx.db, id)
    return after
  })
  ctx.announcer.soon()
  return updated
}

/** The listing's columns matching reads (MATCH_FIELDS, as the row names them). */
const MATCHED_BY = ['postType', 'saleOrRent', 'propertyType', 'budget', 'size', 'location', 'locality', 'status', 'cityId'] as const satisfies readonly (keyof Row)[]

/** Gone from every answer; its last content stays in the audit trail. */
export function deleteListing(ctx: AppContext, actor: Actor, id: number): void {
  const before = changeable(ctx, actor, id)
  ctx.db.transaction((tx) => {
    tx.delete(listings).where(eq(listings.id, id)).run()
    recordAudit(tx, { actor: actorOf(actor), action: 'listing.delete', entityType: 'listing', entityId: id, cityId: before.cityId, before: auditView(before) })
  })
}

/** Suspended listings in an admin's scope: the admin banner's "needing attention" (from the kept totals). */
export const countSuspended = (ctx: AppContext, viewer: Viewer): number => countListings(ctx.db, ctx.counts, viewer, { status: 'SUSPENDED' })

