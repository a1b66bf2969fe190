import { and, count, eq, ne } from 'drizzle-orm'
import { users } from '../../../db/schema'
import type { Actor } from '../../http/auth'
import type { AppContext } from '../../http/context'
import { conflict, forbidden, notFound } from '../../http/errors'
import { recordAudit } from '../audit/service'
import { invalidateUserSessions } from '../auth/session'
import { registrationApproved, registrationRejected } from '../mail/templates'

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
  const user = db.select().from(users).where(eq(users.id, id)).get()
  if (!user) throw notFound('User not found')
  if (actor.role === 'MASTER_ADMIN') return user
  if (actor.role === 'MODULE_ADMIN' && actor.cityId !== null && user.role === 'BROKER' && user.cityId === actor.cityId) return user
  throw notFound('User not found')
}

const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

/** PENDING (or earlier REJECTED) → APPROVED and active; the user is told by mail. */
export function approveUser(ctx: AppContext, actor: Actor, id: number): User {
  const before = managedUser(ctx, actor, id)
  if (before.registrationStatus === 'APPROVED') throw conflict('This user is already approved')
  return ctx.db.transaction((tx) => {
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
}

/** PENDING → REJECTED and inactive, the reason kept; sessions end and the user is told by mail. */
export function rejectUser(ctx: AppContext, actor: Actor, id: number, reason?: string | null): User {
  const before = managedUser(ctx, actor, id)
  if (before.registrationStatus !== 'PENDING') throw conflict(`Only a pending registration can be rejected; this one is ${before.registrationStatus.toLowerCase()}`)
  const why = reason?.trim() || null
  return ctx.db.transaction((tx) => {
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
