import type { AppContext } from '../../platform/context'
import { fieldError, invalid } from '../../platform/errors'
import { enforce } from '../../platform/rate-limit'
import { ACCOUNT_MESSAGES as M } from '../../shared/account-rules'
import { LIMITS } from '../../shared/constants'
import { recordAudit } from '../audit/service'
import { newRegistration, registrationReceived } from '../mail/templates'
import { assertUniqueUser, insertUser, insertUserWithDocument, INVALID_CITY, readIdDocument } from '../users/store'
import type { RaisePush } from '../notifications/kinds'
import type { RegisterBody } from './model'
import { normalizeEmail } from './service'
import { cityWithState } from '../geography/store'
import { cityAdminEmails } from '../users/store'
import { hashPassword } from '../../platform/passwords'

export { FILE_TOO_LARGE } from '../users/store'

export const REGISTERED =
  'Registration submitted. Your account is pending admin approval (typically 1-2 business days); you will receive an email once it is approved.'

/**
 * Creates a PENDING, inactive user with their document, and tells them and their city's admins by mail.
 * User and document are stored together or not at all (insertUserWithDocument).
 */
export async function register(ctx: AppContext, body: RegisterBody, ipAddress: string, push?: RaisePush) {
  const { db, mail, config, limits } = ctx
  await enforce([[limits.registerByAddress, ipAddress]], 'registrations from this address')

  const email = normalizeEmail(body.email)
  const fullName = body.full_name.trim()
  if (fullName.length < LIMITS.fullNameMin) throw fieldError('full_name', M.fullNameMin)
  const phone = body.phone?.trim() || null
  if (phone && phone.length < LIMITS.phoneMin) throw fieldError('phone', M.phoneMin)
  const idCardNumber = body.id_card_number?.trim() || null

  const city = await cityWithState(db, body.city_id)
  if (!city) throw invalid(INVALID_CITY)
  await assertUniqueUser(db, { email, idCardNumber })

  const document = await readIdDocument(body.id_card_file, LIMITS.registrationFileBytes)
  await limits.registerByAddress.hit(ipAddress)
  const passwordHash = await hashPassword(body.password)
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
    const admins = await cityAdminEmails(tx, city.id)
    await mail.send(
      tx,
      registrationReceived(config.publicUrl, user),
      ...admins.map((a) => newRegistration(config.publicUrl, a.email, { ...user, cityName: city.name, stateName: city.stateName })),
    )
    // The admins' push alerts (issue 33): the city, not the person; judged again when each leaves (still pending, still theirs).
    await push?.(
      tx,
      'registration',
      admins.map((a) => ({ userId: Number(a.id), title: 'Registration to review', body: `A broker in ${city.name} is waiting for approval`, url: '/dashboard/approvals', subject: { registration: user.id } })),
    )
    return user
  })
  // This process's own change, passed on to its open streams now rather than at their next look (the feed).
  ctx.feed.sync()
  return user
}
