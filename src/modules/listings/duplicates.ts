import type { Queryable } from '../../../db/sql'
import type { DuplicatesAnswer } from './model'
import { listingsByIds } from './store/read'
import { duplicateCandidates, type DuplicateCandidate } from './store/duplicates'
import type { Viewer } from './store/where'
import { words } from './words'

/** What a draft is compared on: the fields of a new listing that say what it is. */
export type Draft = {
  post_type: 'REQ' | 'AVL'
  sale_or_rent: 'SALE' | 'RENT'
  city_id: number
  contact_value?: string | null
  property_type?: string | null
  locality?: string | null
  details?: string | null
  size?: number | null
  budget?: number | null
}

export type Duplicate = DuplicatesAnswer['duplicates'][number]
type DuplicateReason = Duplicate['reasons'][number]

/**
 * How alike two listings' details are: the overlap of their word sets (Jaccard: shared words over all words), folded
 * as search folds them. 0.6 or more is "similar details"; a listing without details is like no other by its details
 * (a broker's listings all share their contact, and two bare "2 BHK" posts are not thereby one property).
 */
export const SIMILAR_DETAILS = 0.6
const SIZE_WITHIN = 0.05
const BUDGET_WITHIN = 0.1
/** Enough to say "this looks like…", and a bound on what one check reads. */
const SHOWN = 10
const CANDIDATES = 500

export const similarity = (a: string, b: string): number => overlap(new Set(words(a)), b)

/** `similarity` with the first text's words already made: a check compares one draft with hundreds of candidates. */
function overlap(x: Set<string>, b: string): number {
  const y = new Set(words(b))
  if (x.size === 0 || y.size === 0) return 0
  let shared = 0
  for (const w of x) if (y.has(w)) shared++
  return shared / (x.size + y.size - shared)
}

/**
 * The ACTIVE listings a viewer sees that a draft may repeat (issue 17): the same city, post type and sale/rent, and
 * either the same contact (src/shared/contact-key.ts) with similar details, or the same locality with a size within
 * 5 % and a budget within 10 % of the draft's. Most alike first. One statement, each half through its own index
 * (`listings_contact_idx`, `listings_locality_idx`), so a check reads a few hundred rows at most.
 */
export async function findDuplicates(db: Queryable, viewer: Viewer, draft: Draft): Promise<Duplicate[]> {
  const best = await duplicatesOf(db, viewer, draft)
  const listings = await listingsByIds(db, viewer, best.map((d) => d.candidate.id))
  return best.flatMap((d) => {
    const listing = listings.get(d.candidate.id)
    return listing ? [{ listing, own: listing.owner_user_id === viewer.id, similarity: d.similarity, reasons: d.reasons }] : []
  })
}

/** A listing a draft repeats, as the check judged it. */
export type Ranked = { candidate: DuplicateCandidate; own: boolean; similarity: number; reasons: DuplicateReason[] }

/**
 * The same judgement, most alike first, from the one statement alone: what a post needs of its duplicates (the first
 * own and other one), without the second read of their whole rows the answer of `/duplicates` makes (issue 36).
 */
export async function duplicatesOf(db: Queryable, viewer: Viewer, draft: Draft): Promise<Ranked[]> {
  const found = await duplicateCandidates(db, viewer, draft, { sizeWithin: SIZE_WITHIN, budgetWithin: BUDGET_WITHIN, limit: CANDIDATES })
  // The draft's words made once, and each candidate's once though both halves of the statement may find it (issue 36:
  // a broker reposting near-copies has hundreds of candidates, each found by contact and by locality).
  const draftWords = new Set(words(draft.details ?? ''))
  const alikeById = new Map<number, number>()
  const byId = new Map<number, { candidate: DuplicateCandidate; similarity: number; reasons: DuplicateReason[] }>()
  for (const c of found) {
    let alike = alikeById.get(c.id)
    if (alike === undefined) alikeById.set(c.id, (alike = overlap(draftWords, c.details ?? '')))
    const entry = byId.get(c.id) ?? { candidate: c, similarity: alike, reasons: [] }
    if (c.by_contact) {
      if (alike < SIMILAR_DETAILS) continue
      if (!entry.reasons.includes('same_contact')) entry.reasons.push('same_contact', 'similar_details')
    } else if (!entry.reasons.includes('same_locality')) entry.reasons.push('same_locality', 'size_within_5_percent', 'budget_within_10_percent')
    byId.set(c.id, entry)
  }
  return [...byId.entries()]
    .sort(([a, x], [b, y]) => y.similarity - x.similarity || b - a)
    .slice(0, SHOWN)
    .map(([, d]) => ({ ...d, own: Number(d.candidate.owner_user_id) === viewer.id, similarity: Math.round(d.similarity * 100) / 100 }))
}
