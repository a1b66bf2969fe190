import { useQuery } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { ShareAnswer } from '../../src/modules/intake/model'
import type { Listing } from '../../src/modules/listings/model'
import { Icon } from '../shared/icons'
import { LoadError } from '../shared/LoadError'
import { Modal } from '../shared/Modal'
import { fetchJson } from '../shared/query'
import { toast } from '../shared/toast'
import { listingErrorMessage } from '../listings/listing-format'
import { INTAKE_TEXT } from './intake-text'

const T = INTAKE_TEXT.share

type Props = {
  /** The listing to share; null keeps the dialog closed. */
  listing: Pick<Listing, 'id' | 'entry_id'> | null
  onClose: () => void
}

/**
 * Issue 18, "Share": a listing as a WhatsApp message (GET /api/listings/{id}/share), to copy or to open in WhatsApp.
 * Opened from a listing's details and from the row menus of the listing tables.
 */
export function ShareListingDialog({ listing, onClose }: Props) {
  return (
    <Modal open={listing !== null} title={listing ? T.title(listing.entry_id) : T.button} size="sm" onClose={onClose}>
      {listing && <ShareMessage key={listing.id} id={listing.id} onClose={onClose} />}
    </Modal>
  )
}

function ShareMessage({ id, onClose }: { id: number; onClose: () => void }) {
  // Written afresh at each opening: the listing may have changed since.
  const share = useQuery({ queryKey: ['listing-share', id], queryFn: () => fetchJson<ShareAnswer>(`/api/listings/${id}/share`), staleTime: 0, gcTime: 0 })
  const box = useRef<HTMLTextAreaElement>(null)
  const [copied, setCopied] = useState(false)

  /** The clipboard when the browser grants it; else the text selected, for the user's own Copy. */
  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      toast.success(T.copied)
    } catch {
      box.current?.focus()
      box.current?.select()
      toast.info(T.selected)
    }
  }

  const textId = `share-text-${id}`
  return (
    <div className="space-y-3" data-share={id}>
      {share.isPending && (
        <p className="flex items-center gap-2 text-sm" role="status">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          {T.loading}
        </p>
      )}
      {share.isError && <LoadError title={T.loadFailed} message={listingErrorMessage(share.error, '')} onRetry={() => void share.refetch()} heading="h3" />}
      {share.data && (
        <>
          <label htmlFor={textId} className="label-text block font-medium">
            {T.label}
          </label>
          <textarea id={textId} ref={box} readOnly rows={7} className="textarea textarea-bordered w-full text-sm" value={share.data.text} onFocus={(e) => e.currentTarget.select()} />
          {share.data.public_url && (
            <p className="text-sm text-base-content/70" data-public-url={share.data.public_url}>
              {T.publicPage}
            </p>
          )}
        </>
      )}
      <div className="modal-action">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
        {share.data && (
          <>
            <button type="button" className="btn btn-outline" onClick={() => void copy(share.data.text)} aria-live="polite">
              {copied && <Icon name="check" className="h-4 w-4" />}
              {copied ? T.copied : T.copy}
            </button>
            <a className="btn btn-success" href={share.data.whatsapp_url} target="_blank" rel="noopener noreferrer">
              <Icon name="chat" className="h-4 w-4" />
              {T.whatsapp}
            </a>
          </>
        )}
      </div>
    </div>
  )
}
