import type { Queryable } from '../../../../db/sql'
import { namesOf } from '../../users/store'

// A broker's named circles (issue 35): the brokers their CIRCLE listings are shown to. The listings module owns the
// tables because it judges visibility with them (./where.ts, `NOT_SHOWN_TO`); this file is their only other SQL.

export type Circle = { id: number; name: string; created_at: number; members: { id: number; full_name: string }[] }

export const circleOwnedBy = async (db: Queryable, circleId: number, ownerId: number): Promise<boolean> =>
  !!(await db.get<{ id: number }>('select id from circles where id = ? and owner_user_id = ?', [circleId, ownerId]))

/** The owner's circles, with their members (names from the users module), in name order. */
export async function circlesOf(db: Queryable, ownerId: number): Promise<Circle[]> {
  const circles = await db.all<{ id: number; name: string; created_at: number }>('select id, name, created_at from circles where owner_user_id = ? order by name, id', [ownerId])
  const members = await db.all<{ circle_id: number; id: number }>(
    'select m.circle_id, m.member_user_id as id from circle_members m join circles o on o.id = m.circle_id where o.owner_user_id = ? order by m.created_at, m.member_user_id',
    [ownerId],
  )
  const names = await namesOf(db, [...new Set(members.map((m) => Number(m.id)))])
  return circles.map((c) => ({
    ...c,
    id: Number(c.id),
    members: members.filter((m) => Number(m.circle_id) === Number(c.id)).map((m) => ({ id: Number(m.id), full_name: names.get(Number(m.id)) ?? '' })),
  }))
}

export async function insertCircle(db: Queryable, ownerId: number, name: string, now: number): Promise<number> {
  const { rows } = await db.run<{ id: number }>('insert into circles (owner_user_id, name, created_at) values (?, ?, ?) returning id', [ownerId, name, now])
  return Number(rows[0]!.id)
}

export const deleteCircle = async (db: Queryable, circleId: number, ownerId: number): Promise<boolean> =>
  (await db.run('delete from circles where id = ? and owner_user_id = ?', [circleId, ownerId])).changes > 0

export const addMember = async (db: Queryable, circleId: number, userId: number, now: number): Promise<void> => {
  await db.run('insert into circle_members (circle_id, member_user_id, created_at) values (?, ?, ?) on conflict do nothing', [circleId, userId, now])
}

export const removeMember = async (db: Queryable, circleId: number, userId: number): Promise<boolean> =>
  (await db.run('delete from circle_members where circle_id = ? and member_user_id = ?', [circleId, userId])).changes > 0
