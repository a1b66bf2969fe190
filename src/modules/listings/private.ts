import type { Queryable } from '../../../db/sql'
import { forbidden } from '../../platform/errors'
import type { PrivateFields } from './model'
import { readPrivate } from './store/private'
import { getListing } from './store/read'
import { canEdit, type Viewer } from './store/where'

/**
 * A listing's private fields for the API (issue 35): 404 when the caller does not see the listing, 403 when they see
 * it but may not manage it; all null when none were saved. The values come from ./store/private.ts, which checks the
 * caller's scope again in its own SQL.
 */
export async function privateFieldsOf(db: Queryable, viewer: Viewer, id: number): Promise<PrivateFields> {
  const listing = await getListing(db, viewer, id)
  if (!canEdit(viewer, { ownerUserId: listing.owner_user_id, cityId: listing.city_id }))
    throw forbidden('Only the listing’s broker and the admins of its city see its private fields')
  const found = await readPrivate(db, viewer, id)
  return {
    listing_id: id,
    owner_name: found?.owner_name ?? null,
    owner_phone: found?.owner_phone ?? null,
    address: found?.address ?? null,
    bottom_price: found?.bottom_price === undefined || found?.bottom_price === null ? null : Number(found.bottom_price),
    note: found?.note ?? null,
    updated_at: found ? new Date(Number(found.updated_at)).toISOString() : null,
  }
}
