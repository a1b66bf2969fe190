import { and, eq, isNotNull, isNull, like } from 'drizzle-orm'
import type { Database } from '../client'
import { cities, users } from '../schema'
import type { DocumentStore } from '../../src/modules/documents/store'
import { DEMO_EMAIL_DOMAIN } from './demo'
import { renderSampleIdCard } from './id-card-image'

const ROLE_TEXT = { BROKER: 'Broker', MODULE_ADMIN: 'Module Admin', MASTER_ADMIN: 'Master Admin' } as const

/**
 * Gives every demo user with an ID card number and no document a sample identity card (a PNG marked SAMPLE, see
 * ./id-card-image.ts), stored through the app's document store, so the demo's "View ID Card" shows a document served
 * exactly like an uploaded one. Runs after seedDemoData (the store writes files, which a transaction cannot hold):
 * the files are written first, then the users point at them in one transaction; if that fails the files are removed.
 * Returns how many documents it stored.
 */
export async function seedDemoIdCards(db: Database, store: DocumentStore): Promise<number> {
  const people = db
    .select({ id: users.id, fullName: users.fullName, role: users.role, idCardNumber: users.idCardNumber, city: cities.name })
    .from(users)
    .leftJoin(cities, eq(cities.id, users.cityId))
    .where(and(like(users.email, `%@${DEMO_EMAIL_DOMAIN}`), isNotNull(users.idCardNumber), isNull(users.idCardDocument)))
    .all()
  if (people.length === 0) return 0

  const type = { mime: 'image/png', ext: 'png' } as const
  const stored = await Promise.all(
    people.map(async (p) => {
      const png = renderSampleIdCard({ fullName: p.fullName, idNumber: p.idCardNumber!, city: p.city ?? '', role: ROLE_TEXT[p.role] })
      return { id: p.id, name: await store.save(png, type) }
    }),
  )
  try {
    db.transaction((tx) => {
      for (const s of stored)
        tx.update(users).set({ idCardDocument: s.name, idCardDocumentType: type.mime }).where(and(eq(users.id, s.id), isNull(users.idCardDocument))).run()
    })
  } catch (e) {
    await Promise.all(stored.map((s) => store.remove(s.name)))
    throw e
  }
  return stored.length
}

