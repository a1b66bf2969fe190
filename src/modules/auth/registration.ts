import { and, eq, or } from 'drizzle-orm'
import { cities, states, users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { conflict, fieldError, HttpError, unprocessable } from '../../http/errors'
import { enforce } from '../../http/rate-limit'
import { ACCOUNT_MESSAGES as M } from '../../shared/account-rules'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { detectDocumentType, type DocumentType } from '../documents/store'
import { newRegistration, registrationReceived } from '../mail/templates'
import type { RegisterBody } from './model'
import { normalizeEmail } from './service'

// The server's texts that the registration form maps to its sentences (SPEC section 8 "Registration").
export const EMAIL_TAKEN = 'email already registered'
export const ID_CARD_TAKEN = 'id card number already registered'
export const INVALID_CITY = 'invalid city'
export const FILE_TOO_LARGE = 'file too large'
export const FILE_TYPE_NOT_ALLOWED = 'file type not allowed'

export const REGISTERED =
  'Registration submitted. Your account is pending admin approval (typically 1-2 business days); you will receive an email once it is approved.'

/** An identity document's bytes and type, judged by its content: a PNG named .pdf is a PNG, text named .jpg is refused. */
export async function readIdDocument(file: File | undefined, maxBytes: number): Promise<{ bytes: Uint8Array; type: DocumentType } | null> {
  if (!file || file.size === 0) return null
  if (file.size > maxBytes) throw new HttpError(413, FILE_TOO_LARGE)
  const bytes = await file.bytes()
  const type = detectDocumentType(bytes.subarray(0, 16))
  if (!type) throw unprocessable(FILE_TYPE_NOT_ALLOWED)
  return { bytes, type }
}

/** The 409 for a unique index on users that refused a write (two requests racing for one email or ID card), or null. */
export function duplicateUser(e: unknown) {
  const failed = (column: string) => e instanceof Error && /UNIQUE constraint failed/.test(e.message) && e.message.includes(`users.${column}`)
  if (failed('email')) return conflict(EMAIL_TAKEN)
  if (failed('id_card_number')) return conflict(ID_CARD_TAKEN)
  return null
}

/**
 * Creates a PENDING, inactive user with their document, and tells them and their city's admins by mail.
 * User and document are stored together or not at all: the file is written first, and removed if the insert fails.
 */
export async function register(ctx: AppContext, body: RegisterBody, ipAddress: string) {
  const { db, documents, mail, config, limits } = ctx
  enforce([[limits.registerByAddress, ipAddress]], 'registrations from this address')

  const email = normalizeEmail(body.email)
  const fullName = body.full_name.trim()
  if (fullName.length < LIMITS.fullNameMin) throw fieldError('full_name', M.fullNameMin)
  const phone = body.phone?.trim() || null
  if (phone && phone.length < LIMITS.phoneMin) throw fieldError('phone', M.phoneMin)
  const idCardNumber = body.id_card_number?.trim() || null

  const city = db
    .select({ id: cities.id, name: cities.name, stateName: states.name })
    .from(cities)
    .innerJoin(states, eq(cities.stateId, states.id))
    .where(eq(cities.id, body.city_id))
    .get()
  if (!city) throw unprocessable(INVALID_CITY)
  if (db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) throw conflict(EMAIL_TAKEN)
  if (idCardNumber && db.select({ id: users.id }).from(users).where(eq(users.idCardNumber, idCardNumber)).get()) throw conflict(ID_CARD_TAKEN)

  const document = await readIdDocument(body.id_card_file, LIMITS.registrationFileBytes)
  limits.registerByAddress.hit(ipAddress)
  const passwordHash = await Bun.password.hash(body.password)
  const stored = document ? await documents.save(document.bytes, document.type) : null

  let user: typeof users.$inferSelect
  try {
    user = db.transaction((tx) => {
      const user = tx
        .insert(users)
        .values({
          email,
          passwordHash,
          fullName,
          phone,
          role: 'BROKER',
          isActive: false,
          registrationStatus: 'PENDING',
          idCardNumber,
          idCardDocument: stored,
          idCardDocumentType: document?.type.mime ?? null,
          cityId: city.id,
        })
        .returning()
        .get()
      recordAudit(tx, {
        actor: { id: user.id, fullName: user.fullName },
        action: 'user.register',
        entityType: 'user',
        entityId: user.id,
        cityId: city.id,
        after: { email, full_name: fullName, phone, id_card_number: idCardNumber, city_id: city.id, id_card_document: stored ? document!.type.mime : null },
      })
      const admins = tx
        .select({ email: users.email })
        .from(users)
        .where(
          and(
            eq(users.isActive, true),
            or(eq(users.role, 'MASTER_ADMIN'), and(eq(users.role, 'MODULE_ADMIN'), eq(users.cityId, city.id))),
          ),
        )
        .all()
      mail.send(
        registrationReceived(config.publicUrl, user),
        ...admins.map((a) => newRegistration(config.publicUrl, a.email, { ...user, cityName: city.name, stateName: city.stateName })),
      )
      return user
    })
  } catch (e) {
    if (stored) await documents.remove(stored)
    // Two registrations racing for the same email or ID card: the index decides, the loser hears why.
    throw duplicateUser(e) ?? e
  }
  ctx.pending.changed(user.cityId)
  return user
}
