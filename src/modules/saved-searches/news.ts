import type { Change } from '../../../db/change-feed'
import type { listingMatches } from '../listings/affects'

/** A listing as the change feed carries it (src/modules/listings/affects.ts judges filters on it). */
export type FeedListing = Parameters<typeof listingMatches>[1]

/**
 * The listing, when this change is news as the hotsheet counts it (src/modules/listings/service.ts sets hot_at the
 * same way): posted, its budget changed, or back to ACTIVE from any other status (renewed after expiry included).
 */
export function newsOf(c: Change): FeedListing | null {
  if (c.topic !== 'listing' || !c.after) return null
  const [before, after] = [c.before, c.after]
  const news = !before || before.budget !== after.budget || (before.status !== 'ACTIVE' && after.status === 'ACTIVE')
  return news ? (after as FeedListing) : null
}
