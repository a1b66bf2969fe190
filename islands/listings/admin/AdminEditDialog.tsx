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
import { FormActions } from '../../shared/form-parts'

type Props = {
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

function AdminEditForm({ listing, rules, onClose, onSaved }: Omit<Props, 'listing'> & { listing: Listing }) {
  const [values, setValues] = useState<ListingFormValues>(() => formOf(listing))
  const [errors, setErrors] = useState<FieldErrors>({})

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
    const errorsOfChanged = Object.fromEntries(Object.entries(found).filter(([k]) => k in changed))
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
      <FormActions busy={busy} onCancel={onClose}>
        Save Changes
      </FormActions>
    </form>
  )
}
