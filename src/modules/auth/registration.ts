import type { AppContext } from '../../platform/context'
import { fieldError, invalid } from '../../platform/errors'
import { enforce } from '../../platform/rate-limit'
import { ACCOUNT_MESSAGES as M } from '../../shared/account-rules'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { newRegistration, registrationReceived } from '../mail/templates'
import { assertUniqueUser, insertUser, insertUserWithDocument, INVALID_CITY, readIdDocument } from '../users/store'
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
  await enforce([[limits.registerByAddress, ipAddress]], 'registrations from this address')

  const email = normalizeEmail(body.email)
  const fullName = body.full_name.trim()
  if (fullName.length < LIMITS.fullNameMin) throw fieldError('full_name', M.fullNameMin)
  const phone = body.phone?.trim() || null
  if (phone && phone.length < LIMITS.phoneMin) throw fieldError('phone', M.phoneMin)
  const idCardNumber = body.id_card_number?.trim() || null

  const city = await db.get<{ id: number; name: string; stateName: string }>(
    'select cities.id, cities.name, states.name as "stateName" from cities join states on states.id = cities.state_id where cities.id = ?',
    [body.city_id],
  )
  if (!city) throw invalid(INVALID_CITY)
  await assertUniqueUser(db, { email, idCardNumber })

  const document = await readIdDocument(body.id_card_file, LIMITS.registrationFileBytes)
  await limits.registerByAddress.hit(ipAddress)
  const passwordHash = await Bun.password.hash(body.password)
  const user = await insertUserWithDocument(ctx, document, async (tx, stored) => {
    const user = await insertUser(tx, {
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
    await recordAudit(tx, {
      actor: { id: user.id, fullName: user.fullName },
      action: 'user.register',
      entityType: 'user',
      entityId: user.id,
      cityId: city.id,
      after: { email, full_name: fullName, phone, id_card_number: idCardNumber, city_id: city.id, id_card_document: stored.idCardDocumentType },
    })
    const admins = await tx.all<{ email: string }>(
      "select email from users where is_active = true and (role = 'MASTER_ADMIN' or (role = 'MODULE_ADMIN' and city_id = ?))",
      [city.id],
    )
    await mail.send(
      tx,
      registrationReceived(config.publicUrl, user),
      ...admins.map((a) => newRegistration(config.publicUrl, a.email, { ...user, cityName: city.name, stateName: city.stateName })),
    )
    return user
  })
  // This process's own change, passed on to its open streams now rather than at their next look (the feed).
  ctx.feed.sync()
  return user
}
