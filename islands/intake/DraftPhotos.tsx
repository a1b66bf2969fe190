import { useEffect, useMemo } from 'react'
import { DRAFT_PHOTOS_MAX, INTAKE_TEXT } from './intake-text'

const T = INTAKE_TEXT.photos

/** Files shown as thumbnails from object URLs made for them, released when they go. */
function usePreviews(files: readonly File[]): string[] {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files])
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls])
  return urls
}

type Props = {
  id: string
  photos: readonly File[]
  disabled: boolean
  onChange: (photos: File[]) => void
}

/**
 * A paste draft's photos (issue 34): chosen from the camera or the gallery (several at once), kept in the page until
 * the draft is posted, then sent one by one with the listing's photos' progress and retry (PhotoManager).
 */
export function DraftPhotos({ id, photos, disabled, onChange }: Props) {
  const previews = usePreviews(photos)
  const full = photos.length >= DRAFT_PHOTOS_MAX
  return (
    <section aria-labelledby={`${id}-photos`} className="space-y-2" data-draft-photos={photos.length}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={`${id}-photos`} className="text-sm font-semibold">
          {T.label(photos.length)}
        </h4>
        <label className={`btn btn-outline btn-sm h-11 min-h-11 ${disabled || full ? 'btn-disabled' : ''}`}>
          {T.add}
          <input
            type="file"
            accept="image/*"
            multiple
            className="sr-only"
            disabled={disabled || full}
            onChange={(e) => {
              const chosen = [...(e.target.files ?? [])].slice(0, DRAFT_PHOTOS_MAX - photos.length)
              if (chosen.length) onChange([...photos, ...chosen])
              e.target.value = ''
            }}
          />
        </label>
      </div>
      {photos.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {photos.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex w-24 flex-col items-stretch gap-1" data-draft-photo={f.name}>
              <img src={previews[i]} alt={T.alt(i + 1, f.name)} width={96} height={72} className="h-18 w-24 rounded object-cover" />
              <button type="button" className="btn btn-outline btn-sm h-11 min-h-11" disabled={disabled} aria-label={T.remove(i + 1)} onClick={() => onChange(photos.filter((_, k) => k !== i))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

type TrayProps = {
  photos: readonly File[]
  /** The drafts that can still take photos: their key and number. */
  drafts: readonly { key: number; number: number }[]
  onPut: (index: number, draftKey: number) => void
}

/** Photos shared with several listings' text (issue 34): the broker puts each on its draft. */
export function SharedPhotoTray({ photos, drafts, onPut }: TrayProps) {
  const previews = usePreviews(photos)
  return (
    <section aria-labelledby="shared-photos-title" className="card border border-base-300 bg-base-100 shadow-sm" data-shared-photos={photos.length}>
      <div className="card-body gap-2 p-3 sm:p-5">
        <h2 id="shared-photos-title" className="text-lg font-bold">
          {INTAKE_TEXT.photos.tray(photos.length)}
        </h2>
        <p className="text-sm text-base-content/70">{drafts.length ? T.trayHint : T.trayNoDraft}</p>
        <ul className="flex flex-wrap gap-3">
          {photos.map((f, i) => (
            <li key={`${f.name}-${i}`} className="flex w-36 flex-col gap-1" data-tray-photo={f.name}>
              <img src={previews[i]} alt={T.alt(i + 1, f.name)} width={144} height={108} className="h-27 w-36 rounded object-cover" />
              {drafts.length > 0 && (
                <select
                  aria-label={T.putOn(i + 1)}
                  className="select select-bordered select-sm h-11 min-h-11 w-full"
                  value=""
                  onChange={(e) => e.target.value && onPut(i, Number(e.target.value))}
                >
                  <option value="">{T.chooseDraft}</option>
                  {drafts.map((d) => (
                    <option key={d.key} value={d.key}>
                      {INTAKE_TEXT.draft(d.number)}
                    </option>
                  ))}
                </select>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
