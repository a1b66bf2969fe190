import { and, count, eq, ne } from 'drizzle-orm'
import { cities, users } from '../../../db/schema'
import type { Actor } from '../../http/auth'
import { scopeOf } from '../../policy/scope'
import type { AppContext } from '../../http/context'
import { conflict, forbidden, notFound, unprocessable } from '../../http/errors'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { normalizeEmail } from '../auth/service'
import { invalidateUserSessions } from '../auth/session'
import { extensionOf } from '../documents/store'
import { registrationApproved, registrationRejected } from '../mail/templates'
import { NO_ID_CARD_DOCUMENT } from '../../../islands/users/user-format'
import type { CreateUserBody, UpdateUserBody } from './model'
import { visibleTo } from './read'
import { assertUniqueUser, duplicateUser, insertUserWithDocument, INVALID_CITY, readIdDocument } from './store'

type User = typeof users.$inferSelect

/** What the audit trail keeps of a user: never the password hash or the document's file name. */
export const auditView = (u: User) => ({
  email: u.email,
  full_name: u.fullName,
  phone: u.phone,
  role: u.role,
  is_active: u.isActive,
  registration_status: u.registrationStatus,
  id_card_number: u.idCardNumber,
  city_id: u.cityId,
})

/**
 * The user the actor may manage: a master admin anyone; a module admin only brokers of their own city.
 * Anyone else's user is "not found" to a module admin, so ids of other cities reveal nothing.
 */
export function managedUser({ db }: AppContext, actor: Actor, id: number): User {
  const user = db.select().from(users).where(and(eq(users.id, id), visibleTo(actor, 'manage'))).get()
  if (!user) throw notFound('User not found')
  return user
}

const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

function assertCity(ctx: AppContext, cityId: number) {
  if (!ctx.db.select({ id: cities.id }).from(cities).where(eq(cities.id, cityId)).get()) throw unprocessable(INVALID_CITY)
}

/**
 * An admin adds a broker or (master admin only) a module admin, approved and active at once. A module admin's
 * new user is a broker of their own city whatever the request says. The 10 MB document limit is enforced here
 * (the original only hinted at it).
 */
export async function createUser(ctx: AppContext, actor: Actor, body: CreateUserBody): Promise<User> {
  // The new user must fall within the actor's `manage:user` scope: anyone anywhere, or a broker of their own city.
  const scope = scopeOf(actor, 'user', 'manage')
  if (scope.kind !== 'all' && body.role !== 'BROKER') throw forbidden('Module admins can only add brokers')
  if (scope.kind !== 'all' && scope.kind !== 'city') throw forbidden('You have no assigned city to add brokers to')
  const cityId = scope.kind === 'city' ? scope.cityId : body.city_id
  const email = normalizeEmail(body.email)
  const fullName = body.full_name.trim()
  const phone = body.phone.trim()
  const idCardNumber = body.id_card_number?.trim() || null
  if (!fullName) throw unprocessable('Full name is required')
  if (!phone) throw unprocessable('Phone number is required')
  assertCity(ctx, cityId)
  assertUniqueUser(ctx.db, { email, idCardNumber })

  const document = await readIdDocument(body.id_card_document, LIMITS.adminUploadFileBytes)
  const passwordHash = await Bun.password.hash(body.password)
  return insertUserWithDocument(ctx, document, (tx, stored) => {
    const user = tx
      .insert(users)
      .values({
        email,
        passwordHash,
        fullName,
        phone,
        role: body.role,
        isActive: true,
        registrationStatus: 'APPROVED',
        idCardNumber,
        ...stored,
        cityId,
      })
      .returning()
      .get()
    recordAudit(tx, { actor: actorOf(actor), action: 'user.create', entityType: 'user', entityId: user.id, cityId, after: auditView(user) })
    return user
  })
}

