// The WhatsApp parser's accuracy on a labelled set of real-looking broker messages (issue 18): per field, against
// the targets of the issue. The set (tests/fixtures/whatsapp-labelled.ts) was written and labelled apart from the
// parser, by the product's conventions; this test prints the table and fails below a target.
import { expect, test } from 'bun:test'
import { LocalityIndex, parsePaste } from '../../src/modules/intake/parse'
import type { ParsedDraft } from '../../src/modules/intake/model'
import { contactKey } from '../../src/shared/contact-key'
import { propertyKey } from '../../src/shared/property-key'
import { HELDOUT, HELDOUT_MESSAGE_COUNT } from '../fixtures/whatsapp-heldout'
import { THIRD, THIRD_LOCALITIES, THIRD_MESSAGE_COUNT } from '../fixtures/whatsapp-third'
import { KNOWN_LOCALITIES, LABELLED, MESSAGE_COUNT, type ExpectedDraft, type LabelledPaste } from '../fixtures/whatsapp-labelled'

const FIELDS = ['post_type', 'sale_or_rent', 'property_type', 'budget', 'size', 'locality', 'contact_value'] as const
type Field = (typeof FIELDS)[number]
const TARGET: Record<Field, number> = { post_type: 0.95, sale_or_rent: 0.95, property_type: 0.9, budget: 0.9, size: 0.85, locality: 0.85, contact_value: 0.95 }

const norm: Record<Field, (v: unknown) => unknown> = {
  post_type: (v) => v,
  sale_or_rent: (v) => v,
  property_type: (v) => (v == null ? null : propertyKey(String(v))),
  budget: (v) => v ?? null,
  size: (v) => v ?? null,
  locality: (v) => (v == null ? null : String(v).trim().toLowerCase().replace(/\s+/g, ' ')),
  contact_value: (v) => (v == null ? null : contactKey(String(v))),
}
const same = (f: Field, got: unknown, want: unknown) => norm[f](got) === norm[f](want)
const agreement = (d: ParsedDraft, e: ExpectedDraft) => FIELDS.filter((f) => same(f, d[f], e[f])).length

/**
 * Pairs a paste's drafts with its expected listings in order, as a sequence alignment maximising the fields that
 * agree (a draft pairs with a listing only when at least 3 of the 7 fields agree): a missed listing scores 0 on every
 * field, a draft paired with nothing is spurious.
 */
function align(drafts: ParsedDraft[], expected: ExpectedDraft[]) {
  const n = drafts.length
  const m = expected.length
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) {
      const a = agreement(drafts[i]!, expected[j]!)
      best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, a >= 3 ? a + best[i + 1]![j + 1]! : -1)
    }
  const pairs: [ParsedDraft, ExpectedDraft][] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    const a = agreement(drafts[i]!, expected[j]!)
    if (a >= 3 && best[i]![j] === a + best[i + 1]![j + 1]!) pairs.push([drafts[i++]!, expected[j++]!])
    else if (best[i]![j] === best[i + 1]![j]) i++
    else j++
  }
  return pairs
}

