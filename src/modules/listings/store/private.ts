import type { Queryable } from '../../../../db/sql'
import { contactKey } from '../../../shared/contact-key'
import { allOf, listingScope, scopeWhere, type Viewer } from './where'

// The only file that names `listing_private` (docs/decisions/038-private-fields.md; tests/unit/private-fields.test.ts
// fails on any other). Every function takes the caller and reaches the private row through the listing joined with
// the caller's `manage:listing` scope, in the same statement: the owner, a module admin of its city, a master admin.
// There is no function that reads the table for "whoever asks".

/** A listing's private fields (issue 35): what its broker keeps from the network. */
export type PrivateFields = {
  owner_name: string | null
  owner_phone: string | null
  address: string | null
  bottom_price: number | null
  note: string | null
}

export const PRIVATE_FIELDS = ['owner_name', 'owner_phone', 'address', 'bottom_price', 'note'] as const satisfies readonly (keyof PrivateFields)[]

const COLUMNS = 'p.owner_name, p.owner_phone, p.address, p.bottom_price, p.note, p.updated_at'

/** The caller's `manage:listing` scope over `listings` as SQL (never null: a scope of every row is `true`). */
const managedBy = (viewer: Viewer) => scopeWhere(listingScope(viewer, 'manage'))

/**
 * The private fields of a listing as the caller may read them: null when they may not manage it (another broker, an
 * admin of another city) or it has none. Which of the two is not told here: the API answers 404 for both.
 */
export async function readPrivate(db: Queryable, viewer: Viewer, listingId: number): Promise<(PrivateFields & { updated_at: number }) | null> {
  const where = allOf({ sql: 'listings.id = ?', params: [listingId] }, managedBy(viewer))
  return (await db.get<PrivateFields & { updated_at: number }>(`select ${COLUMNS} from listing_private p join listings on listings.id = p.listing_id where ${where.sql}`, where.params)) ?? null
}

/**
 * Writes the fields sent (the others are kept), inside the caller's transaction, only when the caller may manage the
 * listing: answers whether a row was written. All fields empty removes the row.
 */
export async function writePrivate(tx: Queryable, viewer: Viewer, listingId: number, fields: Partial<PrivateFields>, now: number): Promise<boolean> {
  const where = allOf({ sql: 'listings.id = ?', params: [listingId] }, managedBy(viewer))
  const may = await tx.get<{ id: number }>(`select listings.id from listings where ${where.sql}`, where.params)
  if (!may) return false
  const before = (await tx.get<PrivateFields>(`select ${COLUMNS} from listing_private p where p.listing_id = ?`, [listingId])) ?? null
  const next: PrivateFields = { owner_name: null, owner_phone: null, address: null, bottom_price: null, note: null }
  for (const k of PRIVATE_FIELDS) (next as Record<string, unknown>)[k] = fields[k] !== undefined ? fields[k] : (before?.[k] ?? null)
  if (PRIVATE_FIELDS.every((k) => next[k] === null)) {
    await tx.run('delete from listing_private where listing_id = ?', [listingId])
    return true
  }
  const values = [next.owner_name, next.owner_phone, next.owner_phone === null ? null : contactKey(next.owner_phone), next.address, next.bottom_price, next.note, now]
  await tx.run(
    `insert into listing_private (listing_id, owner_name, owner_phone, owner_phone_key, address, bottom_price, note, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (listing_id) do update set owner_name = excluded.owner_name, owner_phone = excluded.owner_phone, owner_phone_key = excluded.owner_phone_key,
       address = excluded.address, bottom_price = excluded.bottom_price, note = excluded.note, updated_at = excluded.updated_at`,
    [listingId, ...values],
  )
  return true
}

/**
 * The caller's own listings whose private owner phone is this contact (compared as duplicate control compares
 * contacts): the form's warning that a phone about to be shown to the network is one they keep private elsewhere.
 * Only the caller's own listings are looked at, whatever their role: it tells nobody anything about another's.
 */
export async function ownListingsWithPrivatePhone(db: Queryable, viewer: Viewer, contact: string): Promise<{ id: number; entry_id: string }[]> {
  const key = contactKey(contact.trim())
  if (key.length < 5) return []
  return db.all<{ id: number; entry_id: string }>(
    'select listings.id, listings.entry_id from listing_private p join listings on listings.id = p.listing_id where listings.owner_user_id = ? and p.owner_phone_key = ? order by listings.id desc limit 10',
    [viewer.id, key],
  )
}
