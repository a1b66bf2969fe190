import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { ParseAnswer } from '../../src/modules/intake/model'
import type { Listing } from '../../src/modules/listings/model'
import { userCurrency } from '../../src/shared/currency'
import { ApiError } from '../shared/api'
import { characterCount, checkField, type ObjectSchema } from '../shared/form-rules'
import { Icon } from '../shared/icons'
import { loginUrl, sendJson } from '../shared/query'
import { toast } from '../shared/toast'
import { describeListingError, listingErrorMessage } from '../listings/listing-format'
import { BROKER_FORM_FIELDS, brokerFormErrors, listingPayload, type BrokerFormValues } from '../listings/ListingFormDialog'
import { DraftCard } from './DraftCard'
import { SharedPhotoTray } from './DraftPhotos'
import { draftsOf, duplicateMessage, importedDraftsOf, isDuplicateRefusal, isOpen, type Draft } from './drafts'
import { ImportChatExport } from './ImportChatExport'
import { DRAFT_PHOTOS_MAX, INTAKE_TEXT as T, SHARED_PHOTOS_CACHE } from './intake-text'

export type PasteFromWhatsAppProps = {
  /** formRules(CreateListingBody): the rules and messages of the broker's new-listing form. */
  rules: ObjectSchema
  /** formRules(ParseBody): how long a paste may be, and what is said when it is not. */
  pasteRules: ObjectSchema
  /** The signed-in broker's phone: the contact of a draft whose message gives none. */
  phone: string | null
  /** The broker's country: budgets are in its currency. */
  country_name: string | null
  /** Text shared to Brokernet from another app (issue 33): read into drafts as the screen opens. */
  shared?: { text: string; truncated: boolean } | null
  /** Photos shared with it (issue 34): how many the service worker kept in this browser, how many were lost. */
  sharedPhotos?: { kept: number; dropped: number }
}

/** The photos the service worker kept from a share (src/modules/pwa/service-worker.js), taken once: the cache goes. */
async function takeSharedPhotos(): Promise<File[]> {
  if (!('caches' in window)) return []
  const cache = await caches.open(SHARED_PHOTOS_CACHE)
  const files: File[] = []
  for (const request of [...(await cache.keys())].sort((a, b) => a.url.localeCompare(b.url, 'en', { numeric: true }))) {
    const res = await cache.match(request)
    if (!res) continue
    const blob = await res.blob()
    files.push(new File([blob], decodeURIComponent(res.headers.get('x-name') ?? 'photo.jpg'), { type: blob.type }))
  }
  await caches.delete(SHARED_PHOTOS_CACHE)
  return files.slice(0, DRAFT_PHOTOS_MAX)
}

const PASTE_ID = 'whatsapp-paste'

/**
 * Issue 18, "Paste from WhatsApp": messages pasted in, read by POST /api/listings/parse into drafts the broker checks,
 * fixes and posts one by one through POST /api/listings/ (the form's rules first, then the server's, duplicates
 * included). The first view, the paste box, is complete in the server's HTML.
 */
