import { UniqueViolation } from '../../../db/faults'
import type { Queryable } from '../../../db/sql'
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
