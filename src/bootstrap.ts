import { isConflict } from '../db/dialect'
import type { DemoSeedResult } from '../db/seed/demo'
import type { Db } from '../db/sql'
import type { Config } from './platform/config'
import { vapidKeys } from './platform/push/vapid'
import { countryCount } from './modules/geography/store'
import { anyUserAt, firstApprovedOfRole, insertMasterAdmin, masterAdminEmail, userCount } from './modules/users/store'
import { hashPassword } from './platform/passwords'

/** The demo users' shared password: printed at first start so a newcomer can sign in as any role. */
export const DEMO_PASSWORD = 'Demo@12345'

export type BootstrapReport = {
  admin: { email: string; created: boolean; generatedPassword?: string }
  demo?: DemoSeedResult & { idCards: number; sampleBroker?: string; sampleModuleAdmin?: string }
}

/** 16 characters with upper, lower, digit and symbol: passes the registration password rules. */
export function generatePassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '@#%+=-_']
  const all = sets.join('')
  const pick = (s: string) => s[crypto.getRandomValues(new Uint32Array(1))[0]! % s.length]!
  const chars = [...sets.map(pick), ...Array.from({ length: 12 }, () => pick(all))]
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1)
    ;[chars[i], chars[j]] = [chars[j]!, chars[i]!]
  }
  return chars.join('')
}

/**
 * First-start duties: a MASTER_ADMIN exists (from ADMIN_EMAIL / ADMIN_PASSWORD, or a generated password
 * reported once), a brand-new database gets the demo data when DEMO_DATA=1, on either backend (db/seed/demo.ts
 * writes through the data layer), and the installation has its VAPID keys for Web Push.
 */
export async function bootstrap({ db }: { db: Db }, config: Config): Promise<BootstrapReport> {
  const isNew = (await userCount(db)) === 0 && (await countryCount(db)) === 0

  const report: BootstrapReport = { admin: { email: config.adminEmail, created: false } }
  const existing = await masterAdminEmail(db)
  if (existing !== null) {
    report.admin.email = existing
  } else {
    const password = config.adminPassword ?? generatePassword()
    const passwordHash = await hashPassword(password)
    const now = Date.now()
    // Instances started together on a new PostgreSQL database all get here: one creates the admin, the others find it.
    if (await insertMasterAdmin(db, config.adminEmail, passwordHash, now)) report.admin = { email: config.adminEmail, created: true, generatedPassword: config.adminPassword ? undefined : password }
  }

  if (config.demoData && isNew) report.demo = await loadDemo(db, config)
  // The VAPID key pair push subscriptions are made with (issue 33): made once, at the first start, kept for good.
  await vapidKeys(db)
  return report
}

/**
 * The demo data, its inboxes and its sample identity cards. Undefined when another instance, started at the same time
 * on the same new PostgreSQL database, loaded it first: this one's seed then conflicts with its rows and is rolled back.
 */
async function loadDemo(db: Db, config: Config): Promise<BootstrapReport['demo']> {
  // Imported only here: the demo data (and its generator) is not loaded by a start on an existing database.
  const { seedDemoData, DEMO_EMAIL_DOMAIN } = await import('../db/seed/demo')
  let seeded: DemoSeedResult
  try {
    seeded = await seedDemoData(db, { passwordHash: await hashPassword(DEMO_PASSWORD) })
  } catch (e) {
    if (isConflict(e) && (await anyUserAt(db, DEMO_EMAIL_DOMAIN))) {
      console.log('DEMO_DATA: another instance started on this new database loaded the demo data.')
      return undefined
    }
    throw e
  }
  // The demo's listings announced as if posted one by one, so its brokers open Matches to a full inbox.
  const { announceAsPosted } = await import('./modules/matches/seed')
  await announceAsPosted(db, seeded.listings)
  // Sample identity cards (PNGs marked SAMPLE) in the document store (files on SQLite, the documents table on
  // PostgreSQL), served like uploaded ones. Without them the demo still works: a failure to store them is reported, not
  // fatal.
  let idCards = 0
  try {
    const [{ seedDemoIdCards }, { documentStore }] = await Promise.all([import('../db/seed/demo-documents'), import('./platform/documents')])
    idCards = await seedDemoIdCards(db, documentStore(db, config.documentsDir))
  } catch (e) {
    console.error(`Demo ID card documents not stored: ${(e as Error).message}`)
  }
  // One account of each demo role, so the start banner can say whom to sign in as.
  return { ...seeded, idCards, sampleBroker: await firstApprovedOfRole(db, 'BROKER'), sampleModuleAdmin: await firstApprovedOfRole(db, 'MODULE_ADMIN') }
}
