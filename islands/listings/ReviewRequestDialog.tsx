import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { MODERATION_LIMITS } from '../../src/shared/constants'
import { Field, FormActions } from '../shared/form-parts'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { describeListingError, listingErrorMessage } from './listing-format'
import { MODERATION_TEXT, ModerationNotice } from './moderation-format'

type Props = {
  /** The owner's listing an admin suspended; null keeps the dialog closed. */
  listing: Listing | null
  onClose: () => void
  /** The request went: the listing as it is now, and how many admins were told. */
  onSent: (listing: Listing, adminsNotified: number) => void
  onFailed?: (error: unknown) => void
}

/**
 * The owner asks the admins to review an admin's suspension (issue 29): the reason they were given, an optional note
 * (what they put right), and Send. A refusal (409: already asked, or no longer suspended) stays in the dialog.
 */
export function ReviewRequestDialog({ listing, onClose, ...rest }: Props) {
  return (
    <Modal open={listing !== null} title={listing ? `Ask for a review of ${listing.entry_id}` : MODERATION_TEXT.askReview} size="md" onClose={onClose}>
      {listing && <ReviewRequestForm key={listing.id} listing={listing} onClose={onClose} {...rest} />}
    </Modal>
  )
}

function ReviewRequestForm({ listing, onClose, onSent, onFailed }: Omit<Props, 'listing'> & { listing: Listing }) {
  const [note, setNote] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [noteError, setNoteError] = useState<string | undefined>()
  const send = useMutation({
    mutationFn: () => sendJson<{ listing: Listing; admins_notified: number }>(`/api/listings/${listing.id}/review-request`, 'POST', note.trim() ? { note: note.trim() } : {}),
    // Asking twice is refused (409): a request is not repeated on its own.
    retry: false,
    onSuccess: (r) => onSent(r.listing, r.admins_notified),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['note'], MODERATION_TEXT.reviewFailed)
      setNoteError(fields.note)
      setError(banner ?? (fields.note ? null : listingErrorMessage(err, MODERATION_TEXT.reviewFailed)))
      onFailed?.(err)
    },
  })
  function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    if ([...note.trim()].length > MODERATION_LIMITS.noteMax) return setNoteError(`The note must be at most ${MODERATION_LIMITS.noteMax} characters`)
    setNoteError(undefined)
    send.mutate()
  }
  const id = 'review-request-note'
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <ModerationNotice listing={listing} owner />
      <p className="text-sm">The admins of {listing.city_name} and the master admins are told by mail, and answer by reactivating the listing or keeping it suspended.</p>
      {error && (
        <div role="alert" className="alert alert-error text-sm">
          {error}
        </div>
      )}
      <Field id={id} label="Note to the admins (optional)" error={noteError}>
        <textarea
          id={id}
          name="note"
          rows={4}
          maxLength={MODERATION_LIMITS.noteMax}
          className={`textarea textarea-bordered w-full ${noteError ? 'textarea-error' : ''}`}
          placeholder="e.g. I corrected the contact number."
          value={note}
          aria-invalid={!!noteError}
          aria-describedby={noteError ? `${id}-error` : undefined}
          onChange={(e) => (setNote(e.target.value), setNoteError(undefined))}
        />
      </Field>
      <FormActions busy={send.isPending} onCancel={onClose}>
        {MODERATION_TEXT.askReview}
      </FormActions>
    </form>
  )
}
