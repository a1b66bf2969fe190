import { and, eq, or } from 'drizzle-orm'
import { cities, states, users } from '../../../db/schema'
import type { AppContext } from '../../http/context'
import { fieldError, unprocessable } from '../../http/errors'
import { enforce } from '../../http/rate-limit'
import { ACCOUNT_MESSAGES as M } from '../../shared/account-rules'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { newRegistration, registrationReceived } from '../mail/templates'
import { assertUniqueUser, insertUserWithDocument, INVALID_CITY, readIdDocument } from '../users/store'
import type { RegisterBody } from './model'
import { normalizeEmail } from './service'

export { FILE_TOO_LARGE } from '../users/store'

export const REGISTERED =
  'Registration submitted. Your account is pending admin approval (typically 1-2 business days); you will receive an email once it is approved.'

/**
 * Creates a PENDING, inactive user with their document, and tells them and their city's admins by mail.
 * User and document are stored together or not at all (insertUserWithDocument).
 */
export async function register(ctx: AppContext, body: RegisterBody, ipAddress: string) {
  const { db, mail, config, limits } = ctx
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
  assertUniqueUser(db, { email, idCardNumber })

  const document = await readIdDocument(body.id_card_file, LIMITS.registrationFileBytes)
  limits.registerByAddress.hit(ipAddress)
  const passwordHash = await Bun.password.hash(body.password)
  const user = await insertUserWithDocument(ctx, document, (tx, stored) => {
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
        ...stored,
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
      after: { email, full_name: fullName, phone, id_card_number: idCardNumber, city_id: city.id, id_card_document: stored.idCardDocumentType },
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
  ctx.pending.changed()
  return user
}
