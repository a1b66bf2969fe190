import type { Queryable } from '../sql'
import type { Role } from '../../src/shared/constants'
import { DEMO_EMAIL_DOMAIN } from './demo'
import { renderSampleIdCard } from './id-card-image'

/** Where documents are kept: the app's document store (src/platform/documents.ts) fits; the seed needs only this of it. */
export type DocumentSink = {
  save(bytes: Uint8Array, type: { mime: 'image/png'; ext: 'png' }): Promise<string>
  remove(name: string): Promise<void>
}

const ROLE_TEXT = { BROKER: 'Broker', MODULE_ADMIN: 'Module Admin', MASTER_ADMIN: 'Master Admin' } as const

/**
 * Gives every demo user with an ID card number and no document a sample identity card (a PNG marked SAMPLE, see
 * ./id-card-image.ts), stored through the app's document store (files on SQLite, a table on PostgreSQL), so the demo's
 * "View ID Card" shows a document served exactly like an uploaded one. Runs after seedDemoData, as an upload does: the
 * documents are saved first, then the users point at them in one transaction; if that fails they are removed.
 * Returns how many documents it stored.
 */
export async function seedDemoIdCards(db: Queryable, store: DocumentSink): Promise<number> {
  const people = await db.all<{ id: number; fullName: string; role: Role; idCardNumber: string; city: string | null }>(
    `select u.id, u.full_name as "fullName", u.role, u.id_card_number as "idCardNumber", c.name as city
       from users u left join cities c on c.id = u.city_id
      where u.email like ? and u.id_card_number is not null and u.id_card_document is null
      order by u.id`,
    [`%@${DEMO_EMAIL_DOMAIN}`],
  )
  if (people.length === 0) return 0

  const type = { mime: 'image/png', ext: 'png' } as const
  const stored = await Promise.all(
    people.map(async (p) => {
      const png = renderSampleIdCard({ fullName: p.fullName, idNumber: p.idCardNumber, city: p.city ?? '', role: ROLE_TEXT[p.role] })
      return { id: p.id, name: await store.save(png, type) }
    }),
  )
  try {
    await db.tx(async (tx) => {
      for (const s of stored)
        await tx.run('update users set id_card_document = ?, id_card_document_type = ? where id = ? and id_card_document is null', [s.name, type.mime, s.id])
    })
  } catch (e) {
    await Promise.all(stored.map((s) => store.remove(s.name)))
    throw e
  }
  return stored.length
}
