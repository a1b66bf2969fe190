import type { FieldErrors, ObjectSchema } from '../shared/form-rules'
import { Icon } from '../shared/icons'
import type { Currency } from '../../src/shared/currency'
import { listingLink } from '../../src/modules/intake/share'
import { BROKER_FORM_FIELDS, FORM_STATUSES, type BrokerFormValues } from '../listings/ListingFormDialog'
import { ListingFields } from '../listings/listing-form'
import { DRAFT_FIELDS, markUnparsed, type Draft } from './drafts'
import { INTAKE_TEXT as T } from './intake-text'
import { formatListingDate } from '../listings/listing-format'
import { PhotoManager } from '../listings/photos/PhotoManager'
import { DraftPhotos } from './DraftPhotos'

type Props = {
  draft: Draft
  rules: ObjectSchema
  currency: Currency
  /** Posting is under way somewhere on the screen: nothing is selected, removed or confirmed meanwhile. */
  busy: boolean
  onChange: (values: BrokerFormValues) => void
  onSelect: (selected: boolean) => void
  onRemove: () => void
  onPostAnyway: () => void
  onPhotos: (photos: File[]) => void
}

const CONFIDENCE = (c: number) => (c >= 0.8 ? 'badge-success' : c >= 0.5 ? 'badge-warning' : 'badge-error')

/**
 * One listing read from the pasted messages: its message with the words nothing read marked, and the broker form's own
 * fields (listing-form.tsx) holding what was read, checked with the form's rules. Posted, it is one line with its entry ID.
 */
export function DraftCard({ draft: d, rules, currency, busy, onChange, onSelect, onRemove, onPostAnyway, onPhotos }: Props) {
  const id = `draft-${d.key}`
  const title = T.draft(d.number)
  if (d.state.kind === 'posted') {
    const { entryId, listingId } = d.state
    const posted = (
      <div role="status" className="alert alert-success" data-draft={d.key} data-posted={entryId}>
        <Icon name="check" className="h-5 w-5 shrink-0" />
        <span className="min-w-0 [overflow-wrap:anywhere]">
          {title}: {T.posted} <strong className="font-mono">{entryId}</strong>
        </span>
        <a className="btn btn-ghost btn-sm max-sm:min-h-11" href={listingLink('', { entry_id: entryId })}>
          {T.view}
          <span className="sr-only"> {entryId}</span>
        </a>
      </div>
    )
    // Its photos (issue 34), sent now that the listing exists: each with its progress, retried on its own.
    if (!listingId || !d.photos?.length) return posted
    return (
      <div className="space-y-2 rounded-box border border-base-300 bg-base-100 p-3" data-draft-sending={d.key}>
        {posted}
        <PhotoManager listingId={listingId} pending={d.photos} />
      </div>
    )
  }

  const posting = d.state.kind === 'posting'
  const invalid = Object.keys(d.errors).length > 0
  const unparsed = d.parsed.unparsed
  return (
    <article
      className={`card border bg-base-100 shadow-sm ${invalid ? 'border-error' : 'border-base-300'}`}
      aria-labelledby={`${id}-title`}
      data-draft={d.key}
      data-state={d.state.kind}
      data-invalid={invalid || undefined}
    >
      <div className="card-body gap-3 p-3 sm:p-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <label className="flex min-h-11 min-w-11 cursor-pointer items-center gap-2 font-medium">
            <input type="checkbox" className="checkbox checkbox-primary" checked={d.selected} disabled={busy} onChange={(e) => onSelect(e.target.checked)} />
            {T.select}
            <span className="sr-only"> {title}</span>
          </label>
          <h3 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h3>
          <span className={`badge ${CONFIDENCE(d.parsed.confidence)}`} title={T.confidenceTitle} data-confidence={d.parsed.confidence}>
            {T.confidence(d.parsed.confidence)}
          </span>
          {invalid && <span className="badge badge-error">{T.needsFix}</span>}
          <button type="button" className="btn btn-ghost btn-sm ml-auto text-error max-sm:h-11 max-sm:min-h-11" disabled={busy} onClick={onRemove}>
            {T.remove}
            <span className="sr-only"> {title}</span>
          </button>
        </div>

        {d.imported && (
          <p className="flex flex-wrap items-center gap-2 text-sm" data-imported>
            <span>{T.import.posted(formatListingDate(d.imported.postedAt))}</span>
            {d.imported.times > 1 && (
              <span className="badge badge-outline" data-times={d.imported.times}>
                {T.import.times(d.imported.times)}
              </span>
            )}
          </p>
        )}
        {d.imported?.duplicate && d.state.kind !== 'duplicate' && (
          <p className="alert alert-warning text-sm" data-alike={d.imported.duplicate.entry_id}>
            {T.import.alike(d.imported.duplicate.entry_id, d.imported.duplicate.own)}
          </p>
        )}

        <section aria-label={`${T.message}, ${title}`} className="space-y-2">
          <p className="rounded-box bg-base-200 p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]" data-message>
            {markUnparsed(d.parsed.details, unparsed).map((run, i) => (run.marked ? <mark key={i}>{run.text}</mark> : run.text))}
          </p>
          <p className="text-sm" data-unparsed>
            {unparsed.length ? (
              <>
                <span className="font-medium">{T.unparsed}:</span>{' '}
                {unparsed.map((w, i) => (
                  <span key={w}>
                    {i > 0 && ', '}
                    <mark>{w}</mark>
                  </span>
                ))}
              </>
            ) : (
              <span className="text-base-content/80">{T.allRead}</span>
            )}
          </p>
          {!d.parsed.contact_value && (
            <p className="text-sm text-base-content/80" data-contact-hint>
              {d.ownContact ? T.ownContact : T.noContact}
            </p>
          )}
          {d.parsed.contact_name && <p className="text-sm text-base-content/80">{T.contactName(d.parsed.contact_name)}</p>}
        </section>

        {d.state.kind === 'failed' && d.state.banner && (
          <div role="alert" className="alert alert-error text-sm">
            {d.state.banner}
          </div>
        )}
        {d.state.kind === 'duplicate' && (
          <div role="alert" className="alert alert-warning flex flex-wrap text-sm" data-duplicate>
            <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{d.state.message}</span>
            <button type="button" className="btn btn-sm max-sm:h-11 max-sm:min-h-11" disabled={busy} onClick={onPostAnyway}>
              {T.postAnyway}
            </button>
          </div>
        )}

        {/* On a phone every field is at least 44 px tall. */}
        <fieldset disabled={posting} className="min-w-0 max-sm:[&_.input]:h-11 max-sm:[&_.select]:h-11">
          <legend className="sr-only">{title}</legend>
          <ListingFields
            idPrefix={id}
            only={DRAFT_FIELDS}
            values={d.values}
            errors={d.errors as FieldErrors}
            onChange={(name, value) => onChange({ ...d.values, [name]: value })}
            statuses={FORM_STATUSES}
            required={rules.required?.filter((n) => (BROKER_FORM_FIELDS as string[]).includes(n))}
            currency={currency}
            contactName={false}
          />
        </fieldset>
        <DraftPhotos id={id} photos={d.photos ?? []} disabled={posting || busy} onChange={onPhotos} />
        {posting && (
          <p className="flex items-center gap-2 text-sm" role="status">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            {T.posting}
          </p>
        )}
      </div>
    </article>
  )
}
