import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { CobrokeRequest } from '../../src/modules/deals/model'
import { DialogForm, TextAreaField } from '../shared/form-parts'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { describeListingError } from '../listings/listing-format'
import { DEAL_QUERY_KEYS, DEAL_TEXT, splitText } from './deal-format'
import { SplitFields, splitBody, type SplitForm } from './split-fields'

/** Which answer is being written, to which request. */
export type Answering = { mode: 'counter' | 'decline'; request: CobrokeRequest }

/**
 * A counter-offer (the listing's broker proposes another split) or a decline with its reason (either side, in turn).
 * The server's refusal (the request expired or changed meanwhile) stays in the dialog.
 */
export function AnswerDialog({ answering, onClose }: { answering: Answering | null; onClose: () => void }) {
  const title = answering?.mode === 'counter' ? 'Counter with another split' : answering?.request.status === 'COUNTERED' ? 'Decline the counter-offer' : 'Decline the request'
  return (
    <Modal open={answering !== null} title={title} onClose={onClose}>
      {answering && <AnswerForm key={`${answering.mode}-${answering.request.id}`} answering={answering} onClose={onClose} />}
    </Modal>
  )
}

function AnswerForm({ answering: { mode, request: r }, onClose }: { answering: Answering; onClose: () => void }) {
  const queryClient = useQueryClient()
  const [split, setSplit] = useState<SplitForm>({
    kind: r.split.kind,
    percent: r.split.requester_percent === null ? '50' : String(r.split.requester_percent),
    fee: r.split.flat_fee === null ? '' : String(r.split.flat_fee),
  })
  const [reason, setReason] = useState('')
  const [errors, setErrors] = useState<{ split?: string; reason?: string; banner?: string | null }>({})
  const send = useMutation({
    mutationFn: (body: object) => sendJson<CobrokeRequest>(`/api/cobroke-requests/${r.id}/${mode}`, 'POST', body),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['requester_percent', 'flat_fee', 'reason'], DEAL_TEXT.answerFailed)
      setErrors({ split: fields.requester_percent ?? fields.flat_fee, reason: fields.reason, banner })
    },
    onSuccess: () => {
      toast.success(mode === 'counter' ? 'Counter-offer sent' : 'Declined')
      void queryClient.invalidateQueries({ queryKey: DEAL_QUERY_KEYS.all })
      onClose()
    },
  })
  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (mode === 'decline') {
      if (!reason.trim()) return setErrors({ reason: 'Say why you decline' })
      setErrors({})
      return send.mutate({ reason: reason.trim() })
    }
    const s = splitBody(split)
    if ('error' in s) return setErrors({ split: s.error })
    setErrors({})
    send.mutate(s)
  }
  return (
    <DialogForm
      onSubmit={submit}
      busy={send.isPending}
      onCancel={onClose}
      submit={mode === 'counter' ? 'Send counter-offer' : 'Decline'}
      error={errors.banner}
      data-answer-form={mode}
      intro={<p className="text-sm">{`${r.listing_entry_id ?? 'The listing'}: ${r.requester_name} proposed ${splitText(r.split)}.`}</p>}
    >
      {mode === 'counter' ? (
        <SplitFields id="counter-split" value={split} error={errors.split} onChange={setSplit} requesterLabel={`${r.requester_name}’s share (%)`} ownerLabel="Your share" />
      ) : (
        <TextAreaField id="decline-reason" name="reason" label="Reason" rows={3} maxLength={500} value={reason} error={errors.reason} onChange={setReason} />
      )}
    </DialogForm>
  )
}
