import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Listing } from '../../src/modules/listings/model'
import { DialogForm, TextAreaField } from '../shared/form-parts'
import { Modal } from '../shared/Modal'
import { sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { describeListingError, invalidateListingQueries } from '../listings/listing-format'
import { DEAL_TEXT, REPORT_REASONS, type ReportReason } from './deal-format'

export type ReportDialogProps = { listing: Listing | null; onClose: () => void }

/**
 * Report a listing (issue 35): sold or rented, no response, wrong details, fake, with a note. Three brokers' reports
 * take it off the network until its broker answers; a second report of one's own is refused (shown here).
 */
export function ReportDialog({ listing, onClose }: ReportDialogProps) {
  return (
    <Modal open={listing !== null} title={DEAL_TEXT.reportTitle} onClose={onClose}>
      {listing && <ReportForm key={listing.id} listing={listing} onClose={onClose} />}
    </Modal>
  )
}

function ReportForm({ listing: l, onClose }: { listing: Listing; onClose: () => void }) {
  const queryClient = useQueryClient()
  const [reason, setReason] = useState<ReportReason | ''>('')
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<{ reason?: string; note?: string; banner?: string | null }>({})
  const send = useMutation({
    mutationFn: (body: object) => sendJson<{ reported_by: number; off_network: boolean }>(`/api/listings/${l.id}/reports`, 'POST', body),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['reason', 'note'], DEAL_TEXT.reportFailed)
      setErrors({ reason: fields.reason, note: fields.note, banner })
    },
    onSuccess: (r) => {
      toast.success(r.off_network ? `${DEAL_TEXT.reported}. It is off the network until its broker answers.` : DEAL_TEXT.reported)
      if (r.off_network) void invalidateListingQueries(queryClient)
      onClose()
    },
  })
  function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!reason) return setErrors({ reason: 'Choose what is wrong' })
    setErrors({})
    send.mutate({ reason, ...(note.trim() ? { note: note.trim() } : {}) })
  }
  return (
    <DialogForm
      onSubmit={submit}
      busy={send.isPending}
      onCancel={onClose}
      submit="Send report"
      error={errors.banner}
      data-report-form={l.entry_id}
      intro={
        <p className="text-sm">
          {'What is wrong with '}
          <span className="font-mono font-semibold">{l.entry_id}</span>
          {'? Its broker is asked to answer; after reports from three brokers it leaves the network until they do.'}
        </p>
      }
    >
      <fieldset aria-describedby={errors.reason ? 'report-reason-error' : undefined}>
        <legend className="label-text mb-2 font-medium">Reason</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {REPORT_REASONS.map((r) => (
            <label key={r.value} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-box border border-base-300 px-3 py-2">
              <input type="radio" className="radio radio-sm" name="reason" value={r.value} checked={reason === r.value} onChange={() => setReason(r.value)} />
              <span>{r.label}</span>
            </label>
          ))}
        </div>
        {errors.reason && (
          <span id="report-reason-error" className="mt-1 block text-sm text-error">
            {errors.reason}
          </span>
        )}
      </fieldset>
      <TextAreaField id="report-note" name="note" label="Note (optional)" rows={2} maxLength={500} value={note} error={errors.note} onChange={setNote} />
    </DialogForm>
  )
}
