import { useEffect, useRef, useState, type DragEvent } from 'react'
import { chooseCover, listPhotos, newUploadKey, removePhoto, reorderPhotos, uploadPhoto, UploadFailed, type Photo, type UploadAnswer } from './photo-api'

const MAX = 10
/** A dropped connection is tried again by itself after 1, 2 and 4 s (a phone between cells), then waits for Retry. */
const BACKOFF_MS = [1000, 2000, 4000]

/** One photo on its way: its upload key stays the same across attempts, so the server never stores it twice. */
type Sending = { key: number; file: File; uploadKey: string; progress: number; error: string | null; attempt: number }

export type PhotoManagerProps = {
  listingId: number
  /** Files chosen before the listing existed (the new-listing form): sent as soon as this shows. */
  pending?: File[]
  /** Told of the photos after each change (the cover may have changed). */
  onChange?: (photos: Photo[]) => void
}

/**
 * A listing's photos for whoever may change them (issue 34): add from the camera or the gallery (several at once,
 * each sent on its own request with its progress, and retried on its own when it fails), reorder by dragging or with
 * the Earlier/Later buttons (the keyboard's way), make one the cover (it moves first), remove one.
 */
export function PhotoManager({ listingId, pending = [], onChange }: PhotoManagerProps) {
  const [photos, setPhotos] = useState<Photo[] | null>(null)
  const [sending, setSending] = useState<Sending[]>([])
  const [said, setSaid] = useState('')
  const [failed, setFailed] = useState<string | null>(null)
  const [elsewhere, setElsewhere] = useState<UploadAnswer['duplicates']>([])
  const nextKey = useRef(0)
  const dragged = useRef<number | null>(null)
  const input = useRef<HTMLInputElement>(null)

  const show = (list: Photo[], message?: string) => {
    setPhotos(list)
    onChange?.(list)
    if (message) setSaid(message)
  }

  useEffect(() => {
    listPhotos(listingId)
      .then((l) => show(l.photos))
      .catch(() => setFailed('The photos could not be loaded.'))
    if (pending.length) void add(pending)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listingId])

  const patch = (key: number, change: Partial<Sending>) => setSending((s) => s.map((x) => (x.key === key ? { ...x, ...change } : x)))

  /**
   * Sends one photo; settles when it is added or has failed (then shown with its Retry). A dropped connection or a
   * busy server is tried again by itself with a growing wait, with the same upload key: if the photo had in fact
   * arrived, the server answers it as stored instead of storing it again.
   */
  async function send(item: Sending): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      patch(item.key, { progress: 0, error: null, attempt })
      try {
        const list = await uploadPhoto(listingId, item.file, (progress) => patch(item.key, { progress }), item.uploadKey)
        setSending((s) => s.filter((x) => x.key !== item.key))
        show(list.photos, `${item.file.name} added.`)
        if (list.duplicates.length) setElsewhere((e) => [...e.filter((d) => !list.duplicates.some((n) => n.listing.id === d.listing.id)), ...list.duplicates])
        return
      } catch (e) {
        const failure = e instanceof UploadFailed ? e : new UploadFailed(String(e), false)
        const wait = failure.retry ? BACKOFF_MS[attempt] : undefined
        if (wait === undefined) {
          patch(item.key, { error: failure.message })
          setSaid(`${item.file.name}: ${failure.message}`)
          return
        }
        setSaid(`${item.file.name}: the connection dropped, trying again.`)
        await new Promise((r) => setTimeout(r, wait))
      }
    }
  }

  async function add(files: File[]) {
    const items = files.map((file) => ({ key: nextKey.current++, file, uploadKey: newUploadKey(), progress: 0, error: null, attempt: 0 }))
    setSending((s) => [...s, ...items])
    // One after another: the server takes each in its turn anyway, and a phone on 4G sends one at full speed.
    for (const item of items) await send(item)
  }

  const act = (p: Promise<{ photos: Photo[] } | void>, message: string) =>
    p
      .then((l) => (l ? show(l.photos, message) : listPhotos(listingId).then((x) => show(x.photos, message))))
      .catch((e: Error) => setSaid(e.message || 'That did not work: try again.'))

  const move = (from: number, to: number) => {
    if (!photos || to < 0 || to >= photos.length || from === to) return
    const ids = photos.map((p) => p.id)
    const [id] = ids.splice(from, 1)
    ids.splice(to, 0, id!)
    act(reorderPhotos(listingId, ids), `Photo moved to position ${to + 1} of ${ids.length}.`)
  }

  const onDrop = (to: number) => (e: DragEvent) => {
    e.preventDefault()
    if (dragged.current !== null) move(dragged.current, to)
    dragged.current = null
  }

  const count = (photos?.length ?? 0) + sending.filter((s) => !s.error).length
  return (
    <section className="space-y-3" aria-labelledby={`photos-${listingId}`} data-photo-manager={listingId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={`photos-${listingId}`} className="text-sm font-semibold">
          Photos <span className="font-normal text-base-content/70">({photos?.length ?? 0} of {MAX}; the first is the cover)</span>
        </h4>
        <label className={`btn btn-outline min-h-11 ${count >= MAX ? 'btn-disabled' : ''}`}>
          Add photos
          <input
            ref={input}
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            disabled={count >= MAX}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])].slice(0, MAX - count)
              if (files.length) void add(files)
              e.target.value = ''
            }}
          />
        </label>
      </div>
      {failed && <p role="alert" className="text-sm text-error">{failed}</p>}
      {elsewhere.length > 0 && (
        <div role="status" className="alert alert-warning block text-sm" data-same-photo>
          <p className="font-semibold">A photo you added is already on {elsewhere.length === 1 ? 'another listing' : 'other listings'}:</p>
          <ul className="mt-1 list-disc pl-5">
            {elsewhere.slice(0, 3).map((d) => (
              <li key={d.listing.id}>
                {d.listing.entry_id}, posted by {d.own ? 'you' : d.listing.owner_name}
              </li>
            ))}
          </ul>
          <p className="mt-1">If it is the same property, one listing is enough; if not, use a photo of this one.</p>
        </div>
      )}
      <p aria-live="polite" className="sr-only" data-photo-status>
        {said}
      </p>
      {sending.length > 0 && (
        <ul className="space-y-2" aria-label="Photos being sent">
          {sending.map((s) => (
            <li key={s.key} className="flex flex-wrap items-center gap-2 text-sm" data-sending={s.file.name}>
              <span className="min-w-0 flex-1 truncate">{s.file.name}</span>
              {s.error ? (
                <>
                  <span className="w-full text-error sm:w-auto" data-send-error>{s.error}</span>
                  <button type="button" className="btn btn-sm h-11 min-h-11" onClick={() => void send(s)}>
                    Retry
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm h-11 min-h-11" onClick={() => setSending((all) => all.filter((x) => x.key !== s.key))}>
                    Dismiss
                  </button>
                </>
              ) : (
                <>
                  {s.attempt > 0 && (
                    <span className="text-base-content/70" data-send-retrying={s.attempt}>
                      trying again ({s.attempt} of {BACKOFF_MS.length})
                    </span>
                  )}
                  <progress className="progress progress-primary w-32" value={Math.round(s.progress * 100)} max={100} aria-label={`Sending ${s.file.name}`} />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {photos && photos.length === 0 && sending.length === 0 && <p className="text-sm text-base-content/70">No photo yet: listings with photos are recognised at a glance.</p>}
      {photos && photos.length > 0 && (
        <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Photos, in order">
          {photos.map((p, i) => (
            <li
              key={p.id}
              draggable
              onDragStart={() => (dragged.current = i)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={onDrop(i)}
              className="rounded-box border border-base-300 p-2"
              data-photo-id={p.id}
            >
              <img src={p.thumb_url} width={p.thumb_width} height={p.thumb_height} alt={`Photo ${i + 1} of ${photos.length}${i === 0 ? ' (cover)' : ''}`} className="aspect-[4/3] h-auto w-full rounded object-cover" loading="lazy" />
              <div className="mt-2 flex flex-wrap gap-1">
                {i === 0 ? (
                  <span className="badge badge-primary">Cover</span>
                ) : (
                  <button type="button" className="btn btn-sm h-11 min-h-11 min-w-11" onClick={() => act(chooseCover(listingId, p.id), `Photo ${i + 1} is the cover now.`)}>
                    Make cover
                  </button>
                )}
                <button type="button" className="btn btn-sm h-11 min-h-11 min-w-11" disabled={i === 0} aria-label={`Move photo ${i + 1} earlier`} onClick={() => move(i, i - 1)}>
                  ←
                </button>
                <button type="button" className="btn btn-sm h-11 min-h-11 min-w-11" disabled={i === photos.length - 1} aria-label={`Move photo ${i + 1} later`} onClick={() => move(i, i + 1)}>
                  →
                </button>
                <button type="button" className="btn btn-sm btn-ghost h-11 min-h-11 min-w-11 text-error" aria-label={`Remove photo ${i + 1}`} onClick={() => act(removePhoto(listingId, p.id), `Photo ${i + 1} removed.`)}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
