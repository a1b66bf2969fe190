import type { Listing } from '../../src/modules/listings/model'
import { matchCountText } from './match-format'
import type { MatchCountsState } from './useMatchCounts'

/**
 * One box for the count whatever it says, and for its place while it loads: a finger's target on a touch screen (issue
 * 32), 44 px tall there, the line's height under a mouse. The counts come a moment after the rows (useMatchCounts); a
 * line that grew when they came pushed every card below it down under the broker's finger.
 */
const BOX = 'text-xs whitespace-nowrap pointer-coarse:inline-flex pointer-coarse:min-h-11 pointer-coarse:items-center'

/**
 * A listing row's count of matches, under its entry ID: a button to the details' Matches tab, or "No matches", muted.
 * While the counts load, their place, empty; nothing for a listing that is not ACTIVE (it cannot match).
 */
export function MatchCount({ listing, counts, onOpen }: { listing: Listing; counts: MatchCountsState; onOpen?: (l: Listing) => void }) {
  if (!onOpen || listing.status !== 'ACTIVE') return null
  if (counts === 'loading')
    return (
      <span className={`${BOX} invisible`} aria-hidden="true" aria-busy="true" data-match-count-pending>
        No matches
      </span>
    )
  const n = counts?.[listing.id]
  if (n === undefined) return null
  if (n === 0)
    return (
      <span className={`${BOX} text-base-content/70`} data-match-count="0">
        No matches
      </span>
    )
  return (
    <button
      type="button"
      className={`link ${BOX} font-medium pointer-coarse:min-w-11`}
      data-match-count={n}
      aria-label={`${matchCountText(n)} for ${listing.entry_id}`}
      onClick={() => onOpen(listing)}
    >
      {matchCountText(n)}
    </button>
  )
}
