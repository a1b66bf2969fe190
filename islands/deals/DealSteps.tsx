import { useMutation } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import type { DealWithThread } from '../../src/modules/deals/model'
import { Field } from '../shared/form-parts'
import { sendJson } from '../shared/query'
import { describeListingError } from '../listings/listing-format'
import { DEAL_TEXT, REVEAL_FIELDS, STAGE_LABELS, type RevealField } from './deal-format'

type Props = { deal: DealWithThread; viewerId: number; onChanged: (deal: DealWithThread) => void }

const MOVES = ['INTERESTED', 'SITE_VISIT', 'NEGOTIATING'] as const

/** A step's request: its answer replaces the deal; a refusal is shown beside the step's buttons. */
function useStep(path: string, onChanged: Props['onChanged']) {
  const [error, setError] = useState<string | null>(null)
  const m = useMutation({
    mutationFn: (body: object) => sendJson<DealWithThread>(path, 'POST', body),
    onSuccess: (d) => (setError(null), onChanged(d)),
    onError: (err) => {
      const { fields, banner } = describeListingError(err, ['visit_at', 'reason', 'fields'], DEAL_TEXT.stepFailed)
      setError(Object.values(fields)[0] ?? banner)
    },
  })
  return { run: (body: object) => (setError(null), m.mutate(body)), busy: m.isPending, error, setError }
}

/**
 * What a broker does in a deal besides writing (issue 35): move its stage (a site visit with its date and time),
 * reveal private fields of their own listing at the step they choose, and confirm how it ended (lost with a reason).
 */
export function DealSteps({ deal: d, viewerId, onChanged }: Props) {
  const closed = d.stage === 'CLOSED_WON' || d.stage === 'CLOSED_LOST'
  const mine = d.owner_id === viewerId ? d.listing_id : d.requester_listing_id
  return (
    <aside className="min-w-0 space-y-4" aria-label="Deal steps">
      {!closed && d.stage !== 'DISPUTED' && <StageStep deal={d} onChanged={onChanged} />}
      {!closed && mine !== null && <RevealStep deal={d} onChanged={onChanged} />}
      {!closed && <CloseStep deal={d} viewerId={viewerId} onChanged={onChanged} />}
    </aside>
  )
}

