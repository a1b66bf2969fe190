import type { Param, Queryable } from '../../../../db/sql'
import { contactKey } from '../../../shared/contact-key'
import { allOf, visibleTo, type Viewer } from './where'

// The duplicate check's SQL (../duplicates.ts judges what it finds).

export type DuplicateCandidate = {
  id: number
  owner_user_id: number
  details: string | null
  by_contact: number
  /** What a post needs of the listing it repeats (its refusal names it; days on market keep its first posting). */
  entry_id: string
  created_at: number
  first_posted_at: number
}
type Draft = { city_id: number; post_type: string; sale_or_rent: string; contact_value?: string | null; details?: string | null; locality?: string | null; size?: number | null; budget?: number | null }

/**
 * The ACTIVE listings a viewer sees in the draft's city, post type and sale/rent with the same contact (when the draft
 * has details), or the same locality with a size and budget within the given fractions: one statement, each half
 * through its own index (`listings_contact_idx`, `listings_locality_idx`), at most `limit` rows each.
 */
export async function duplicateCandidates(db: Queryable, viewer: Viewer, draft: Draft, within: { sizeWithin: number; budgetWithin: number; limit: number }): Promise<DuplicateCandidate[]> {
  const common = allOf(
    { sql: "listings.city_id = ? and listings.post_type = ? and listings.sale_or_rent = ? and listings.status = 'ACTIVE'", params: [draft.city_id, draft.post_type, draft.sale_or_rent] },
    visibleTo(viewer),
  )
  const parts: { sql: string; params: Param[] }[] = []
  const columns =
    'listings.id, listings.owner_user_id, listings.details, listings.entry_id, listings.created_at, coalesce(listings.first_posted_at, listings.created_at) as first_posted_at'
  const contact = draft.contact_value?.trim() ? contactKey(draft.contact_value.trim()) : ''
  if (contact && draft.details?.trim())
    parts.push({ sql: `select ${columns}, 1 as by_contact from listings where ${common.sql} and listings.contact_key = ? limit ${within.limit}`, params: [...common.params, contact] })
  const locality = draft.locality?.trim()
  if (locality && draft.size && draft.budget)
    parts.push({
      sql: `select ${columns}, 0 as by_contact from listings where ${common.sql} and lower(listings.locality) = lower(?)
        and listings.size >= ? and listings.size <= ? and listings.budget >= ? and listings.budget <= ? limit ${within.limit}`,
      params: [...common.params, locality, draft.size * (1 - within.sizeWithin), draft.size * (1 + within.sizeWithin), draft.budget * (1 - within.budgetWithin), draft.budget * (1 + within.budgetWithin)],
    })
  if (parts.length === 0) return []
  return db.all<DuplicateCandidate>(parts.map((p, i) => `select * from (${p.sql}) as c${i}`).join(' union all '), parts.flatMap((p) => p.params))
}
