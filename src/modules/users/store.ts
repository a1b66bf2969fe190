import { UniqueViolation } from '../../../db/faults'
import type { Param, Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { conflict, invalid, tooLarge } from '../../platform/errors'
import { detectDocumentType, type DocumentType } from '../../platform/documents'
import { USER_COLUMNS, userRow, type RawUser, type User } from '../../platform/sessions'

// The server's texts that the registration and add-user forms map to their sentences (SPEC section 8 "Registration").
export const EMAIL_TAKEN = 'email already registered'
export const ID_CARD_TAKEN = 'id card number already registered'
export const INVALID_CITY = 'invalid city'
export const FILE_TOO_LARGE = 'file too large'
export const FILE_TYPE_NOT_ALLOWED = 'file type not allowed'

export type IdDocument = { bytes: Uint8Array; type: DocumentType }

// The user row as sessions and services see it is the platform's (a session is a user's): the users feature's store
// passes it on.
export { USER_COLUMNS, userRow, type RawUser, type User } from '../../platform/sessions'

export type NewUser = Pick<User, 'email' | 'passwordHash' | 'fullName' | 'phone' | 'role' | 'isActive' | 'registrationStatus' | 'idCardNumber' | 'cityId'>
export type StoredDocument = { idCardDocument: string | null; idCardDocumentType: string | null }

/** Inserts a user and answers the stored row. */
export async function insertUser(tx: Queryable, u: NewUser & StoredDocument): Promise<User> {
  const now = Date.now()
  const { rows } = await tx.run<RawUser>(
    `insert into users (email, password_hash, full_name, phone, role, is_active, registration_status, id_card_number,
       id_card_document, id_card_document_type, city_id, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${USER_COLUMNS}`,
    [u.email, u.passwordHash, u.fullName, u.phone, u.role, u.isActive, u.registrationStatus, u.idCardNumber, u.idCardDocument, u.idCardDocumentType, u.cityId, now, now],
  )
  return userRow(rows[0]!)
}

/** An identity document's bytes and type, judged by its content: a PNG named .pdf is a PNG, text named .jpg is refused. */
export async function readIdDocument(file: File | undefined, maxBytes: number): Promise<IdDocument | null> {
  if (!file || file.size === 0) return null
  if (file.size > maxBytes) throw tooLarge(FILE_TOO_LARGE)
  const bytes = await file.bytes()
  const type = detectDocumentType(bytes.subarray(0, 16))
  if (!type) throw invalid(FILE_TYPE_NOT_ALLOWED)
  return { bytes, type }
}

/** 409 when another user (not `exceptId`) already has the email or ID card number. */
export async function assertUniqueUser(db: Queryable, fields: { email?: string; idCardNumber?: string | null }, exceptId?: number): Promise<void> {
  const other = (column: 'email' | 'id_card_number', value: string) =>
    exceptId ? db.get(`select id from users where ${column} = ? and id <> ?`, [value, exceptId]) : db.get(`select id from users where ${column} = ?`, [value])
  if (fields.email && (await other('email', fields.email))) throw conflict(EMAIL_TAKEN)
  if (fields.idCardNumber && (await other('id_card_number', fields.idCardNumber))) throw conflict(ID_CARD_TAKEN)
}

/** The 409 for a unique index on users that refused a write (two requests racing for one email or ID card), or null. */
export function duplicateUser(e: unknown) {
  const failed = (column: string) => e instanceof UniqueViolation && e.table === 'users' && e.columns.includes(column)
  if (failed('email')) return conflict(EMAIL_TAKEN)
  if (failed('id_card_number')) return conflict(ID_CARD_TAKEN)
  return null
}

/**
 * Stores a user and their document together or not at all: the file is written first (under a random name), then
 * `insert` runs in one transaction with the stored file's name and type; if it fails, the file is removed and a
 * unique-index race becomes its 409.
 */
export async function insertUserWithDocument(
  ctx: AppContext,
  document: IdDocument | null,
  insert: (tx: Queryable, stored: StoredDocument) => Promise<User>,
): Promise<User> {
  const stored = document ? await ctx.documents.save(document.bytes, document.type) : null
  try {
    return await ctx.db.tx((tx) => insert(tx, { idCardDocument: stored, idCardDocumentType: document?.type.mime ?? null }))
  } catch (e) {
    if (stored) await ctx.documents.remove(stored)
    throw duplicateUser(e) ?? e
  }
}

/** What a public listing page shows of the broker who shared it (issue 34): name, phone, and whether verified. */
export type BrokerCard = { fullName: string; phone: string | null; verified: boolean }

export async function brokerCard(db: Queryable, id: number): Promise<BrokerCard | null> {
  const r = await db.get<{ fullName: string; phone: string | null; status: string; active: unknown }>(
    'select full_name as "fullName", phone, registration_status as status, is_active as active from users where id = ?',
    [id],
  )
  return r ? { fullName: r.fullName, phone: r.phone, verified: r.status === 'APPROVED' && Boolean(r.active) } : null
}

/** An active broker by id or email (any case), or null: whom a broker may add to a circle (issue 35). */
export async function activeBrokerId(db: Queryable, who: { id?: number; email?: string }): Promise<number | null> {
  const found =
    who.id !== undefined
      ? await db.get<{ id: number }>("select id from users where id = ? and role = 'BROKER' and is_active = true", [who.id])
      : who.email
        ? await db.get<{ id: number }>("select id from users where lower(email) = lower(?) and role = 'BROKER' and is_active = true", [who.email.trim()])
        : undefined
  return found ? Number(found.id) : null
}

/** The names of these users, by id (a circle's members, issue 35): a name only, nothing else of them. */
export async function namesOf(db: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.all<{ id: number; full_name: string }>(`select id, full_name from users where id in (${ids.map(() => '?').join(', ')})`, ids)
  return new Map(rows.map((r) => [Number(r.id), r.full_name]))
}

/** Active users' names and emails by id: whom a reminder reaches (issue 35). */
export async function recipientsOf(db: Queryable, ids: number[]): Promise<{ id: number; email: string; fullName: string }[]> {
  if (ids.length === 0) return []
  const rows = await db.all<{ id: number; email: string; full_name: string }>(`select id, email, full_name from users where is_active = true and id in (${ids.map(() => '?').join(', ')})`, ids)
  return rows.map((r) => ({ id: Number(r.id), email: r.email, fullName: r.full_name }))
}

/** A broker's name, whether their registration is approved, and when they registered; null for anyone else. */
export async function brokerOf(db: Queryable, id: number): Promise<{ id: number; fullName: string; approved: boolean; createdAt: number } | null> {
  const r = await db.get<{ id: number; full_name: string; registration_status: string; created_at: number | string }>(
    "select id, full_name, registration_status, created_at from users where id = ? and role = 'BROKER'",
    [id],
  )
  return r ? { id: Number(r.id), fullName: r.full_name, approved: r.registration_status === 'APPROVED', createdAt: Number(r.created_at) } : null
}

// ---- what other features read of users (issue 31: the only SQL of `users` is here) --------------------------------

/** A user by email (sign-in), every column; null when none. */
export async function userByEmail(db: Queryable, email: string): Promise<User | null> {
  const found = await db.get<RawUser>(`select ${USER_COLUMNS} from users where users.email = ?`, [email])
  return found ? userRow(found) : null
}

/** A user by id, every column; null when none. */
export async function userById(db: Queryable, id: number): Promise<User | null> {
  const row = await db.get<RawUser>(`select ${USER_COLUMNS} from users where id = ?`, [id])
  return row ? userRow(row) : null
}

/** A user's id, name and email by email (a password reset's request); null when none. */
export const userContactByEmail = (db: Queryable, email: string) =>
  db.get<{ id: number; email: string; fullName: string }>('select id, email, full_name as "fullName" from users where email = ?', [email])

/** A user's id and city by email (the server's reset command); null when none. */
export const userCityByEmail = (db: Queryable, email: string) =>
  db.get<{ id: number; cityId: number | null }>('select id, city_id as "cityId" from users where email = ?', [email])

/** Sets a user's password hash; answers what the audit trail names, or nothing when there is no such user. */
export async function setPasswordHash(tx: Queryable, userId: number, passwordHash: string, now: number) {
  const { rows } = await tx.run<{ id: number; fullName: string; cityId: number | null }>(
    'update users set password_hash = ?, updated_at = ? where id = ? returning id, full_name as "fullName", city_id as "cityId"',
    [passwordHash, now, userId],
  )
  return rows[0]
}

/**
 * The emails of the active admins who hear of a city's registrations and review requests: its module admins and every
 * master admin (in id order when `ordered`).
 */
export const cityAdminEmails = (db: Queryable, cityId: number, ordered = false) =>
  db.all<{ id: number; email: string }>(
    ordered
      ? "select id, email from users where is_active = true and (role = 'MASTER_ADMIN' or (role = 'MODULE_ADMIN' and city_id = ?)) order by id"
      : "select id, email from users where is_active = true and (role = 'MASTER_ADMIN' or (role = 'MODULE_ADMIN' and city_id = ?))",
    [cityId],
  )

/** A user who can read mail from us and sign in to act on it (active, approved): id, email, name; null otherwise. */
export const reachableUser = (db: Queryable, id: number) =>
  db.get<{ id: number; email: string; full_name: string }>("select id, email, full_name from users where id = ? and is_active = true and registration_status = 'APPROVED'", [id])

/** How many users a city has (a city in use cannot be deleted). */
export const usersInCity = async (db: Queryable, cityId: number): Promise<number> =>
  Number((await db.get<{ n: number }>('select count(*) as n from users where city_id = ?', [cityId]))!.n)

/** Active users of a role, of a city or of the network (null). */
export function activeUsersOfRole(db: Queryable, role: string, cityId: number | null): Promise<number> {
  // `is_active = ?` bound to true (portable: 1 on SQLite, a boolean on PostgreSQL) rather than a bare `is_active`, so
  // the count is one range of users_role_active_city_idx (role, is_active, city_id) instead of every broker's entry.
  const sql = `select count(*) as n from users where role = ? and is_active = ?${cityId === null ? '' : ' and city_id = ?'}`
  return db.get<{ n: number }>(sql, cityId === null ? [role, true] : [role, true, cityId]).then((r) => Number(r!.n))
}

/** Locks a user's row until the transaction ends (PostgreSQL; SQLite writes one transaction at a time anyway). */
export async function lockUser(tx: Queryable, id: number): Promise<void> {
  if (tx.dialect === 'postgres') await tx.get('select id from users where id = ? for update', [id])
}

/** The names of the users that still exist, by id (the audit trail's names). */
export const userNames = (db: Queryable, ids: number[]) =>
  db.all<{ id: number; name: string }>(`select id, full_name as name from users where id in (${ids.map(() => '?').join(', ')})`, ids)

/** The ids of a role's users without something (`without(userId)`: a condition on the user's id column), as a subquery. */
export const idsOfRoleWithout = (role: 'MODULE_ADMIN', without: (userId: string) => string) => `select id from users where role = '${role}'
           and not exists (${without('users.id')})`

// ---- fragments other features compose into their reads ---------------------------------------------------------

/** Joins the user of a row by its user id column: `join users on users.id = listings.owner_user_id`, or under an alias. */
export const joinUser = (userId: string, alias = 'users', condition = '') =>
  `join ${alias === 'users' ? 'users' : `users ${alias}`} on ${alias}.id = ${userId}${condition ? ` and ${condition}` : ''}`

/** Columns of a joined user as the given names: `users.full_name as owner_name`. */
export const userColumns = (as: Record<string, string>, alias = 'users') =>
  Object.entries(as)
    .map(([column, name]) => (column === name ? `${alias}.${column}` : `${alias}.${column} as ${name}`))
    .join(', ')

/** A condition on a joined user: they can read mail from us and sign in to act on it. */
export const isReachable = (alias = 'users') => `${alias}.is_active = true and ${alias}.registration_status = 'APPROVED'`

/** A user's name and whether they can read mail from us and sign in to act on it (a renew link's owner); null when none. */
export const userReach = (db: Queryable, id: number) =>
  db.get<{ full_name: string; reachable: unknown }>(`select full_name, (${isReachable()}) as reachable from users where id = ?`, [id])

// ---- the first start's (src/bootstrap.ts) --------------------------------------------------------------------

/** How many users there are. */
export const userCount = async (db: Queryable): Promise<number> => Number((await db.get<{ n: number }>('select count(*) as n from users'))!.n)

/** The email of a master admin, if there is one. */
export const masterAdminEmail = async (db: Queryable): Promise<string | null> =>
  (await db.get<{ email: string }>("select email from users where role = 'MASTER_ADMIN' limit 1"))?.email ?? null

/**
 * Creates the master admin unless the email is taken (instances started together on a new PostgreSQL database all
 * try: one creates it, the others find it); answers whether this call created it.
 */
export async function insertMasterAdmin(db: Queryable, email: string, passwordHash: string, now: number): Promise<boolean> {
  const { changes } = await db.run(
    `insert into users (email, password_hash, full_name, role, is_active, registration_status, created_at, updated_at)
       values (?, ?, 'Master Admin', 'MASTER_ADMIN', ?, 'APPROVED', ?, ?) on conflict (email) do nothing`,
    [email, passwordHash, true, now, now],
  )
  return changes === 1
}

/** Whether any user's email ends with `@domain`. */
export const anyUserAt = async (db: Queryable, domain: string): Promise<boolean> => !!(await db.get('select id from users where email like ? limit 1', [`%@${domain}`]))

/** The email of the first active, approved user of a role (the start banner's whom to sign in as). */
export async function firstApprovedOfRole(db: Queryable, role: 'BROKER' | 'MODULE_ADMIN'): Promise<string | undefined> {
  const sql = "select email from users where role = ? and registration_status = 'APPROVED' and is_active = true order by id limit 1"
  return (await db.get<{ email: string }>(sql, [role]))?.email
}

/** The first user a clause lets through (`where …`, from ./store/read.ts), every column; null when none. */
export async function userWhere(db: Queryable, filter: { sql: string; params: Param[] }): Promise<User | null> {
  const row = await db.get<RawUser>(`select ${USER_COLUMNS} from users ${filter.sql}`, filter.params)
  return row ? userRow(row) : null
}

/** Sets columns of one user (`set`: names from the users service only, never from input) and answers the row as it now is. */
export async function updateUserRow(tx: Queryable, id: number, set: string, params: Param[], now: number): Promise<User> {
  const { rows } = await tx.run<RawUser>(`update users set ${set}, updated_at = ? where id = ? returning ${USER_COLUMNS}`, [...params, now, id])
  return userRow(rows[0]!)
}

/** How many active master admins there are besides this user (the last one cannot be deactivated). */
export const otherActiveMasterAdmins = async (db: Queryable, exceptId: number): Promise<number> =>
  Number((await db.get<{ n: number }>("select count(*) as n from users where role = 'MASTER_ADMIN' and is_active = true and id <> ?", [exceptId]))!.n)

/** One user, by id: a clause for `where` (./store/read.ts) beside the actor's scope. */
export const userIs = (id: number) => ({ sql: 'users.id = ?', params: [id] })
