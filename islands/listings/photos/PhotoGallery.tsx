import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { listPhotos, type Photo } from './photo-api'

/**
 * A listing's photos in its details (issue 34): one at a time, swiped on a phone (the strip scrolls and snaps), the
 * Previous/Next buttons or the arrow keys elsewhere; a screen reader hears which photo of how many is shown.
 */
export function PhotoGallery({ listingId, label }: { listingId: number; label: string }) {
  const [photos, setPhotos] = useState<Photo[] | null>(null)
  const [at, setAt] = useState(0)
  const strip = useRef<HTMLDivElement>(null)

  useEffect(() => {
    listPhotos(listingId)
      .then((l) => setPhotos(l.photos))
      .catch(() => setPhotos([]))
  }, [listingId])

  if (!photos || photos.length === 0) return null
  const go = (i: number) => {
    const next = Math.max(0, Math.min(photos.length - 1, i))
    setAt(next)
    const el = strip.current
    if (el) el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' })
  }
  // A swipe moves the strip itself: the photo most in view is the one shown.
  const onScroll = () => {
    const el = strip.current
    if (el && el.clientWidth > 0) setAt(Math.round(el.scrollLeft / el.clientWidth))
  }
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault()
      go(at + (e.key === 'ArrowRight' ? 1 : -1))
    }
  }
  return (
    <section aria-roledescription="carousel" aria-label={label} className="space-y-2" data-gallery={listingId} onKeyDown={onKey}>
      <div ref={strip} onScroll={onScroll} className="flex snap-x snap-mandatory overflow-x-auto rounded-box bg-base-200" tabIndex={0} aria-label={`${label}: use the arrow keys to move between photos`}>
        {photos.map((p, i) => (
          <figure key={p.id} role="group" aria-roledescription="slide" aria-label={`Photo ${i + 1} of ${photos.length}`} className="w-full shrink-0 snap-center" aria-hidden={i !== at}>
            <img src={p.url} width={p.width} height={p.height} alt={`Photo ${i + 1} of ${photos.length}`} loading={i === 0 ? 'eager' : 'lazy'} className="mx-auto aspect-[4/3] h-auto max-h-[60vh] w-full object-contain" />
          </figure>
        ))}
      </div>
      {photos.length > 1 && (
        <div className="flex items-center justify-between gap-2">
          <button type="button" className="btn btn-sm h-11 min-h-11 min-w-11" onClick={() => go(at - 1)} disabled={at === 0}>
            Previous
          </button>
          <span aria-live="polite" className="text-sm" data-gallery-position>
            Photo {at + 1} of {photos.length}
          </span>
          <button type="button" className="btn btn-sm h-11 min-h-11 min-w-11" onClick={() => go(at + 1)} disabled={at === photos.length - 1}>
            Next
          </button>
        </div>
      )}
    </section>
  )
}
