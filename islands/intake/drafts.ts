// The paste screen's drafts: a parsed message as the broker form's values, its state while being posted, and its
// message with the words nothing read marked. Plain functions, tested in tests/unit/intake-drafts.test.ts.
import type { ImportedDraft, ParsedDraft } from '../../src/modules/intake/model'
import type { FieldErrors, ObjectSchema } from '../shared/form-rules'
import { brokerFormErrors, formValues, type BrokerFormValues } from '../listings/ListingFormDialog'
import type { ListingFieldName } from '../listings/listing-form'
import { INTAKE_TEXT } from './intake-text'

/** What a message gives, in the order the broker form shows it: a draft card shows these fields only. */
export const DRAFT_FIELDS = ['post_type', 'sale_or_rent', 'property_type', 'contact_value', 'budget', 'size', 'location', 'locality', 'details'] as const satisfies readonly ListingFieldName[]

export type DraftState =
  | { kind: 'editing' }
  | { kind: 'posting' }
  /** The server found it repeats one of the broker's own ACTIVE listings (409): Post anyway confirms it. */
  | { kind: 'duplicate'; message: string }
  | { kind: 'failed'; banner: string | null }
  /** Posted: its entry ID, and its id, which the draft's photos (issue 34) are then sent to. */
  | { kind: 'posted'; entryId: string; listingId?: number }

export type Draft = {
  key: number
  /** Its place in the paste, from 1 ("Draft 2"), kept when others are removed. */
  number: number
  parsed: ParsedDraft
  values: BrokerFormValues
  errors: FieldErrors
  selected: boolean
  /** No contact in the message: the broker's own phone was filled in. */
  ownContact: boolean
  state: DraftState
  /** Photos chosen for it (issue 34), or shared with its text: kept in the page, sent once it is posted. */
  photos?: File[]
  /** From a chat export (issue 30): the day it was posted, how often, and the listing of the network it looks like. */
  imported?: { postedAt: string; times: number; duplicate: { entry_id: string; own: boolean } | null }
}

const text = (n: number | string | null) => (n === null ? '' : String(n))

/** A parsed message as the broker form's values (a new listing's defaults for the rest); no contact: the broker's phone. */
export function draftValues(parsed: ParsedDraft, phone: string | null): BrokerFormValues {
  return {
    ...formValues(null),
    post_type: parsed.post_type,
    sale_or_rent: parsed.sale_or_rent,
    property_type: text(parsed.property_type),
    contact_value: parsed.contact_value ?? phone ?? '',
    budget: text(parsed.budget),
    size: text(parsed.size),
    location: parsed.location ?? '',
    locality: text(parsed.locality),
    details: parsed.details,
  }
}

/** The drafts of a parse answer, each checked at once with the broker form's rules, none selected. */
export function draftsOf(parsed: readonly ParsedDraft[], phone: string | null, rules: ObjectSchema, firstKey = 1): Draft[] {
  return parsed.map((p, i) => {
    const values = draftValues(p, phone)
    return { key: firstKey + i, number: i + 1, parsed: p, values, errors: brokerFormErrors(rules, values), selected: false, ownContact: !p.contact_value && !!phone, state: { kind: 'editing' } }
  })
}

/** The drafts of a chat export (issue 30): as a paste's, with the day each was posted, how often, and its look-alike. */
export function importedDraftsOf(imported: readonly ImportedDraft[], phone: string | null, rules: ObjectSchema, firstKey = 1): Draft[] {
  const drafts = draftsOf(imported, phone, rules, firstKey)
  return drafts.map((d, i) => ({ ...d, imported: { postedAt: imported[i]!.posted_at, times: imported[i]!.times, duplicate: imported[i]!.duplicate } }))
}

/** Still to post: not posted, not on its way. */
export const isOpen = (d: Draft) => d.state.kind !== 'posted' && d.state.kind !== 'posting'

export type Marked = { text: string; marked: boolean }

/** `text` cut into runs, the whole-word occurrences of `words` (any case) marked: the message with what nothing read. */
export function markUnparsed(text: string, words: readonly string[]): Marked[] {
  const usable = [...new Set(words.filter((w) => w.trim()))].sort((a, b) => b.length - a.length)
  if (!usable.length) return text ? [{ text, marked: false }] : []
  const alternatives = usable.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'giu')
  const out: Marked[] = []
  let at = 0
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), marked: false })
    out.push({ text: m[0], marked: true })
    at = m.index + m[0].length
  }
  if (at < text.length) out.push({ text: text.slice(at), marked: false })
  return out
}

/**
 * The server's 409 (`duplicate listing: this looks like AVL-MUM-000123, posted by you 3 days ago. Send confirm_duplicate…`)
 * as the card says it; another wording is shown as it came.
 */
export function duplicateMessage(detail: string): string {
  const m = /looks like (\S+), posted by you ([^.]+)\./i.exec(detail)
  return m ? INTAKE_TEXT.duplicate(m[1]!, m[2]!) : detail
}

export const isDuplicateRefusal = (status: number, detail: string) => status === 409 && /^duplicate listing/i.test(detail)
