import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { ConfirmDialog } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { LISTING_TEXT, listingErrorMessage } from './listing-format'

type Props = {
  /** The listing to delete; null keeps the dialog closed. */
  listing: Listing | null
  onClose: () => void
  onDeleted: (listing: Listing) => void
  /** Told of a failure (the dialog shows it too), e.g. for a toast. */
  onFailed?: (error: unknown) => void
}

/** The broker's delete confirmation (SPEC section 4: it cannot be undone); a refusal stays in the dialog. */
export function DeleteListingDialog({ listing, onClose, onDeleted, onFailed }: Props) {
  const [error, setError] = useState<string | null>(null)
  const remove = useMutation({
    mutationFn: (l: Listing) => sendJson<void>(`/api/listings/${l.id}`, 'DELETE'),
    onError: (err) => (setError(listingErrorMessage(err, LISTING_TEXT.my.deleteFailed)), onFailed?.(err)),
  })
  const close = () => (setError(null), remove.reset(), onClose())
  return (
    <ConfirmDialog
      open={listing !== null}
      title="Delete Listing"
      message={listing ? LISTING_TEXT.deleteConfirm(listing.entry_id) : ''}
      confirmLabel="Delete"
      tone="error"
      busy={remove.isPending}
      error={error}
      onClose={close}
      onConfirm={() => {
        if (!listing) return
        setError(null)
        remove.mutate(listing, { onSuccess: () => (close(), onDeleted(listing)) })
      }}
    />
  )
}
