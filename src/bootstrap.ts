import { and, asc, count, eq } from 'drizzle-orm'
import type { Database } from '../db/client'
import { countries, users } from '../db/schema'
import type { seedDemoData } from '../db/seed/demo'
import type { Config } from './config'

/** The demo users' shared password: printed at first start so a newcomer can sign in as any role. */
export const DEMO_PASSWORD = 'Demo@12345'

export type BootstrapReport = {
  admin: { email: string; created: boolean; generatedPassword?: string }
  demo?: ReturnType<typeof seedDemoData> & { idCards: number; sampleBroker?: string; sampleModuleAdmin?: string }
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
 * reported once), and a brand-new database gets the demo data when DEMO_DATA=1.
 */
export async function bootstrap(db: Database, config: Config): Promise<BootstrapReport> {
  const isNew = db.select({ n: count() }).from(users).get()!.n === 0 && db.select({ n: count() }).from(countries).get()!.n === 0

  const report: BootstrapReport = { admin: { email: config.adminEmail, created: false } }
  const existing = db.select({ email: users.email }).from(users).where(eq(users.role, 'MASTER_ADMIN')).limit(1).get()
  if (existing) {
    report.admin.email = existing.email
  } else {
    const password = config.adminPassword ?? generatePassword()
    db.insert(users)
      .values({
        email: config.adminEmail,
        passwordHash: await Bun.password.hash(password),
        fullName: 'Master Admin',
        role: 'MASTER_ADMIN',
        isActive: true,
        registrationStatus: 'APPROVED',
      })
      .run()
    report.admin = { email: config.adminEmail, created: true, generatedPassword: config.adminPassword ? undefined : password }
  }

  if (config.demoData && isNew) {
    // Imported only here: the demo data (and its generator) is not loaded by a start on an existing database.
    const { seedDemoData } = await import('../db/seed/demo')
    const seeded = seedDemoData(db, { passwordHash: await Bun.password.hash(DEMO_PASSWORD) })
    // The demo's listings announced as if posted one by one, so its brokers open Matches to a full inbox.
    const { announceAsPosted } = await import('../db/seed/matches')
    announceAsPosted(db, seeded.listings)
    // Sample identity cards (PNGs marked SAMPLE) in the document store, served like uploaded ones. Without them the
    // demo still works: a failure to write them is reported, not fatal.
    let idCards = 0
    try {
      const [{ seedDemoIdCards }, { DocumentStore }] = await Promise.all([import('../db/seed/demo-documents'), import('./modules/documents/store')])
      idCards = await seedDemoIdCards(db, new DocumentStore(config.documentsDir))
    } catch (e) {
      console.error(`Demo ID card documents not written: ${(e as Error).message}`)
    }
    // One account of each demo role, so the start banner can say whom to sign in as.
    const sample = (role: 'BROKER' | 'MODULE_ADMIN') =>
      db
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.role, role), eq(users.registrationStatus, 'APPROVED'), eq(users.isActive, true)))
        .orderBy(asc(users.id))
        .get()?.email
    report.demo = { ...seeded, idCards, sampleBroker: sample('BROKER'), sampleModuleAdmin: sample('MODULE_ADMIN') }
  }
  return report
}
