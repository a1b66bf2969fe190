import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'

type Props = {
  /** The file input's id and name. */
  id: string
  name?: string
  label: string
  value: File | null
  /** Called with an accepted file, or null when it is removed or a chosen file is refused. */
  onChange: (file: File | null) => void
  /** As for `<input accept>`: MIME types and `.ext` extensions; a file passes by either. */
  accept: string
  maxBytes: number
  messages: { type: string; size: string }
  hint?: string
  /** An error from the form (e.g. the server's); a refused choice shows its own message instead. */
  error?: string
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** The first rule a file breaks, or null. Type by MIME or extension only: the server judges the bytes. */
export function checkFile(file: File, accept: string, maxBytes: number, messages: Props['messages']): string | null {
  const allowed = accept.split(',').map((a) => a.trim().toLowerCase())
  const name = file.name.toLowerCase()
  const typeOk = allowed.some((a) => (a.startsWith('.') ? name.endsWith(a) : a === file.type.toLowerCase()))
  if (!typeOk) return messages.type
  if (file.size > maxBytes) return messages.size
  return null
}

const Svg = ({ d, className }: { d: string; className: string }) => (
  <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
    <path d={d} />
  </svg>
)
const UPLOAD = 'M12 16V4m0 0L8 8m4-4l4 4M4 16v2a2 2 0 002 2h12a2 2 0 002-2v-2'
const DOCUMENT = 'M14 3H7a2 2 0 00-2 2v14a2 2 0 002 2h10a2 2 0 002-2V8l-5-5zm0 0v5h5M9 13h6M9 17h4'

/**
 * A drop zone for one file: click, Enter/Space or drop to choose; shows name, size and an image preview (an object
 * URL, revoked when the file is removed, replaced or the zone unmounts) or a document icon, with Remove.
 */
export function FileDrop({ id, name = id, label, value, onChange, accept, maxBytes, messages, hint, error }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const zone = useRef<HTMLDivElement>(null)
  const refocusZone = useRef(false)
  const [refused, setRefused] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const [preview, setPreview] = useState<string | null>(null)

  useEffect(() => {
    if (!value || !value.type.startsWith('image/')) return setPreview(null)
    const url = URL.createObjectURL(value)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [value])

  useEffect(() => {
    if (!value && refocusZone.current) zone.current?.focus()
    refocusZone.current = false
  }, [value])

  function choose(file: File | undefined) {
    if (input.current) input.current.value = '' // the same file can be chosen again
    if (!file) return
    const problem = checkFile(file, accept, maxBytes, messages)
    setRefused(problem)
    onChange(problem ? null : file)
  }
  const open = () => input.current?.click()
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return
    e.preventDefault()
    open()
  }
  const drop = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault()
      setDragging(true)
    },
    onDragLeave: () => setDragging(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault()
      setDragging(false)
      choose(e.dataTransfer.files[0])
    },
  }
  function remove() {
    setRefused(null)
    refocusZone.current = true
    onChange(null)
  }

  const shown = refused ?? error
  const labelId = `${id}-label`
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const zoneId = `${id}-zone`
  const describedBy = shown ? errorId : undefined

  return (
    <div className="form-control">
      <span id={labelId} className="label-text mb-1 block font-medium">
        {label}
      </span>
      {value ? (
        <div {...drop} className={`flex items-center gap-3 rounded-box border border-base-300 p-3 ${dragging ? 'border-primary bg-primary/5' : ''}`}>
          {preview ? (
            <img src={preview} alt={`Preview of ${value.name}`} className="h-16 w-16 shrink-0 rounded object-cover" />
          ) : (
            <div className="flex h-16 w-16 shrink-0 items-center justify-center rounded bg-base-200 text-error" role="img" aria-label="PDF document">
              <Svg d={DOCUMENT} className="h-8 w-8" />
            </div>
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium" title={value.name}>
              {value.name}
            </p>
            <p className="text-sm text-base-content/70">{formatFileSize(value.size)}</p>
          </div>
          <button type="button" className="btn btn-ghost btn-sm text-error" onClick={remove} aria-label={`Remove ${value.name}`}>
            Remove
          </button>
        </div>
      ) : (
        <div
          ref={zone}
          id={zoneId}
          role="button"
          tabIndex={0}
          // Named by the field's label and then by what the zone shows (the prompt and the hint), so the name holds the visible text.
          aria-labelledby={`${labelId} ${zoneId}`}
          aria-describedby={describedBy}
          aria-invalid={!!shown}
          onClick={open}
          onKeyDown={onKeyDown}
          {...drop}
          className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-box border-2 border-dashed p-6 text-center transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${
            dragging ? 'border-primary bg-primary/5' : shown ? 'border-error' : 'border-base-300 hover:border-primary'
          }`}
        >
          <Svg d={UPLOAD} className="h-8 w-8 text-base-content/50" />
          <span className="text-sm">
            <span className="font-medium text-primary">Click to upload</span> or drag and drop
          </span>{' '}
          {hint && (
            <span id={hintId} className="text-xs text-base-content/60">
              {hint}
            </span>
          )}
        </div>
      )}
      <input ref={input} id={id} name={name} type="file" accept={accept} className="hidden" tabIndex={-1} aria-labelledby={labelId} onChange={(e) => choose(e.target.files?.[0])} />
      {shown && (
        <span id={errorId} role="alert" className="mt-1 block text-sm text-error">
          {shown}
        </span>
      )}
    </div>
  )
}
