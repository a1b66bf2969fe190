import { useEffect, useState } from 'react'
import { api, ApiError } from '../shared/api'
import { Icon } from '../shared/icons'
import { Modal } from '../shared/Modal'
import { NO_ID_CARD_DOCUMENT } from './user-format'

type Props = {
  open: boolean
  onClose: () => void
  userId: number
  fullName: string
  /** Their ID card number, shown when there is no document to show. */
  idCardNumber?: string | null
  /** False when the list already says there is no document: nothing to load, and nothing failed. */
  hasDocument?: boolean
  /** The document was loaded into the viewer (an approval may require it: issue 32). */
  onLoaded?: () => void
}

type Loaded = { url: string; type: string }
type State = { status: 'idle' | 'loading' | 'missing' } | { status: 'error'; message: string } | { status: 'loaded'; doc: Loaded }

const LOAD_FAILED = 'Failed to load ID card'
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' }

/** `Asha Verma` and image/png → `Asha_Verma_id_card.png` (the original always wrote .jpg, whatever the file was). */
export function idCardFileName(fullName: string, contentType: string): string {
  const ext = EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? 'jpg'
  return `${fullName.trim().replace(/\s+/g, '_')}_id_card.${ext}`
}

/**
 * A person's identity document (SPEC "ID Card Document dialog"): fetched only when asked for, hidden until asked
 * again, downloadable under the person's name. The document lives as a blob: URL, released when the dialog closes.
 */
export default function IdCardDialog({ open, onClose, userId, fullName, idCardNumber = null, hasDocument = true, onLoaded }: Props) {
  return (
    <Modal open={open} title={`ID Card Document: ${fullName}`} size="lg" onClose={onClose}>
      {/* Rendered only while open: closing unmounts the viewer, which releases the document. */}
      <IdCardViewer key={userId} userId={userId} fullName={fullName} idCardNumber={idCardNumber} hasDocument={hasDocument} onLoaded={onLoaded} />
    </Modal>
  )
}

type ViewerProps = { userId: number; fullName: string; idCardNumber: string | null; hasDocument: boolean; onLoaded?: () => void }

function IdCardViewer({ userId, fullName, idCardNumber, hasDocument, onLoaded }: ViewerProps) {
  const [state, setState] = useState<State>({ status: hasDocument ? 'idle' : 'missing' })
  const [shown, setShown] = useState(false)
  const url = state.status === 'loaded' ? state.doc.url : null
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url])

  async function load() {
    setState({ status: 'loading' })
    setShown(false)
    try {
      // A successful answer that is not JSON comes back as the Response itself.
      const res = await api<Response>(`/api/users/${userId}/id-card`)
      const blob = await res.blob()
      const type = res.headers.get('content-type') || blob.type
      setState({ status: 'loaded', doc: { url: URL.createObjectURL(blob), type } })
      onLoaded?.()
    } catch (e) {
      // The server's own "no document" answer (the document went after the list was loaded) is a fact, not a failure.
      if (e instanceof ApiError && e.status === 404 && e.message === NO_ID_CARD_DOCUMENT) return setState({ status: 'missing' })
      setState({ status: 'error', message: e instanceof Error && e.message ? e.message : LOAD_FAILED })
    }
  }

  function download(doc: Loaded) {
    const a = document.createElement('a')
    a.href = doc.url
    a.download = idCardFileName(fullName, doc.type)
    document.body.append(a)
    a.click()
    a.remove()
  }

  if (state.status === 'missing')
    return (
      <div
        className="flex min-h-48 flex-col items-center justify-center gap-2 rounded-box border border-dashed border-base-300 bg-base-200 p-6 text-center"
        data-id-card-missing
      >
        <Icon name="clipboard" className="h-10 w-10 text-base-content/60" />
        <p className="font-medium">No ID card document on file</p>
        {idCardNumber && (
          <p className="text-base-content/70">
            ID card number: <span className="font-mono">{idCardNumber}</span>
          </p>
        )}
        <p className="text-sm text-base-content/60">No document was uploaded for {fullName}.</p>
      </div>
    )

  if (state.status === 'error')
    return (
      <div role="alert" className="alert alert-error flex flex-wrap justify-between">
        <span>{state.message}</span>
        <button type="button" className="btn btn-sm" onClick={load}>
          Try again
        </button>
      </div>
    )

  const doc = state.status === 'loaded' ? state.doc : null
  return (
    <div className="space-y-4" data-id-card-viewer>
      <div className="flex flex-wrap gap-2">
        {!doc ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={load} disabled={state.status === 'loading'}>
            {state.status === 'loading' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            Load ID Card
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-outline btn-sm" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
              {shown ? 'Hide Document' : 'Show Document'}
            </button>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => download(doc)}>
              <Icon name="download" className="h-4 w-4" />
              Download
            </button>
          </>
        )}
      </div>
      {doc && shown ? (
        <Document doc={doc} fullName={fullName} />
      ) : (
        <div className="flex min-h-48 flex-col items-center justify-center gap-2 rounded-box border border-dashed border-base-300 bg-base-200 p-6 text-center text-base-content/70">
          <Icon name="shield" className="h-10 w-10" />
          <p>ID card document is hidden for privacy</p>
        </div>
      )}
    </div>
  )
}

function Document({ doc, fullName }: { doc: Loaded; fullName: string }) {
  if (doc.type.startsWith('application/pdf'))
    // A frame, not <object>: the Content-Security-Policy allows blob: frames and no plugins (object-src 'none').
    return (
      <div className="space-y-2">
        <iframe src={doc.url} title={`ID card of ${fullName}`} className="h-[70vh] w-full rounded-box border border-base-300" />
        <p className="text-sm text-base-content/70">
          The PDF does not show?{' '}
          <a href={doc.url} target="_blank" rel="noopener" className="link">
            Open it in a new tab
          </a>
          .
        </p>
      </div>
    )
  return <img src={doc.url} alt={`ID card of ${fullName}`} className="mx-auto max-h-[70vh] rounded-box border border-base-300 object-contain" />
}