function measure(name: string, pastes: LabelledPaste[], messageCount: number, localities = KNOWN_LOCALITIES) {
  const index = new LocalityIndex(localities)
  const correct = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>
  let expectedCount = 0
  let found = 0
  let spurious = 0
  let spuriousFromNonListings = 0
  const misses: string[] = []
  for (const paste of pastes) {
    const drafts = parsePaste(paste.text, index)
    const pairs = align(drafts, paste.expected)
    expectedCount += paste.expected.length
    found += pairs.length
    spurious += drafts.length - pairs.length
    if (paste.expected.length === 0) spuriousFromNonListings += drafts.length
    for (const [d, e] of pairs)
      for (const f of FIELDS) {
        if (same(f, d[f], e[f])) correct[f]++
        else misses.push(`${f}: got ${JSON.stringify(d[f])}, want ${JSON.stringify(e[f])} in ${JSON.stringify(d.details.slice(0, 140))}`)
      }
    for (const e of paste.expected.filter((e) => !pairs.some(([, x]) => x === e))) misses.push(`missed ${JSON.stringify(e)} in ${JSON.stringify(paste.text.slice(0, 140))}`)
    if (drafts.length > pairs.length) misses.push(`${drafts.length - pairs.length} spurious in ${JSON.stringify(paste.text.slice(0, 140))}`)
  }
  const rows = FIELDS.map((f) => ({ field: f, correct: correct[f], of: expectedCount, accuracy: `${((100 * correct[f]) / expectedCount).toFixed(1)} %`, target: `${TARGET[f] * 100} %` }))
  console.log(`\n${name}: ${pastes.length} pastes, ${messageCount} messages: ${expectedCount} listings, ${found} found, ${spurious} spurious drafts (${spuriousFromNonListings} from pastes without a listing)`)
  console.table(rows)
  if (process.env.WHATSAPP_MISSES) console.log(misses.join('\n'))
  const below = FIELDS.filter((f) => correct[f] / expectedCount < TARGET[f]).map((f) => `${f} ${((100 * correct[f]) / expectedCount).toFixed(1)} % < ${TARGET[f] * 100} %`)
  return { below, spurious, nonListings: messageCount - expectedCount, correct, found }
}

/**
 * What each set scored when issue 30 began (fields right out of the listings, listings found): reading real broker
 * text may not cost the styles these sets hold, so none may score less.
 */
const KEPT = {
  labelled: { post_type: 173, sale_or_rent: 172, property_type: 173, budget: 173, size: 173, locality: 172, contact_value: 173, found: 173 },
  second: { post_type: 106, sale_or_rent: 106, property_type: 106, budget: 106, size: 106, locality: 106, contact_value: 106, found: 106 },
  third: { post_type: 145, sale_or_rent: 145, property_type: 145, budget: 145, size: 145, locality: 144, contact_value: 145, found: 145 },
}
const keeps = (r: ReturnType<typeof measure>, kept: (typeof KEPT)['labelled']) => {
  for (const f of FIELDS) expect({ field: f, correct: r.correct[f] }).toEqual({ field: f, correct: Math.max(r.correct[f], kept[f]) })
  expect(r.found).toBeGreaterThanOrEqual(kept.found)
}

test('per-field accuracy on the labelled set meets the targets', () => {
  expect(MESSAGE_COUNT).toBeGreaterThanOrEqual(150)
  const result = measure('The labelled set (the parser was tuned on it)', LABELLED, MESSAGE_COUNT)
  const { below, spurious, nonListings } = result
  expect(below).toEqual([])
  keeps(result, KEPT.labelled)
  // Messages that are not listings give no draft: at most one in twenty does.
  expect(spurious).toBeLessThanOrEqual(Math.ceil(nonListings / 20))
})

// Written by someone else after the parser was tuned on the first set, and measured once before any change for it:
// post type 89.6 %, deal 99.1, property type 97.2, budget 96.2, size 97.2, locality 88.7, contact 99.1, 3 spurious
// drafts. Its misses (Marathi and Gujarati words, `cpt`, `Mira Rd`, rates per square foot…) were then fixed, so it is
// a second measure now, no longer a held-out one.
test('per-field accuracy on the second set meets the targets', () => {
  const result = measure('The second set (held out at first, then tuned on)', HELDOUT, HELDOUT_MESSAGE_COUNT)
  const { below, spurious, nonListings } = result
  expect(below).toEqual([])
  keeps(result, KEPT.second)
  expect(spurious).toBeLessThanOrEqual(Math.ceil(nonListings / 20))
})

// Pune and Bengaluru brokers' words (Kannada and Marathi phrasing, sites given as 30x40, lump-sum leases), written by
// someone who had neither read nor run the parser, in the session that closed issue 18.
test('per-field accuracy on the third set meets the targets', () => {
  expect(THIRD_MESSAGE_COUNT).toBeGreaterThanOrEqual(150)
  const result = measure('The third set (Pune and Bengaluru)', THIRD, THIRD_MESSAGE_COUNT, THIRD_LOCALITIES)
  const { below, spurious, nonListings } = result
  expect(below).toEqual([])
  keeps(result, KEPT.third)
  expect(spurious).toBeLessThanOrEqual(Math.ceil(nonListings / 20))
})
