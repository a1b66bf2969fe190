import { idsIn } from '../../../db/dialect'
import type { Queryable } from '../../../db/sql'
import type { Role } from '../../shared/constants'
import { isReachable, joinUser } from '../users/store'
import type { Alert } from './model'

// The only SQL of saved searches (`saved_searches`, issue 31).

/** A saved search as stored: its filters as JSON text, moments in epoch ms. */
export type SavedSearchRow = { id: number; user_id: number; name: string; filters: string; alert: Alert; seen_at: number; alerted_at: number | null; created_at: number; updated_at: number }

const COLUMNS = 'id, user_id, name, filters, alert, seen_at, alerted_at, created_at, updated_at'

/** A user's saved searches, oldest first. */
export const searchesOf = (db: Queryable, userId: number) => db.all<SavedSearchRow>(`select ${COLUMNS} from saved_searches where user_id = ? order by id`, [userId])

/** One of a user's saved searches; undefined when it is not theirs or does not exist. */
export const searchOf = (db: Queryable, userId: number, id: number) => db.get<SavedSearchRow>(`select ${COLUMNS} from saved_searches where id = ? and user_id = ?`, [id, userId])

/** Whether another of the user's searches (not `exceptId`) has this name in any case. */
export const nameUsed = async (db: Queryable, userId: number, name: string, exceptId: number): Promise<boolean> =>
  !!(await db.get('select id from saved_searches where user_id = ? and lower(name) = lower(?) and id <> ?', [userId, name, exceptId]))

/** How many saved searches a user has. */
export const searchCount = async (db: Queryable, userId: number): Promise<number> =>
  Number((await db.get<{ n: number }>('select count(*) as n from saved_searches where user_id = ?', [userId]))!.n)

export async function insertSearch(tx: Queryable, s: Omit<SavedSearchRow, 'id'>): Promise<SavedSearchRow> {
  const { rows } = await tx.run<SavedSearchRow>(
    `insert into saved_searches (user_id, name, filters, alert, seen_at, alerted_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
    [s.user_id, s.name, s.filters, s.alert, s.seen_at, s.alerted_at, s.created_at, s.updated_at],
  )
  return rows[0]!
}

export async function updateSearch(tx: Queryable, id: number, s: Pick<SavedSearchRow, 'name' | 'filters' | 'alert' | 'seen_at' | 'alerted_at' | 'updated_at'>): Promise<SavedSearchRow> {
  const { rows } = await tx.run<SavedSearchRow>(
    `update saved_searches set name = ?, filters = ?, alert = ?, seen_at = ?, alerted_at = ?, updated_at = ? where id = ? returning ${COLUMNS}`,
    [s.name, s.filters, s.alert, s.seen_at, s.alerted_at, s.updated_at, id],
  )
  return rows[0]!
}

export async function deleteSearch(tx: Queryable, id: number): Promise<void> {
  await tx.run('delete from saved_searches where id = ?', [id])
}

/** Marks one of a user's searches seen at `now`; false when it is not theirs or does not exist. */
export const markSearchSeen = async (db: Queryable, userId: number, id: number, now: number): Promise<boolean> =>
  (await db.run('update saved_searches set seen_at = ? where id = ? and user_id = ?', [now, id, userId])).changes > 0

/** The INSTANT searches of these users, in id order. */
export function instantSearchesOf(db: Queryable, userIds: number[]) {
  const users = idsIn(db.dialect, 'user_id', userIds)
  return db.all<{ id: number; user_id: number; name: string; filters: string }>(
    `select id, user_id, name, filters from saved_searches where alert = 'INSTANT' and ${users.sql} order by id`,
    users.params,
  )
}

/** Every user's INSTANT searches, in id order (a listing's push alerts, issue 33). */
export const allInstantSearches = (db: Queryable) =>
  db.all<{ id: number; user_id: number; name: string; filters: string }>("select id, user_id, name, filters from saved_searches where alert = 'INSTANT' order by id")

/** A DAILY search due a look, with its reachable owner's address, role and city. */
export type DueSearch = Pick<SavedSearchRow, 'id' | 'user_id' | 'name' | 'filters' | 'alerted_at' | 'created_at'> & { email: string; full_name: string; role: Role; city_id: number | null }

/** The DAILY searches whose last look is at or before `lookedBefore`, of owners who can read our mail, in id order. */
export const dueDailySearches = (db: Queryable, lookedBefore: number) =>
  db.all<DueSearch>(
    `select s.id, s.user_id, s.name, s.filters, s.alerted_at, s.created_at, u.email, u.full_name, u.role, u.city_id
     from saved_searches s ${joinUser('s.user_id', 'u')}
     where s.alert = 'DAILY' and coalesce(s.alerted_at, s.created_at) <= ? and ${isReachable('u')}
     order by s.id`,
    [lookedBefore],
  )

/** Claims a search's look: its `alerted_at` moved to now only if still `since`; false when another process took it. */
export const claimDailyLook = async (tx: Queryable, id: number, since: number, now: number): Promise<boolean> =>
  (await tx.run('update saved_searches set alerted_at = ? where id = ? and coalesce(alerted_at, created_at) = ?', [now, id, since])).changes > 0
