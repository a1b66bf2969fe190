import type { Param, Queryable } from '../../../db/sql'
import type { Actor } from '../../platform/http/auth'
import { scopeOf } from '../../platform/policy/scope'
import type { AppContext } from '../../platform/context'
import { conflict, forbidden, notFound, invalid } from '../../platform/errors'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { normalizeEmail } from '../auth/service'
import { invalidateUserSessions } from '../../platform/sessions'
import { extensionOf } from '../../platform/documents'
import { registrationApproved, registrationRejected } from '../mail/templates'
import { NO_ID_CARD_DOCUMENT } from '../../../islands/users/user-format'
import type { CreateUserBody, UpdateUserBody } from './model'
import { visibleTo, where } from './store/read'
import { assertUniqueUser, duplicateUser, insertUser, insertUserWithDocument, INVALID_CITY, otherActiveMasterAdmins, readIdDocument, updateUserRow, userIs, userWhere, type User } from './store'
import { cityExists } from '../geography/store'
import { hashPassword } from '../../platform/passwords'

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
 * The changes below read it in their transaction, so the checks they make of it still hold when they write.
 */
export async function managedUser(db: Queryable, actor: Actor, id: number): Promise<User> {
  const filter = where(userIs(id), visibleTo(actor, 'manage'))
  const user = await userWhere(db, filter)
  if (!user) throw notFound('User not found')
  return user
}

/** Sets columns of one user (names from this file only, never from input) and answers the row as it now is. */
async function updateRow(tx: Queryable, id: number, set: string, params: Param[]): Promise<User> {
  return updateUserRow(tx, id, set, params, Date.now())
}

const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

async function assertCity(db: Queryable, cityId: number) {
  if (!(await cityExists(db, cityId))) throw invalid(INVALID_CITY)
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
  if (!fullName) throw invalid('Full name is required')
  if (!phone) throw invalid('Phone number is required')
  await assertCity(ctx.db, cityId)
  await assertUniqueUser(ctx.db, { email, idCardNumber })

  const document = await readIdDocument(body.id_card_document, LIMITS.adminUploadFileBytes)
  const passwordHash = await hashPassword(body.password)
  return insertUserWithDocument(ctx, document, async (tx, stored) => {
    const user = await insertUser(tx, {
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
    await recordAudit(tx, { actor: actorOf(actor), action: 'user.create', entityType: 'user', entityId: user.id, cityId, after: auditView(user) })
    return user
  })
}

/** Edits name, phone and ID card number; the city only by a master admin (the original's Edit only logged). */
export async function updateUser(ctx: AppContext, actor: Actor, id: number, body: UpdateUserBody): Promise<User> {
  try {
    return await ctx.db.tx(async (tx) => {
      const before = await managedUser(tx, actor, id)
      const changes: { full_name?: string; phone?: string; id_card_number?: string | null; city_id?: number } = {}
      if (body.full_name !== undefined) {
        changes.full_name = body.full_name.trim()
        if (!changes.full_name) throw invalid('Full name is required')
      }
      if (body.phone !== undefined) {
        changes.phone = body.phone.trim()
        if (!changes.phone) throw invalid('Phone number is required')
      }
      if (body.id_card_number !== undefined) changes.id_card_number = body.id_card_number?.trim() || null
      if (body.city_id !== undefined && body.city_id !== before.cityId) {
        if (scopeOf(actor, 'user', 'manage').kind !== 'all') throw forbidden('Only master admins can move a user to another city')
        await assertCity(tx, body.city_id)
        changes.city_id = body.city_id
      }
      await assertUniqueUser(tx, { idCardNumber: changes.id_card_number }, id)
      const columns = Object.keys(changes) as (keyof typeof changes)[]
      if (columns.length === 0) return before
      const after = await updateRow(tx, id, columns.map((c) => `${c} = ?`).join(', '), columns.map((c) => changes[c] ?? null))
      await recordAudit(tx, { actor: actorOf(actor), action: 'user.update', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after) })
      return after
    })
  } catch (e) {
    throw duplicateUser(e) ?? e
  }
}

/** PENDING (or earlier REJECTED) → APPROVED and active; the user is told by mail. */
export async function approveUser(ctx: AppContext, actor: Actor, id: number): Promise<User> {
  const after = await ctx.db.tx(async (tx) => {
    const before = await managedUser(tx, actor, id)
    if (before.registrationStatus === 'APPROVED') throw conflict('This user is already approved')
    const after = await updateRow(tx, id, "registration_status = 'APPROVED', is_active = ?, rejection_reason = null", [true])
    await recordAudit(tx, { actor: actorOf(actor), action: 'user.approve', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after) })
    await ctx.mail.send(tx, registrationApproved(ctx.config.publicUrl, after))
    return after
  })
  ctx.feed.sync()
  return after
}

/** PENDING → REJECTED and inactive, the reason kept; sessions end and the user is told by mail. */
export async function rejectUser(ctx: AppContext, actor: Actor, id: number, reason?: string | null): Promise<User> {
  const why = reason?.trim() || null
  const after = await ctx.db.tx(async (tx) => {
    const before = await managedUser(tx, actor, id)
    if (before.registrationStatus !== 'PENDING')
      throw conflict(`Only a pending registration can be rejected; this one is ${before.registrationStatus.toLowerCase()}`)
    const after = await updateRow(tx, id, "registration_status = 'REJECTED', is_active = ?, rejection_reason = ?", [false, why])
    await invalidateUserSessions(tx, id)
    await recordAudit(tx, { actor: actorOf(actor), action: 'user.reject', entityType: 'user', entityId: id, cityId: after.cityId, before: auditView(before), after: auditView(after), reason: why })
    await ctx.mail.send(tx, registrationRejected(ctx.config.publicUrl, after, why))
    return after
  })
  ctx.feed.sync()
  return after
}

/** Activates or deactivates; deactivation ends every session of the user at once. */
export async function setUserActive(ctx: AppContext, actor: Actor, id: number, isActive: boolean, reason?: string | null): Promise<User> {
  return ctx.db.tx(async (tx) => {
    const before = await managedUser(tx, actor, id)
    if (!isActive && before.id === actor.id) throw forbidden('You cannot deactivate your own account')
    if (isActive && before.registrationStatus !== 'APPROVED')
      throw conflict('This registration has not been approved: approve it instead of activating it')
    if (!isActive && before.role === 'MASTER_ADMIN') {
      // Counted in the transaction: two admins deactivating the last two others at once cannot both succeed.
      if ((await otherActiveMasterAdmins(tx, id)) === 0) throw conflict('The last active master admin cannot be deactivated')
    }
    const after = await updateRow(tx, id, 'is_active = ?', [isActive])
    if (!isActive) await invalidateUserSessions(tx, id)
    await recordAudit(tx, {
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
export async function readIdCard(ctx: AppContext, actor: Actor, id: number) {
  const user = await managedUser(ctx.db, actor, id)
  const file = ctx.documents.file(user.idCardDocument)
  if (!file) throw notFound(NO_ID_CARD_DOCUMENT)
  await recordAudit(ctx.db, { actor: actorOf(actor), action: 'user.id_card_view', entityType: 'user', entityId: id, cityId: user.cityId })
  const type = user.idCardDocumentType ?? 'application/octet-stream'
  const filename = `${user.fullName.trim().replace(/\s+/g, '_').replace(/[^\w.-]/g, '') || 'user'}_id_card.${extensionOf(type)}`
  return { file, type, filename }
}
