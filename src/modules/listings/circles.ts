import type { AppContext } from '../../platform/context'
import { conflict, fieldError, notFound } from '../../platform/errors'
import { recordAudit } from '../audit/service'
import { activeBrokerId } from '../users/store'
import { addMember, circleOwnedBy, circlesOf, deleteCircle, insertCircle, removeMember, type Circle } from './store/circles'
import type { Viewer } from './store/where'

type Actor = Viewer & { fullName: string }

const iso = (c: Circle) => ({ ...c, created_at: new Date(Number(c.created_at)).toISOString() })
const actorOf = (a: Actor) => ({ id: a.id, fullName: a.fullName })

/** The caller's circles (issue 35), each with its members. */
export const listCircles = async (ctx: AppContext, actor: Actor) => ({ circles: (await circlesOf(ctx.db, actor.id)).map(iso) })

async function ownCircle(ctx: AppContext, actor: Actor, id: number) {
  const circle = (await circlesOf(ctx.db, actor.id)).find((c) => c.id === id)
  if (!circle) throw notFound('Circle not found')
  return iso(circle)
}

export async function createCircle(ctx: AppContext, actor: Actor, name: string) {
  const trimmed = name.trim()
  if (!trimmed) throw fieldError('name', 'Name the circle')
  if ((await circlesOf(ctx.db, actor.id)).some((c) => c.name.toLowerCase() === trimmed.toLowerCase())) throw conflict(`You already have a circle named ${trimmed}`)
  const now = Date.now()
  const id = await ctx.db.tx(async (tx) => {
    const id = await insertCircle(tx, actor.id, trimmed, now)
    await recordAudit(tx, { actor: actorOf(actor), action: 'circle.create', entityType: 'circle', entityId: id, cityId: actor.cityId, after: { name: trimmed } }, now)
    return id
  })
  return ownCircle(ctx, actor, id)
}

/** Gone with its members; the listings shown to it are then their owner's only, until given another visibility. */
export async function removeCircle(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const now = Date.now()
  await ctx.db.tx(async (tx) => {
    if (!(await deleteCircle(tx, id, actor.id))) throw notFound('Circle not found')
    await recordAudit(tx, { actor: actorOf(actor), action: 'circle.delete', entityType: 'circle', entityId: id, cityId: actor.cityId }, now)
  })
}

/** Adds an active broker (by id or email) to one of the caller's circles. */
export async function addToCircle(ctx: AppContext, actor: Actor, id: number, who: { user_id?: number; email?: string }) {
  if (!(await circleOwnedBy(ctx.db, id, actor.id))) throw notFound('Circle not found')
  const brokerId = await activeBrokerId(ctx.db, { id: who.user_id, email: who.email })
  if (brokerId === null) throw notFound('No active broker with that id or email')
  const broker = { id: brokerId }
  if (broker.id === actor.id) throw fieldError('user_id', 'You see your own listings already')
  const now = Date.now()
  await ctx.db.tx(async (tx) => {
    await addMember(tx, id, broker.id, now)
    await recordAudit(tx, { actor: actorOf(actor), action: 'circle.add_member', entityType: 'circle', entityId: id, cityId: actor.cityId, after: { member_user_id: broker.id } }, now)
  })
  return ownCircle(ctx, actor, id)
}

export async function removeFromCircle(ctx: AppContext, actor: Actor, id: number, userId: number) {
  if (!(await circleOwnedBy(ctx.db, id, actor.id))) throw notFound('Circle not found')
  const now = Date.now()
  await ctx.db.tx(async (tx) => {
    if (!(await removeMember(tx, id, userId))) throw notFound('Not a member of this circle')
    await recordAudit(tx, { actor: actorOf(actor), action: 'circle.remove_member', entityType: 'circle', entityId: id, cityId: actor.cityId, before: { member_user_id: userId } }, now)
  })
  return ownCircle(ctx, actor, id)
}
