import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import type { DetailsTab } from './ListingDetailsDialog'

/** Which listing's details are open, and on which tab: a row opens the details, its "3 matches" the Matches tab. */
export function useDetailsDialog() {
  const [shown, setShown] = useState<{ listing: Listing; tab: DetailsTab } | null>(null)
  return {
    viewing: shown?.listing ?? null,
    tab: shown?.tab ?? ('details' as DetailsTab),
    open: (listing: Listing) => setShown({ listing, tab: 'details' }),
    openMatches: (listing: Listing) => setShown({ listing, tab: 'matches' }),
    close: () => setShown(null),
  }
}
