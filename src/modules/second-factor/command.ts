import { openDataSource } from '../../../db/open'
import type { Config } from '../../platform/config'
import { invalidateUserSessions } from '../../platform/sessions'
import { recordAudit } from '../audit/service'
import { normalizeEmail } from '../auth/service'
import { removeFactor } from './store'
import { userCityByEmail } from '../users/store'

/**
 * `brokernet reset-second-factor EMAIL` (issue 29): the way back for a master admin with no other master admin to reset
 * their lost factor. Whoever runs commands on the server owns the installation anyway. Removes the factor, its
 * recovery codes and pending challenges, ends the user's sessions (the running server's caches hear it through the
 * change feed), and writes the audit trail as done by the system.
 */
export async function resetByCommand(config: Config, email: string): Promise<{ ok: true; email: string } | { ok: false; error: string }> {
  const source = await openDataSource(config)
  try {
    return await source.db.tx(async (tx) => {
      const user = await userCityByEmail(tx, normalizeEmail(email))
      if (!user) return { ok: false as const, error: `no user has the email ${email}` }
      if (!(await removeFactor(tx, user.id))) return { ok: false as const, error: `${email} has no two-factor sign-in to reset` }
      await invalidateUserSessions(tx, user.id)
      await recordAudit(tx, { actor: null, action: 'user.second_factor_reset', entityType: 'user', entityId: user.id, cityId: user.cityId, reason: 'brokernet reset-second-factor, on the server' })
      return { ok: true as const, email: normalizeEmail(email) }
    })
  } finally {
    await source.close()
  }
}
