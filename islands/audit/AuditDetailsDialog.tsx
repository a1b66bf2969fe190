import { useState, type ReactNode } from 'react'
import type { AuditEvent } from '../../src/modules/audit/model'
import { Modal } from '../shared/Modal'
import type { AuditNames } from '../../src/modules/audit/model'
import { useDisplayTimeZone } from './useDisplayTimeZone'
import { actorLabel, changeSummary, diffFields, entityName, eventShape, fieldLabel, NO_NAMES, shownValue, type FieldDiff } from './audit-format'
import { ActionBadge, EventTime } from './AuditTable'

type Props = { event: AuditEvent | null; onClose: () => void }

/** One event: who, what, when, why, and its before and after side by side. There is nothing to edit here. */
export function AuditDetailsDialog({ event, onClose }: Props) {
  return (
    <Modal open={event !== null} title="Audit Event Details" size="lg" onClose={onClose}>
      {event && <Details event={event} />}
      <div className="modal-action">
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}

function Details({ event: e }: { event: AuditEvent }) {
  const shape = eventShape(e)
  return (
    <div className="space-y-5" data-audit-details={e.id}>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        <Item label="Time">
          <EventTime iso={e.created_at} />
        </Item>
        <Item label="Actor">{actorLabel(e)}</Item>
        <Item label="Action">
          <ActionBadge action={e.action} />
        </Item>
        <Item label="Entity">{entityName(e)}</Item>
        <Item label="Reason" wide>
          {e.reason ?? <span className="text-base-content/70">No reason given</span>}
        </Item>
        <Item label="Summary" wide>
          {changeSummary(e)}
        </Item>
      </dl>
      {shape === 'none' ? (
        <p className="text-sm text-base-content/60">No values were recorded for this event.</p>
      ) : (
        <Changes event={e} shape={shape} />
      )}
    </div>
  )
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-xs font-semibold uppercase tracking-wide text-base-content/60">{label}</dt>
      <dd className="mt-0.5 break-words">{children}</dd>
    </div>
  )
}

/** The field-by-field comparison: Before and After for a change, After only for a creation, Before only for a removal. */
function Changes({ event, shape }: { event: AuditEvent; shape: 'change' | 'created' | 'removed' }) {
  const [onlyChanged, setOnlyChanged] = useState(false)
  const all = diffFields(event.before, event.after)
  const changedCount = all.filter((f) => f.changed).length
  const fields = shape === 'change' && onlyChanged ? all.filter((f) => f.changed) : all
  const showBefore = shape !== 'created'
  const showAfter = shape !== 'removed'
  return (
    <section aria-labelledby="audit-changes-title" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="audit-changes-title" className="font-semibold">
          {shape === 'change' ? 'Changes' : shape === 'created' ? 'Values when created' : 'Values before removal'}
        </h4>
        {shape === 'change' && (
          <div className="flex items-center gap-3 text-sm">
            <span className="text-base-content/70">
              {changedCount} {changedCount === 1 ? 'field' : 'fields'} changed
            </span>
            <label className="label cursor-pointer gap-2">
              <input type="checkbox" className="checkbox checkbox-xs" checked={onlyChanged} onChange={(ev) => setOnlyChanged(ev.target.checked)} />
              Only changed fields
            </label>
          </div>
        )}
      </div>
      <div className="overflow-x-auto rounded-box border border-base-300">
        <table className="table table-sm" aria-label="Before and after">
          <thead>
            <tr>
              <th className="w-40">Field</th>
              {showBefore && <th>Before</th>}
              {showAfter && <th>After</th>}
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <FieldRow
                key={f.field}
                diff={f}
                names={event.names ?? NO_NAMES}
                highlight={shape === 'change' && f.changed}
                showBefore={showBefore}
                showAfter={showAfter}
              />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

type RowProps = { diff: FieldDiff; names: AuditNames; highlight: boolean; showBefore: boolean; showAfter: boolean }

/** One field: its label (the recorded name on hover), then each side as a reader says it. */
function FieldRow({ diff, names, highlight, showBefore, showAfter }: RowProps) {
  return (
    <tr data-field={diff.field} data-changed={highlight || undefined} className={highlight ? 'bg-warning/15' : undefined}>
      <th scope="row" className="align-top text-sm font-medium" title={diff.field}>
        {fieldLabel(diff.field)}
        {highlight && <span className="sr-only"> (changed)</span>}
      </th>
      {showBefore && <Value field={diff.field} value={diff.before} names={names} tone={highlight ? 'text-error' : undefined} />}
      {showAfter && <Value field={diff.field} value={diff.after} names={names} tone={highlight ? 'text-success' : undefined} />}
    </tr>
  )
}

function Value({ field, value, names, tone }: { field: string; value: unknown; names: AuditNames; tone?: string }) {
  if (value === undefined)
    return (
      <td className="align-top">
        <span className="text-xs italic text-base-content/70">absent</span>
      </td>
    )
  const timeZone = useDisplayTimeZone()
  const shown = shownValue(field, value, names, timeZone)
  return (
    <td className="align-top">
      <pre
        className={`whitespace-pre-wrap font-mono text-xs [overflow-wrap:anywhere] ${shown.muted ? 'text-base-content/70' : (tone ?? '')}`}
        title={shown.title}
        data-value
      >
        {shown.text}
      </pre>
    </td>
  )
}