export default function PasteFromWhatsApp({ rules, pasteRules, phone, country_name, shared = null, sharedPhotos }: PasteFromWhatsAppProps) {
  const pasteRule = pasteRules.properties.text!
  // An empty paste breaks the rule of at least one character: its message, not a generic 'required'.
  const textRule = { ...pasteRule, errorMessage: { required: pasteRule.errorMessage?.minLength, ...pasteRule.errorMessage } }
  const max = textRule.maxLength ?? Infinity
  const [text, setText] = useState(shared?.text.slice(0, max) ?? '')
  const [pasteError, setPasteError] = useState<string | null>(null)
  const [drafts, setDrafts] = useState<Draft[] | null>(null)
  const [busy, setBusy] = useState(false)
  // Photos shared with the text (issue 34) not yet on a draft.
  const [tray, setTray] = useState<File[]>([])
  // The drafts as last drawn, for the posting loop, which runs across renders.
  const current = useRef<Draft[]>([])
  current.current = drafts ?? []
  const nextKey = useRef(1)
  const heading = useRef<HTMLHeadingElement>(null)
  const currency = userCurrency(country_name)

  const parse = useMutation({
    mutationFn: (pasted: string) => sendJson<ParseAnswer>('/api/listings/parse', 'POST', { text: pasted }),
    onSuccess: ({ drafts: parsed }) => {
      setDrafts(draftsOf(parsed, phone, rules, nextKey.current))
      nextKey.current += parsed.length
      // The answer is read next: where it starts.
      requestAnimationFrame(() => heading.current?.focus())
    },
    onError: (err) => setPasteError(listingErrorMessage(err, T.readFailed)),
  })

  // Shared from WhatsApp: read at once, as if the broker had pasted it and pressed the button.
  useEffect(() => {
    if (!shared) return
    if (shared.truncated) toast.error(T.sharedTruncated)
    if (shared.text.trim()) parse.mutate(shared.text.slice(0, max))
    // Once, as the screen opens.
  }, [])

  // Photos shared with it (issue 34): taken from the browser's cache where the service worker kept them.
  useEffect(() => {
    if (sharedPhotos?.dropped) toast.error(T.sharedDropped(sharedPhotos.dropped))
    if (sharedPhotos?.kept) void takeSharedPhotos().then(setTray)
  }, [])

  // One draft: the shared photos are its own. Several: the broker puts each on its draft (the tray); Android's share
  // hands over the messages' text as one and the photos as a list, with nothing that says which photo is whose.
  const openDrafts = (drafts ?? []).filter(isOpen)
  useEffect(() => {
    if (tray.length === 0 || openDrafts.length !== 1) return
    const only = openDrafts[0]!
    update(only.key, (d) => ({ photos: [...(d.photos ?? []), ...tray].slice(0, DRAFT_PHOTOS_MAX) }))
    setTray([])
  }, [tray, drafts])

  /** A tray photo put on a draft. */
  function put(index: number, key: number) {
    const photo = tray[index]
    if (!photo) return
    update(key, (d) => ({ photos: [...(d.photos ?? []), photo].slice(0, DRAFT_PHOTOS_MAX) }))
    setTray((t) => t.filter((_, i) => i !== index))
  }

  function read(e: FormEvent) {
    e.preventDefault()
    const error = checkField(textRule, text.trim(), true)
    setPasteError(error)
    if (!error) parse.mutate(text)
  }

  const update = (key: number, change: Partial<Draft> | ((d: Draft) => Partial<Draft>)) =>
    setDrafts((list) => list?.map((d) => (d.key === key ? { ...d, ...(typeof change === 'function' ? change(d) : change) } : d)) ?? null)

  /** A card's edit: checked again at once with the form's rules; a duplicate refusal was about the old values. */
  const edit = (key: number, values: BrokerFormValues) =>
    update(key, (d) => ({ values, errors: brokerFormErrors(rules, values), state: d.state.kind === 'posting' ? d.state : { kind: 'editing' } }))

  /** Posts the drafts one by one; an invalid one shows its messages and is skipped; a toast counts what happened. */
  async function post(keys: number[], confirmDuplicate = false) {
    setBusy(true)
    let posted = 0
    let failed = 0
    try {
      for (const key of keys) {
        const d = current.current.find((x) => x.key === key)
        if (!d || !isOpen(d)) continue
        const errors = brokerFormErrors(rules, d.values)
        if (Object.keys(errors).length) {
          update(key, { errors, state: { kind: 'editing' } })
          failed++
          continue
        }
        update(key, { state: { kind: 'posting' } })
        try {
          const body = { ...listingPayload(d.values, null), ...(confirmDuplicate ? { confirm_duplicate: true } : {}) }
          const saved = await sendJson<Listing>('/api/listings', 'POST', body)
          update(key, { state: { kind: 'posted', entryId: saved.entry_id, listingId: saved.id }, selected: false })
          posted++
        } catch (err) {
          failed++
          if (err instanceof ApiError && err.status === 401) return window.location.assign(loginUrl(window.location.pathname))
          if (err instanceof ApiError && isDuplicateRefusal(err.status, err.message)) update(key, { state: { kind: 'duplicate', message: duplicateMessage(err.message) } })
          else {
            const { fields, banner } = describeListingError(err, BROKER_FORM_FIELDS, T.postFailed)
            update(key, { errors: fields, state: { kind: 'failed', banner } })
          }
        }
      }
    } finally {
      setBusy(false)
    }
    if (posted || failed) (failed ? (posted ? toast.info : toast.error) : toast.success)(T.summary(posted, failed))
  }

  const list = drafts ?? []
  const open = list.filter(isOpen)
  const selected = open.filter((d) => d.selected)
  const count = characterCount(text)
  const tooLong = count > max

  return (
    <div className="space-y-4 sm:space-y-6" data-paste>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-bold sm:text-2xl">{T.title}</h1>
          <p className="mt-1 max-w-3xl text-sm text-base-content/70 sm:text-base">{T.intro}</p>
        </div>
        <a href="/dashboard/my-listings" className="btn btn-outline btn-sm max-sm:h-11 max-sm:min-h-11">
          My Listings
        </a>
      </div>

      <form noValidate onSubmit={read} className="card bg-base-100 shadow-sm">
        <div className="card-body gap-2 p-3 sm:p-5">
          <label htmlFor={PASTE_ID} className="font-medium">
            {T.pasteLabel}
          </label>
          <p id={`${PASTE_ID}-hint`} className="text-sm text-base-content/70">
            {T.pasteHint}
          </p>
          <textarea
            id={PASTE_ID}
            name="text"
            rows={8}
            className={`textarea textarea-bordered min-h-48 w-full font-mono text-sm sm:text-base ${pasteError ? 'textarea-error' : ''}`}
            value={text}
            aria-describedby={[`${PASTE_ID}-hint`, `${PASTE_ID}-count`, pasteError ? `${PASTE_ID}-error` : ''].filter(Boolean).join(' ')}
            aria-invalid={!!pasteError || tooLong}
            onChange={(e) => (setText(e.target.value), setPasteError(null))}
          />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p id={`${PASTE_ID}-count`} className={`text-sm ${tooLong ? 'font-medium text-error' : 'text-base-content/70'}`} data-count={count}>
              {T.count(count, max)}
            </p>
            <button type="submit" className="btn btn-primary max-sm:h-11 max-sm:min-h-11 max-sm:w-full" disabled={parse.isPending || busy}>
              {parse.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {T.read}
            </button>
          </div>
          {pasteError && (
            <p id={`${PASTE_ID}-error`} role="alert" className="text-sm text-error">
              {pasteError}
            </p>
          )}
        </div>
      </form>

      <ImportChatExport
        busy={busy}
        onDrafts={(answer) => {
          setDrafts(importedDraftsOf(answer.drafts, phone, rules, nextKey.current))
          nextKey.current += answer.drafts.length
        }}
      />

      {tray.length > 0 && <SharedPhotoTray photos={tray} drafts={openDrafts.map((d) => ({ key: d.key, number: d.number }))} onPut={put} />}

      {drafts && (
        <section aria-labelledby="drafts-title" className="space-y-3 sm:space-y-4" data-drafts={drafts.length}>
          <div>
            <h2 id="drafts-title" ref={heading} tabIndex={-1} className="text-lg font-bold focus:outline-none sm:text-xl">
              {T.found(drafts.length)}
            </h2>
            {drafts.length > 0 && <p className="text-sm text-base-content/70">{T.foundHint}</p>}
          </div>
          {drafts.length === 0 ? (
            <div role="status" className="alert" data-no-drafts>
              <Icon name="chat" className="h-5 w-5 shrink-0" />
              <span>{T.none}</span>
            </div>
          ) : (
            <>
              {/* One card a row on a phone and a narrow laptop; two side by side from 64rem of room. */}
              <div className="@container">
                <ul className="grid gap-3 sm:gap-4 @min-[64rem]:grid-cols-2 @min-[64rem]:items-start">
                  {list.map((d) => (
                    <li key={d.key} className="min-w-0">
                      <DraftCard
                        draft={d}
                        rules={rules}
                        currency={currency}
                        busy={busy}
                        onChange={(values) => edit(d.key, values)}
                        onSelect={(on) => update(d.key, { selected: on })}
                        onRemove={() => setDrafts((all) => all?.filter((x) => x.key !== d.key) ?? null)}
                        onPostAnyway={() => void post([d.key], true)}
                        onPhotos={(photos) => update(d.key, { photos })}
                      />
                    </li>
                  ))}
                </ul>
              </div>
              {open.length > 0 && (
                <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-2 border-t border-base-300 bg-base-100 px-4 py-3 sm:mx-0 sm:rounded-box sm:border" data-post-bar>
                  <p className="basis-full text-sm sm:mr-auto sm:basis-auto" aria-live="polite">
                    {T.selectedCount(selected.length, open.length)}
                  </p>
                  <button
                    type="button"
                    className="btn btn-ghost max-sm:h-11 max-sm:min-h-11 max-sm:flex-1"
                    disabled={busy}
                    data-select-all
                    onClick={() => {
                      const all = selected.length < open.length
                      setDrafts((list) => list?.map((d) => (isOpen(d) ? { ...d, selected: all } : d)) ?? null)
                    }}
                  >
                    {selected.length < open.length ? T.selectAll : T.selectNone}
                  </button>
                  <button
                    type="button"
                    className="btn btn-primary max-sm:h-11 max-sm:min-h-11 max-sm:flex-1"
                    disabled={busy || selected.length === 0}
                    onClick={() => void post(selected.map((d) => d.key))}
                  >
                    {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                    {T.postSelected(selected.length)}
                  </button>
                  <button type="button" className="btn btn-outline max-sm:h-11 max-sm:min-h-11 max-sm:flex-1" disabled={busy} onClick={() => void post(open.map((d) => d.key))}>
                    {T.postAll(open.length)}
                  </button>
                </div>
              )}
            </>
          )}
        </section>
      )}
    </div>
  )
}
