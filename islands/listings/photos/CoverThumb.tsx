import type { Listing } from '../../../src/modules/listings/model'

/**
 * A listing's cover on its card and row (issue 34): the 320 px thumbnail in a box of fixed size, so nothing moves when
 * it arrives (lazy, width and height set). None: nothing for others' listings; on the owner's, a "No photo yet" nudge.
 */
export function CoverThumb({ listing, own }: { listing: Listing; own: boolean }) {
  const c = listing.cover
  if (c)
    return (
      <img
        src={c.url}
        width={c.width}
        height={c.height}
        loading="lazy"
        decoding="async"
        alt=""
        className="h-12 w-16 shrink-0 rounded object-cover"
        data-cover={listing.entry_id}
      />
    )
  if (!own) return null
  return (
    <span className="flex h-12 w-16 shrink-0 items-center justify-center rounded border border-dashed border-base-content/40 text-center text-[0.625rem] leading-tight text-base-content/70" data-no-photo={listing.entry_id}>
      No photo yet
    </span>
  )
}