/** Edits name, phone and ID card number; the city only by a master admin (the original's Edit only logged). */
export function updateUser(ctx: AppContext, actor: Actor, id: number, body: UpdateUserBody): User {
  const before = managedUser(ctx, actor, id)
  const changes: Partial<typeof users.$inferInsert> = {}
  if (body.full_name !== undefined) {
    changes.fullName = body.full_name.trim()
    if (!changes.fullName) throw unprocessable('Full name is required')
  }
  if (body.phone !== undefined) {
    changes.phone = body.phone.trim()
    if (!changes.phone) throw unprocessable('Phone number is required')
  }
  if (body.id_card_number !== undefined) changes.idCardNumber = body.id_card_number?.trim() || null
  if (body.city_id !== undefined && body.city_id !== before.cityId) {
    if (scopeOf(actor, 'user', 'manage').kind !== 'all') throw forbidden('Only master admins can move a user to another city')
    assertCity(ctx, body.city_id)
    changes.cityId = body.city_id
  }
  assertUniqueUser(ctx.db, { idCardNumber: changes.idCardNumber }, id)
  if (Object.keys(changes).length === 0) return before
  try {
    return ctx.db.transaction((tx) => {
      const after = tx.update(users).set({ ...changes, updatedAt: new Date() }).where(eq(users.id, id)).returning().get()!
      recordAudit(tx, { actor: actorOf(actor), action: 'user.update', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after) })
      return after
    })
  } catch (e) {
    throw duplicateUser(e) ?? e
  }
}

/** PENDING (or earlier REJECTED) → APPROVED and active; the user is told by mail. */
export function approveUser(ctx: AppContext, actor: Actor, id: number): User {
  const before = managedUser(ctx, actor, id)
  if (before.registrationStatus === 'APPROVED') throw conflict('This user is already approved')
  const after = ctx.db.transaction((tx) => {
    const after = tx
      .update(users)
      .set({ registrationStatus: 'APPROVED', isActive: true, rejectionReason: null, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning()
      .get()!
    recordAudit(tx, { actor: actorOf(actor), action: 'user.approve', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after) })
    ctx.mail.send(registrationApproved(ctx.config.publicUrl, after))
    return after
  })
  ctx.pending.changed()
  return after
}

/** PENDING → REJECTED and inactive, the reason kept; sessions end and the user is told by mail. */
export function rejectUser(ctx: AppContext, actor: Actor, id: number, reason?: string | null): User {
  const before = managedUser(ctx, actor, id)
  if (before.registrationStatus !== 'PENDING')
    throw conflict(`Only a pending registration can be rejected; this one is ${before.registrationStatus.toLowerCase()}`)
  const why = reason?.trim() || null
  const after = ctx.db.transaction((tx) => {
    const after = tx
      .update(users)
      .set({ registrationStatus: 'REJECTED', isActive: false, rejectionReason: why, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning()
      .get()!
    invalidateUserSessions(tx, id)
    recordAudit(tx, { actor: actorOf(actor), action: 'user.reject', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after), reason: why })
    ctx.mail.send(registrationRejected(ctx.config.publicUrl, after, why))
    return after
  })
  ctx.pending.changed()
  return after
}

/** Activates or deactivates; deactivation ends every session of the user at once. */
export function setUserActive(ctx: AppContext, actor: Actor, id: number, isActive: boolean, reason?: string | null): User {
  const before = managedUser(ctx, actor, id)
  if (!isActive && before.id === actor.id) throw forbidden('You cannot deactivate your own account')
  if (isActive && before.registrationStatus !== 'APPROVED')
    throw conflict('This registration has not been approved: approve it instead of activating it')
  if (!isActive && before.role === 'MASTER_ADMIN') {
    const others = ctx.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.role, 'MASTER_ADMIN'), eq(users.isActive, true), ne(users.id, id)))
      .get()!.n
    if (others === 0) throw conflict('The last active master admin cannot be deactivated')
  }
  return ctx.db.transaction((tx) => {
    const after = tx.update(users).set({ isActive, updatedAt: new Date() }).where(eq(users.id, id)).returning().get()!
    if (!isActive) invalidateUserSessions(tx, id)
    recordAudit(tx, {
      actor: actorOf(actor),
      action: isActive ? 'user.activate' : 'user.deactivate',
      entityType: 'user',
      entityId: id,
      cityId: after.cityId,
      before: auditView(before),
      after: auditView(after),
      reason: reason?.trim() || null,
    })
    return after
  })
}

/** The identity document of a user the actor may manage, for download; each view is written to the audit trail. */
export function readIdCard(ctx: AppContext, actor: Actor, id: number) {
  const user = managedUser(ctx, actor, id)
  const file = ctx.documents.file(user.idCardDocument)
  if (!file) throw notFound(NO_ID_CARD_DOCUMENT)
  recordAudit(ctx.db, { actor: actorOf(actor), action: 'user.id_card_view', entityType: 'user', entityId: id, cityId: user.cityId })
  const type = user.idCardDocumentType ?? 'application/octet-stream'
  const filename = `${user.fullName.trim().replace(/\s+/g, '_').replace(/[^\w.-]/g, '') || 'user'}_id_card.${extensionOf(type)}`
  return { file, type, filename }
}
