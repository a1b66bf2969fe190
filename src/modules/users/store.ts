import { and, eq, ne } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { conflict, HttpError, unprocessable } from '../../http/errors'
import { detectDocumentType, type DocumentType } from '../documents/store'

// The server's texts that the registration and add-user forms map to their sentences (SPEC section 8 "Registration").
export const EMAIL_TAKEN = 'email already registered'
export const ID_CARD_TAKEN = 'id card number already registered'
export const INVALID_CITY = 'invalid city'
export const FILE_TOO_LARGE = 'file too large'
export const FILE_TYPE_NOT_ALLOWED = 'file type not allowed'

type User = typeof users.$inferSelect
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]
export type IdDocument = { bytes: Uint8Array; type: DocumentType }

/** An identity document's bytes and type, judged by its content: a PNG named .pdf is a PNG, text named .jpg is refused. */
export async function readIdDocument(file: File | undefined, maxBytes: number): Promise<IdDocument | null> {
  if (!file || file.size === 0) return null
  if (file.size > maxBytes) throw new HttpError(413, FILE_TOO_LARGE)
  const bytes = await file.bytes()
  const type = detectDocumentType(bytes.subarray(0, 16))
  if (!type) throw unprocessable(FILE_TYPE_NOT_ALLOWED)
  return { bytes, type }
}

/** 409 when another user (not `exceptId`) already has the email or ID card number. */
export function assertUniqueUser(db: Database, fields: { email?: string; idCardNumber?: string | null }, exceptId?: number): void {
  const other = (cond: ReturnType<typeof eq>) => db.select({ id: users.id }).from(users).where(and(cond, exceptId ? ne(users.id, exceptId) : undefined)).get()
  if (fields.email && other(eq(users.email, fields.email))) throw conflict(EMAIL_TAKEN)
  if (fields.idCardNumber && other(eq(users.idCardNumber, fields.idCardNumber))) throw conflict(ID_CARD_TAKEN)
}

/** The 409 for a unique index on users that refused a write (two requests racing for one email or ID card), or null. */
export function duplicateUser(e: unknown) {
  const failed = (column: string) => e instanceof Error && /UNIQUE constraint failed/.test(e.message) && e.message.includes(`users.${column}`)
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
  insert: (tx: Tx, stored: { idCardDocument: string | null; idCardDocumentType: string | null }) => User,
): Promise<User> {
  const stored = document ? await ctx.documents.save(document.bytes, document.type) : null
  try {
    return ctx.db.transaction((tx) => insert(tx, { idCardDocument: stored, idCardDocumentType: document?.type.mime ?? null }))
  } catch (e) {
    if (stored) await ctx.documents.remove(stored)
    throw duplicateUser(e) ?? e
  }
}
