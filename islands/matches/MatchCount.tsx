import type { Listing } from '../../src/modules/listings/model'
import { matchCountText } from './match-format'

/**
 * A listing row's count of matches, under its entry ID: a button to the details' Matches tab, or "No matches", muted.
 * Nothing before the counts have loaded, nor for a listing that is not ACTIVE (it cannot match).
 */
export function MatchCount({ listing, counts, onOpen }: { listing: Listing; counts?: Readonly<Record<string, number>>; onOpen?: (l: Listing) => void }) {
  const n = counts?.[listing.id]
  if (n === undefined || !onOpen) return null
  if (n === 0)
    return (
      <span className="text-xs whitespace-nowrap text-base-content/70" data-match-count="0">
        No matches
      </span>
    )
  return (
    <button
      type="button"
      // A finger's target on a touch screen (issue 32): 44 px tall there, the line's height under a mouse.
      className="link text-xs font-medium whitespace-nowrap pointer-coarse:inline-flex pointer-coarse:min-h-11 pointer-coarse:min-w-11 pointer-coarse:items-center"
      data-match-count={n}
      aria-label={`${matchCountText(n)} for ${listing.entry_id}`}
      onClick={() => onOpen(listing)}
    >
      {matchCountText(n)}
    </button>
  )
}