function Card({ title, name, children }: { title: string; name: string; children: ReactNode }) {
  return (
    <section className="space-y-3 rounded-box border border-base-300 bg-base-100 p-3 sm:p-4" aria-labelledby={`${name}-title`} {...{ [`data-${name}`]: '' }}>
      <h2 id={`${name}-title`} className="font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

const Alert = ({ text }: { text: string | null }) =>
  text ? (
    <p role="alert" className="text-sm text-error">
      {text}
    </p>
  ) : null

/** A `datetime-local` value (the user's own time) as ISO 8601, or null. */
const isoOf = (local: string) => {
  const t = Date.parse(local)
  return Number.isNaN(t) ? null : new Date(t).toISOString()
}

function StageStep({ deal: d, onChanged }: { deal: DealWithThread; onChanged: Props['onChanged'] }) {
  const step = useStep(`/api/deals/${d.id}/stage`, onChanged)
  const [visit, setVisit] = useState('')
  const [picking, setPicking] = useState(false)
  const setVisitAt = (e: React.FormEvent) => {
    e.preventDefault()
    const at = isoOf(visit)
    if (!at) return step.setError('Say when the site visit is')
    step.run({ stage: 'SITE_VISIT', visit_at: at })
  }
  return (
    <Card title="Stage" name="deal-stage">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Move the deal">
        {MOVES.map((s) => (
          <button
            key={s}
            type="button"
            className={`btn btn-sm h-11 min-h-11 px-3 ${d.stage === s ? 'btn-primary' : 'btn-outline'}`}
            aria-pressed={d.stage === s}
            disabled={step.busy}
            onClick={() => (s === 'SITE_VISIT' ? setPicking(true) : step.run({ stage: s }))}
          >
            {STAGE_LABELS[s]}
          </button>
        ))}
      </div>
      {picking && (
        <form noValidate onSubmit={setVisitAt} className="space-y-2" data-visit-form>
          <Field id="deal-visit-at" label="Site visit: date and time">
            <input id="deal-visit-at" name="visit_at" type="datetime-local" className="input input-bordered h-11 w-full" value={visit} onChange={(e) => setVisit(e.target.value)} />
          </Field>
          <button type="submit" className="btn btn-primary btn-sm h-11 min-h-11 px-4" disabled={step.busy}>
            Set site visit
          </button>
        </form>
      )}
      <Alert text={step.error} />
    </Card>
  )
}

function RevealStep({ deal: d, onChanged }: { deal: DealWithThread; onChanged: Props['onChanged'] }) {
  const step = useStep(`/api/deals/${d.id}/reveal`, onChanged)
  const [fields, setFields] = useState<RevealField[]>([])
  const toggle = (f: RevealField) => setFields((now) => (now.includes(f) ? now.filter((x) => x !== f) : [...now, f]))
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    if (fields.length === 0) return step.setError('Choose what to reveal')
    step.run({ fields })
    setFields([])
  }
  return (
    <Card title="Reveal to the other broker" name="deal-reveal">
      <p className="text-xs text-base-content/70">Private fields of your listing, shown in this thread only, when you choose (e.g. the owner’s phone after the site visit).</p>
      <form noValidate onSubmit={submit} className="space-y-2">
        {REVEAL_FIELDS.map((f) => (
          <label key={f.value} className="flex min-h-11 cursor-pointer items-center gap-2">
            <input type="checkbox" className="checkbox checkbox-sm" name="fields" value={f.value} checked={fields.includes(f.value)} onChange={() => toggle(f.value)} />
            <span>{f.label}</span>
          </label>
        ))}
        <button type="submit" className="btn btn-outline btn-sm h-11 min-h-11 px-4" disabled={step.busy}>
          Reveal
        </button>
      </form>
      <Alert text={step.error} />
    </Card>
  )
}

function CloseStep({ deal: d, viewerId, onChanged }: { deal: DealWithThread; viewerId: number; onChanged: Props['onChanged'] }) {
  const step = useStep(`/api/deals/${d.id}/close`, onChanged)
  const [losing, setLosing] = useState(false)
  const [reason, setReason] = useState('')
  const own = d.owner_id === viewerId ? d.owner_outcome : d.requester_outcome
  const lost = (e: React.FormEvent) => {
    e.preventDefault()
    if (!reason.trim()) return step.setError('Say why the deal was lost')
    step.run({ outcome: 'LOST', reason: reason.trim() })
  }
  return (
    <Card title="Close the deal" name="deal-close">
      <p className="text-xs text-base-content/70">Closed when both of you confirm the same outcome; different outcomes mark it disputed for the city’s admins.</p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-success btn-sm h-11 min-h-11 px-4" disabled={step.busy || (own === 'WON' && d.stage !== 'DISPUTED')} onClick={() => step.run({ outcome: 'WON' })}>
          Confirm closed won
        </button>
        <button type="button" className="btn btn-outline btn-sm h-11 min-h-11 px-4" disabled={step.busy} aria-expanded={losing} onClick={() => setLosing((x) => !x)}>
          Closed lost…
        </button>
      </div>
      {losing && (
        <form noValidate onSubmit={lost} className="space-y-2" data-lost-form>
          <Field id="deal-lost-reason" label="Why was it lost?">
            <input id="deal-lost-reason" name="reason" maxLength={500} className="input input-bordered h-11 w-full" value={reason} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <button type="submit" className="btn btn-error btn-sm h-11 min-h-11 px-4" disabled={step.busy}>
            Confirm closed lost
          </button>
        </form>
      )}
      <Alert text={step.error} />
    </Card>
  )
}
