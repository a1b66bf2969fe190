import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { CobrokeRequest } from '../../src/modules/deals/model'
import type { Listing } from '../../src/modules/listings/model'
import type { ListingMatches } from '../../src/modules/matches/model'
import { DialogForm, Field, TextAreaField } from '../shared/form-parts'
import { Modal } from '../shared/Modal'
import { fetchJson, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { describeListingError, postTypeLabel } from '../listings/listing-format'
import { DEAL_QUERY_KEYS, DEAL_TEXT } from './deal-format'
import { DEFAULT_SPLIT, SplitFields, splitBody, type SplitForm } from './split-fields'

export type CobrokeDialogProps = {
  /** Another broker's listing; null keeps the dialog closed. */
  listing: Listing | null
  /** The requester's own listing it matched (a match in the inbox): named at once. */
  mine?: Listing | null
  /** The requester; their own listings among the listing's matches are offered. */
  viewerId: number | null
  onClose: () => void
}

/**
 * "I have a client for this" (issue 35): a co-broke request to the listing's broker, naming the requester's own listing
 * that matches it when there is one, with a message and a proposed split (50/50 unless changed; or a flat fee). A
 * refusal (their own listing, one already open, a closed listing) stays in the dialog, as the listing form does.
 */
export function CobrokeDialog({ listing, mine = null, viewerId, onClose }: CobrokeDialogProps) {
  return (
    <Modal open={listing !== null} title={DEAL_TEXT.requestTitle} onClose={onClose}>
      {listing && <RequestForm key={listing.id} listing={listing} mine={mine} viewerId={viewerId} onClose={onClose} />}
    </Modal>
  )
}

function RequestForm({ listing: l, mine, viewerId, onClose }: { listing: Listing; mine: Listing | null; viewerId: number | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  // The requester's own listings that match this one (a requirement for an availability, or the reverse).
  const matches = useQuery({
    queryKey: ['matches', 'listing', l.id, 'mine'],
    queryFn: () => fetchJson<ListingMatches>(`/api/listings/${l.id}/matches?per_page=50`),
    enabled: mine === null && viewerId !== null,
  })
  const own = mine ? [mine] : (matches.data?.matches.map((m) => m.listing).filter((x) => x.owner_user_id === viewerId && x.post_type !== l.post_type) ?? [])
  const [picked, setPicked] = useState<string | null>(null)
  const chosen = picked ?? (own[0] ? String(own[0].id) : '')
  const [message, setMessage] = useState('')
  const [split, setSplit] = useState<SplitForm>(DEFAULT_SPLIT)
  const [errors, setErrors] = useState<{ split?: string; message?: string; banner?: string | null }>({})

  const send = useMutation({
    mutationFn: (body: object) => sendJson<CobrokeRequest>(`/api/listings/${l.id}/cobroke-requests`, 'POST', body),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['requester_percent', 'flat_fee', 'message', 'requester_listing_id'], DEAL_TEXT.requestFailed)
      setErrors({ split: fields.requester_percent ?? fields.flat_fee, message: fields.message, banner: banner ?? fields.requester_listing_id ?? null })
    },
    onSuccess: () => {
      toast.success(DEAL_TEXT.requestSent)
      void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })
      onClose()
    },
  })

  function submit(e: React.FormEvent) {
    e.preventDefault()
    const s = splitBody(split)
    if ('error' in s) return setErrors({ split: s.error })
    setErrors({})
    send.mutate({ ...s, ...(message.trim() ? { message: message.trim() } : {}), ...(chosen ? { requester_listing_id: Number(chosen) } : {}) })
  }

  const wanted = l.post_type === 'AVL' ? 'requirement' : 'availability'
  return (
    <DialogForm
      onSubmit={submit}
      busy={send.isPending}
      onCancel={onClose}
      submit="Send request"
      error={errors.banner}
      data-cobroke-form={l.entry_id}
      intro={
        <p className="text-sm">
          {`Ask ${l.owner_name ?? 'the listing’s broker'} to work `}
          <span className="font-mono font-semibold">{l.entry_id}</span>
          {` (${postTypeLabel(l.post_type)}, ${l.property_type}) together with you. Their owner’s contact stays private until they reveal it in the deal.`}
        </p>
      }
    >
      <Field id="cobroke-mine" label={`Your ${wanted} for it`}>
        <select id="cobroke-mine" name="requester_listing_id" className="select select-bordered h-11 w-full" value={chosen} onChange={(e) => setPicked(e.target.value)}>
          {own.map((m) => (
            <option key={m.id} value={m.id}>
              {`${m.entry_id} · ${m.property_type}${m.locality ? ` · ${m.locality}` : ''}`}
            </option>
          ))}
          <option value="">{own.length ? `None of these: a client of mine` : `No matching ${wanted} of mine: a client of mine`}</option>
        </select>
      </Field>
      <TextAreaField
        id="cobroke-message"
        name="message"
        label="Message"
        rows={3}
        maxLength={2000}
        placeholder="My client is looking for exactly this: can we visit this week?"
        value={message}
        error={errors.message}
        onChange={setMessage}
      />
      <SplitFields id="cobroke-split" value={split} error={errors.split} onChange={setSplit} requesterLabel="Your share (%)" ownerLabel={l.owner_name ? `${l.owner_name}’s share` : 'Their share'} />
    </DialogForm>
  )
}
