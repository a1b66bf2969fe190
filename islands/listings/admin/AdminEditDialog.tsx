import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import type { Listing } from '../../../src/modules/listings/model'
import type { FieldErrors, ObjectSchema } from '../../shared/form-rules'
import { Modal } from '../../shared/Modal'
import { sendJson } from '../../shared/query'
import { toast } from '../../shared/toast'
import { describeFormError, failureMessage, TEXT } from './admin-text'
import { listingCurrency } from '../../../src/shared/currency'
import { ALL_STATUSES, checkPayload, statusAllowed, statusesFor, formOf, ListingFields, payloadOf, type ListingFormValues } from '../listing-form'
import { Field, FormActions } from '../../shared/form-parts'
import { MODERATION_LIMITS } from '../../../src/shared/constants'
import { isModerated, MODERATION_TEXT, ModerationNotice } from '../moderation-format'

type Props = {
  /** The signed-in admin: suspending a listing of someone else's asks the reason (issue 29). */
  actorId: number
  listing: Listing | null
  /** UpdateListingBody (SPEC section 5 "Broker listing form" rules, every field optional). */
  rules: ObjectSchema
  onClose: () => void
  onSaved: (listing: Listing) => void
}

/** SPEC "Admin listings": the admin's edit dialog, with every status SUSPENDED included. */
export function AdminEditDialog({ listing, onClose, ...rest }: Props) {
  return (
    <Modal open={listing !== null} title={listing ? `Edit Listing ${listing.entry_id}` : 'Edit Listing'} size="lg" onClose={onClose}>
      {listing && <AdminEditForm key={listing.id} listing={listing} onClose={onClose} {...rest} />}
    </Modal>
  )
}

// The fields a listing always has: emptying one is an error, not a "clear".
const REQUIRED = ['post_type', 'sale_or_rent', 'property_type', 'contact_value'] as const

function AdminEditForm({ actorId, listing, rules, onClose, onSaved }: Omit<Props, 'listing'> & { listing: Listing }) {
  const [values, setValues] = useState<ListingFormValues>(() => formOf(listing))
  const [errors, setErrors] = useState<FieldErrors>({})
  // The reason of an admin's suspension (issue 29): asked when this admin suspends another's ACTIVE listing, and open to
  // change (which answers a review request) while one holds; not for an owner's own suspension.
  const initialReason = listing.moderation?.reason ?? ''
  const [reason, setReason] = useState(initialReason)
  const suspending = listing.status === 'ACTIVE' && values.status === 'SUSPENDED' && listing.owner_user_id !== actorId
  const withReason = values.status === 'SUSPENDED' && (suspending || isModerated(listing))

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => sendJson<Listing>(`/api/listings/${listing.id}`, 'PATCH', body),
    onSuccess: onSaved,
    onError: (err) => {
      setErrors(describeFormError(err, '').fields)
      toast.error(failureMessage(err, TEXT.updateFailed))
    },
  })

  const change = <K extends keyof ListingFormValues>(name: K, value: ListingFormValues[K]) => {
    setValues((v) => ({ ...v, [name]: value }))
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== name)))
  }

  function submit(e: FormEvent) {
    e.preventDefault()
    const before = payloadOf(formOf(listing))
    const after = payloadOf(values)
    // PATCH is partial: only what the admin changed (a cleared optional field is sent as null).
    const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => v !== before[k]))
    const found = checkPayload({ ...rules, required: [...REQUIRED] }, after)
    const errorsOfChanged: FieldErrors = Object.fromEntries(Object.entries(found).filter(([k]) => k in changed))
    if (withReason) {
      const text = reason.trim()
      if (!text) errorsOfChanged.suspension_reason = MODERATION_TEXT.reasonRequired
      else if ([...text].length > MODERATION_LIMITS.reasonMax) errorsOfChanged.suspension_reason = `The reason must be at most ${MODERATION_LIMITS.reasonMax} characters`
      else if (suspending || text !== initialReason.trim()) changed.suspension_reason = text
    }
    setErrors(errorsOfChanged)
    if (Object.keys(errorsOfChanged).length) return
    if (Object.keys(changed).length === 0) return onClose()
    save.mutate(changed)
  }

  const busy = save.isPending
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div role="note" className="alert alert-info text-sm">
        <span>
          {TEXT.auditNote} Listing of {listing.owner_name} in {listing.city_name}, {listing.state_name}.
        </span>
      </div>
      <ModerationNotice listing={listing} />
      <ListingFields
        idPrefix="admin-edit"
        values={values}
        errors={errors}
        onChange={change}
        statuses={statusesFor(ALL_STATUSES, listing.status)}
        statusDisabled={(s) => !statusAllowed(listing.status, s)}
        required={REQUIRED}
        currency={listingCurrency(listing)}
      />
      {withReason && (
        <Field id="admin-edit-suspension_reason" label={`${MODERATION_TEXT.reasonLabel} *`} error={errors.suspension_reason}>
          <textarea
            id="admin-edit-suspension_reason"
            name="suspension_reason"
            rows={3}
            maxLength={MODERATION_LIMITS.reasonMax}
            className={`textarea textarea-bordered w-full ${errors.suspension_reason ? 'textarea-error' : ''}`}
            value={reason}
            aria-required
            aria-invalid={!!errors.suspension_reason}
            aria-describedby={['admin-edit-suspension_reason-hint', errors.suspension_reason ? 'admin-edit-suspension_reason-error' : ''].filter(Boolean).join(' ')}
            onChange={(e) => (setReason(e.target.value), setErrors(({ suspension_reason: _, ...rest }) => rest))}
          />
          <span id="admin-edit-suspension_reason-hint" className="mt-1 block text-xs text-base-content/70">
            {MODERATION_TEXT.reasonHint}
          </span>
        </Field>
      )}
      <FormActions busy={busy} onCancel={onClose}>
        Save Changes
      </FormActions>
    </form>
  )
}
