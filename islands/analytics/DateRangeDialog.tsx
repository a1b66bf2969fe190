import { useState } from 'react'
import { Modal } from '../shared/Modal'
import { rangeBounds, rangeError, type DateRange } from './range'

type Props = {
  open: boolean
  /** Today in the server's time zone (YYYY-MM-DD): the latest day the inputs allow. */
  today: string
  /** The range in use, shown when the picker opens. */
  value: DateRange | null
  /** A valid range, or null to go back to the preset period. */
  onApply: (range: DateRange | null) => void
  onClose: () => void
}

/** The 'Custom Range' picker (SPEC section 5 "Custom analytics date range"). */
export function DateRangeDialog({ open, today, value, onApply, onClose }: Props) {
  return (
    <Modal open={open} title="Custom Date Range" size="sm" onClose={onClose}>
      <RangeForm today={today} value={value} onApply={onApply} onClose={onClose} />
    </Modal>
  )
}

/** Mounted each time the dialog opens (the Modal renders its content only while open), so it starts from `value`. */
function RangeForm({ today, value, onApply, onClose }: Omit<Props, 'open'>) {
  const [start, setStart] = useState(value?.start ?? '')
  const [end, setEnd] = useState(value?.end ?? '')
  const [error, setError] = useState<string | null>(null)
  const bounds = rangeBounds(today)

  // Picking one date fills the other with the same date if it is empty.
  const pickStart = (v: string) => (setStart(v), setError(null), v && !end && setEnd(v))
  const pickEnd = (v: string) => (setEnd(v), setError(null), v && !start && setStart(v))

  function apply() {
    if (!start && !end) return onApply(null)
    const range = { start: start || end, end: end || start }
    const problem = rangeError(range)
    if (problem) return setError(problem)
    onApply(range)
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        apply()
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="block">
          <span className="label-text mb-1 block font-medium">Start Date</span>
          <input type="date" name="start_date" className="input input-bordered w-full" min={bounds.min} max={bounds.max} value={start} onChange={(e) => pickStart(e.target.value)} />
        </label>
        <label className="block">
          <span className="label-text mb-1 block font-medium">End Date</span>
          <input type="date" name="end_date" className="input input-bordered w-full" min={start || bounds.min} max={bounds.max} value={end} onChange={(e) => pickEnd(e.target.value)} />
        </label>
      </div>
      {error && (
        <div role="alert" className="alert alert-error mt-4 text-sm">
          {error}
        </div>
      )}
      <div className="modal-action flex-wrap">
        <button type="button" className="btn btn-ghost mr-auto" onClick={() => onApply(null)}>
          Clear
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
      </div>
    </form>
  )
}
