import type { Queryable } from '../../../db/sql'
import type { Role } from '../../shared/constants'
import { readSetting, writeSetting } from '../../platform/settings'

// The `settings` table's one setting so far (issue 29): whether module admins must prove a second factor. A row per
// setting, its value JSON; no row is the default. Read where it decides (each sign-in of a module admin): no cache to
// keep true across processes.

const MODULE_ADMINS = 'second_factor_module_admins'

export type SecondFactorPolicy = { required_for_module_admins: boolean; updated_at: string | null }

export async function secondFactorPolicy(db: Queryable): Promise<SecondFactorPolicy> {
  const row = await readSetting(db, MODULE_ADMINS)
  return { required_for_module_admins: row ? JSON.parse(row.value) === true : false, updated_at: row ? new Date(Number(row.updatedAt)).toISOString() : null }
}

export async function setModuleAdminsRequired(tx: Queryable, required: boolean, now = Date.now()): Promise<void> {
  await writeSetting(tx, MODULE_ADMINS, JSON.stringify(required), now)
}

/** Who must prove a second factor: every master admin; module admins when the master admin turned it on; no broker. */
export async function secondFactorRequired(db: Queryable, role: Role): Promise<boolean> {
  if (role === 'MASTER_ADMIN') return true
  if (role === 'MODULE_ADMIN') return (await secondFactorPolicy(db)).required_for_module_admins
  return false
}

/** Who may enrol one: the admins, who see identity documents and change anyone's access. */
export const mayEnrol = (role: Role) => role === 'MASTER_ADMIN' || role === 'MODULE_ADMIN'
