import { useRef, useState, type FormEvent } from 'react'
import type { ImportAnswer } from '../../src/modules/intake/model'
import { errorMessage } from '../shared/api'
import { formatListingDate } from '../listings/listing-format'
import { loginUrl } from '../shared/query'
import { INTAKE_TEXT } from './intake-text'

const T = INTAKE_TEXT.import
const MAX_BYTES = 10 * 1024 * 1024
const FILE_ID = 'chat-export-file'

type Props = {
  /** The drafts of an answer, for the screen's list (they replace those of an earlier read). */
  onDrafts: (answer: ImportAnswer) => void
  /** Something is being posted: no new read meanwhile. */
  busy: boolean
}

type Phase = { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'reading' }

/**
 * Issue 30, "Import a chat export": WhatsApp's Export chat file sent to POST /api/listings/import, with a progress
 * bar while it is sent and read; the answer's drafts go to the screen's list, the other senders are shown with an
 * invitation to join. Sent with XMLHttpRequest for its upload progress, which fetch does not give.
 */
export function ImportChatExport({ onDrafts, busy }: Props) {
  const [file, setFile] = useState<File | null>(null)
  const [days, setDays] = useState<number>(T.periods[0].days)
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const [error, setError] = useState<string | null>(null)
  const [answer, setAnswer] = useState<ImportAnswer | null>(null)
  const [me, setMe] = useState('')
  const summary = useRef<HTMLParagraphElement>(null)

  function send(sender: string | null) {
    if (!file) return setError(T.noFile)
    if (file.size > MAX_BYTES) return setError(T.tooLarge)
    setError(null)
    const form = new FormData()
    form.set('file', file, file.name)
    form.set('days', String(days))
    if (sender) form.set('sender', sender)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/listings/import')
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.onprogress = (e) => e.lengthComputable && setPhase({ kind: 'sending', percent: Math.min(100, Math.round((100 * e.loaded) / e.total)) })
    xhr.upload.onload = () => setPhase({ kind: 'reading' })
    xhr.onerror = () => (setPhase({ kind: 'idle' }), setError(T.failed))
    xhr.onload = () => {
      setPhase({ kind: 'idle' })
      let body: unknown = null
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        body = null
      }
      if (xhr.status === 401) return window.location.assign(loginUrl(window.location.pathname))
      if (xhr.status !== 200) return setError(xhr.status >= 500 || !body ? T.failed : errorMessage(xhr.status, xhr.statusText, body))
      const read = body as ImportAnswer
      setAnswer(read)
      setMe(read.sender ?? '')
      onDrafts(read)
      requestAnimationFrame(() => summary.current?.focus())
    }
    setPhase({ kind: 'sending', percent: 0 })
    xhr.send(form)
  }

  const submit = (e: FormEvent) => (e.preventDefault(), send(null))
  const working = phase.kind !== 'idle'
  const others = answer?.senders.filter((s) => !s.chosen) ?? []

  return (
    <section aria-labelledby="import-title" className="card bg-base-100 shadow-sm" data-import>
      <div className="card-body gap-3 p-3 sm:p-5">
        <h2 id="import-title" className="text-lg font-bold">
          {T.title}
        </h2>
        <p className="text-sm text-base-content/70">{T.intro}</p>
        <form noValidate onSubmit={submit} className="flex flex-wrap items-end gap-3">
          <div className="form-control min-w-0 grow basis-64">
            <label htmlFor={FILE_ID} className="label-text mb-1 font-medium">
              {T.fileLabel}
            </label>
            <input
              id={FILE_ID}
              type="file"
              accept=".txt,.zip,text/plain,application/zip"
              className={`file-input file-input-bordered w-full max-sm:h-11 ${error ? 'file-input-error' : ''}`}
              aria-describedby={error ? `${FILE_ID}-error` : undefined}
              aria-invalid={!!error}
              onChange={(e) => (setFile(e.target.files?.[0] ?? null), setError(null))}
            />
          </div>
          <div className="form-control basis-48">
            <label htmlFor="chat-export-days" className="label-text mb-1 font-medium">
              {T.period}
            </label>
            <select id="chat-export-days" className="select select-bordered max-sm:h-11" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {T.periods.map((p) => (
                <option key={p.days} value={p.days}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-primary max-sm:h-11 max-sm:min-h-11 max-sm:w-full" disabled={working || busy}>
            {working && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {T.read}
          </button>
        </form>
        {working && (
          <div className="space-y-1" data-import-progress>
            {phase.kind === 'sending' ? (
              <progress className="progress progress-primary w-full" value={phase.percent} max={100} aria-label={T.progressLabel} />
            ) : (
              <progress className="progress progress-primary w-full" aria-label={T.progressLabel} />
            )}
            <p className="text-sm" role="status">
              {phase.kind === 'sending' ? T.uploading(phase.percent) : T.reading}
            </p>
          </div>
        )}
        {error && (
          <p id={`${FILE_ID}-error`} role="alert" className="text-sm text-error">
            {error}
          </p>
        )}

        {answer && !working && (
          <div className="space-y-3" data-import-answer>
            <p ref={summary} tabIndex={-1} className="text-sm focus:outline-none" data-import-summary>
              {T.summary(answer.messages, answer.first_day && formatListingDate(answer.first_day), answer.last_day && formatListingDate(answer.last_day))}{' '}
              {answer.sender && T.yours(answer.own_messages, answer.drafts.length)}
            </p>
            {answer.truncated && <p className="text-sm text-warning-content">{T.truncated}</p>}
            <form noValidate onSubmit={(e) => (e.preventDefault(), send(me || null))} className="flex flex-wrap items-end gap-3">
              <div className="form-control min-w-0 grow basis-64">
                <label htmlFor="chat-export-me" className="label-text mb-1 font-medium">
                  {answer.sender ? T.you : T.whoAreYou}
                </label>
                <select id="chat-export-me" className="select select-bordered w-full max-sm:h-11" value={me} onChange={(e) => setMe(e.target.value)} aria-describedby={answer.sender ? undefined : 'chat-export-me-hint'}>
                  <option value="">—</option>
                  {answer.senders.map((s) => (
                    <option key={s.sender} value={s.sender}>
                      {s.sender} ({T.sender(s.messages, s.listings)})
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn btn-outline max-sm:h-11 max-sm:min-h-11 max-sm:w-full" disabled={!me || me === answer.sender || busy}>
                {T.readAs}
              </button>
            </form>
            {!answer.sender && (
              <p id="chat-export-me-hint" className="text-sm text-base-content/70">
                {T.whoHint}
              </p>
            )}
            {others.length > 0 && (
              <div data-import-others>
                <h3 className="font-semibold">{T.others}</h3>
                <p className="text-sm text-base-content/70">{T.othersHint}</p>
                <ul className="mt-2 divide-y divide-base-300">
                  {others.map((s) => (
                    <li key={s.sender} className="flex flex-wrap items-center justify-between gap-2 py-2" data-sender={s.sender}>
                      <span className="min-w-0 [overflow-wrap:anywhere]">
                        <span className="font-medium">{s.sender}</span> <span className="text-sm text-base-content/70">{T.sender(s.messages, s.listings)}</span>
                      </span>
                      {s.invite_url && (
                        <a className="btn btn-outline btn-sm max-sm:h-11 max-sm:min-h-11" href={s.invite_url} target="_blank" rel="noopener noreferrer">
                          {T.invite}
                          <span className="sr-only"> {s.sender}</span>
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  )
}
