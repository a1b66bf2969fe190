import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { Listing } from '../../../src/modules/listings/model'
import { MODERATION_LIMITS } from '../../../src/shared/constants'
import { Field, FormActions } from '../../shared/form-parts'
import { Modal } from '../../shared/Modal'
import { sendJson } from '../../shared/query'
import { MODERATION_TEXT, ModerationNotice } from '../moderation-format'
import { describeFormError, failureMessage, TEXT } from './admin-text'

/** Suspending an ACTIVE listing, or keeping one an admin suspended so after its owner asked for a review. */
export type SuspendMode = 'suspend' | 'uphold'

type Props = {
  /** The listing, and what the admin does to it; null keeps the dialog closed. */
  target: { listing: Listing; mode: SuspendMode } | null
  onClose: () => void
  onDone: (listing: Listing, mode: SuspendMode) => void
}

/**
 * An admin's suspension of another broker's listing, with its reason (issue 29): required, shown to the broker, who
 * cannot reactivate the listing but may ask for a review. Keeping it suspended answers that review with a new reason.
 */
export function SuspendDialog({ target, onClose, onDone }: Props) {
  const title = target ? `${target.mode === 'suspend' ? 'Suspend' : 'Keep suspended:'} ${target.listing.entry_id}` : 'Suspend Listing'
  return (
    <Modal open={target !== null} title={title} size="md" onClose={onClose}>
      {target && <SuspendForm key={`${target.listing.id}-${target.mode}`} {...target} onClose={onClose} onDone={onDone} />}
    </Modal>
  )
}

function SuspendForm({ listing, mode, onClose, onDone }: { listing: Listing; mode: SuspendMode; onClose: () => void; onDone: Props['onDone'] }) {
  const [reason, setReason] = useState(mode === 'uphold' ? (listing.moderation?.reason ?? '') : '')
  const [error, setError] = useState<string | undefined>()
  const [banner, setBanner] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', body),
    onSuccess: (saved) => onDone(saved, mode),
    onError: (err) => {
      const { fields, general } = describeFormError(err, TEXT.updateFailed)
      setError(fields.suspension_reason)
      setBanner(fields.suspension_reason ? null : (general ?? failureMessage(err, TEXT.updateFailed)))
    },
  })
  function submit(e: FormEvent) {
    e.preventDefault()
    setBanner(null)
    const text = reason.trim()
    const problem = !text ? MODERATION_TEXT.reasonRequired : [...text].length > MODERATION_LIMITS.reasonMax ? `The reason must be at most ${MODERATION_LIMITS.reasonMax} characters` : undefined
    setError(problem)
    if (problem) return
    save.mutate(mode === 'suspend' ? { status: 'SUSPENDED', suspension_reason: text } : { suspension_reason: text })
  }
  const id = 'suspend-reason'
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {mode === 'uphold' ? (
        <ModerationNotice listing={listing} />
      ) : (
        <p className="text-sm">
          {listing.owner_name}’s listing leaves the network: other brokers no longer see it, and it makes no new matches. Only an admin can reactivate it.
        </p>
      )}
      {banner && (
        <div role="alert" className="alert alert-error text-sm">
          {banner}
        </div>
      )}
      <Field id={id} label={`${mode === 'suspend' ? MODERATION_TEXT.reasonLabel : 'Your answer: why it stays suspended'} *`} error={error}>
        <textarea
          id={id}
          name="suspension_reason"
          rows={4}
          maxLength={MODERATION_LIMITS.reasonMax}
          className={`textarea textarea-bordered w-full ${error ? 'textarea-error' : ''}`}
          value={reason}
          aria-required
          aria-invalid={!!error}
          aria-describedby={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
          onChange={(e) => (setReason(e.target.value), setError(undefined))}
        />
      </Field>
      <p id={`${id}-hint`} className="-mt-2 text-xs text-base-content/70">
        {MODERATION_TEXT.reasonHint} {TEXT.auditNote}
      </p>
      <FormActions busy={save.isPending} onCancel={onClose}>
        {mode === 'suspend' ? 'Suspend Listing' : MODERATION_TEXT.keepSuspended}
      </FormActions>
    </form>
  )
}
