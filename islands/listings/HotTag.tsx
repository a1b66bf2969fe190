import type { Listing } from '../../src/modules/listings/model'

/** How long a listing's news tags it in the tables (issue 17's hotsheet). */
export const HOT_HOURS = 72
/** The hotsheet's news in words: the tags, and the saved searches' daily mail. */
export const HOT_LABELS: Record<Listing['hotsheet']['event'], string> = { NEW: 'New', PRICE_CHANGED: 'Price changed', BACK_ON_MARKET: 'Back on market' }

/** "New", "Price changed" or "Back on market" while the listing's latest news is under 72 hours old; else null. */
export function hotTag(listing: Pick<Listing, 'hotsheet'>, now = Date.now()): string | null {
  const age = now - Date.parse(listing.hotsheet.at)
  return age >= 0 && age < HOT_HOURS * 3_600_000 ? HOT_LABELS[listing.hotsheet.event] : null
}

/**
 * The hotsheet's tag under a row's entry ID. Worked out where it is shown, from the news and its time the answer
 * carries: answers are cached until the data changes, the 72 hours run on the clock.
 */
export function HotTag({ listing }: { listing: Listing }) {
  const tag = hotTag(listing)
  return tag ? (
    <span className="badge badge-secondary badge-xs whitespace-nowrap" data-hot={listing.hotsheet.event}>
      {tag}
    </span>
  ) : null
}
