import { describe, expect, test } from 'bun:test'
import type { ParsedDraft } from '../../src/modules/intake/model'
import { CreateListingBody } from '../../src/modules/listings/model'
import { formRules } from '../../src/platform/pages/form-rules'
import { draftsOf, draftValues, duplicateMessage, isDuplicateRefusal, markUnparsed } from '../../islands/intake/drafts'
import { INTAKE_TEXT } from '../../islands/intake/intake-text'

// The paste screen's drafts (issue 18): what a parsed message becomes in the broker form, and its marked words.
const parsed = (over: Partial<ParsedDraft> = {}): ParsedDraft => ({
  post_type: 'REQ',
  sale_or_rent: 'RENT',
  property_type: '2 BHK',
  budget: 45000,
  size: null,
  locality: 'Powai',
  location: null,
  contact_value: '+91 98201 55555',
  contact_name: null,
  details: 'Req 2bhk rent Powai 45k',
  confidence: 0.85,
  unparsed: [],
  ...over,
})
const rules = formRules(CreateListingBody)

describe('drafts of a paste', () => {
  test('a parsed message fills the broker form: numbers as text, nothing as empty, the rest a new listing’s defaults', () => {
    expect(draftValues(parsed({ size: 650, location: 'West' }), null)).toMatchObject({
      post_type: 'REQ',
      sale_or_rent: 'RENT',
      property_type: '2 BHK',
      budget: '45000',
      size: '650',
      location: 'West',
      locality: 'Powai',
      contact_value: '+91 98201 55555',
      details: 'Req 2bhk rent Powai 45k',
      reference: '',
      status: 'ACTIVE',
    })
  })

  test('no contact in the message: the broker’s phone, said so; no phone either: empty, and the form’s message', () => {
    const [own, none] = [...draftsOf([parsed({ contact_value: null })], '+91 90000 11111', rules), ...draftsOf([parsed({ contact_value: null })], null, rules, 2)]
    expect(own).toMatchObject({ key: 1, ownContact: true, errors: {}, selected: false, state: { kind: 'editing' } })
    expect(own!.values.contact_value).toBe('+91 90000 11111')
    expect(none).toMatchObject({ key: 2, ownContact: false, errors: { contact_value: 'Contact value must be at least 5 characters' } })
  })

  test('checked with the form’s own rules at once: a missing property type has the form’s message', () => {
    const [d] = draftsOf([parsed({ property_type: null })], null, rules)
    expect(d!.errors).toEqual({ property_type: 'Property type is required' })
  })
})

describe('the words nothing read', () => {
  test('marked where they stand, whole words in any case, longest first', () => {
    expect(markUnparsed('Req 2bhk Powai near hiranandani gardens, Hiranandani side', ['Hiranandani', 'side', 'Hiranandani gardens'])).toEqual([
      { text: 'Req 2bhk Powai near ', marked: false },
      { text: 'hiranandani gardens', marked: true },
      { text: ', ', marked: false },
      { text: 'Hiranandani', marked: true },
      { text: ' ', marked: false },
      { text: 'side', marked: true },
    ])
  })

  test('never inside another word, and a word with symbols is taken as written', () => {
    expect(markUnparsed('besides side (c+)', ['side', 'c+'])).toEqual([
      { text: 'besides ', marked: false },
      { text: 'side', marked: true },
      { text: ' (', marked: false },
      { text: 'c+', marked: true },
      { text: ')', marked: false },
    ])
    expect(markUnparsed('नमस्ते 🏠 Powai', [])).toEqual([{ text: 'नमस्ते 🏠 Powai', marked: false }])
  })
})

describe('a duplicate refusal', () => {
  const detail = 'duplicate listing: this looks like AVL-MUM-000123, posted by you 3 days ago. Send confirm_duplicate: true to post it anyway'
  test('is told the card’s way; another 409 is not one', () => {
    expect(isDuplicateRefusal(409, detail)).toBe(true)
    expect(isDuplicateRefusal(409, 'Cannot move a suspended listing')).toBe(false)
    expect(duplicateMessage(detail)).toBe(INTAKE_TEXT.duplicate('AVL-MUM-000123', '3 days ago'))
    expect(duplicateMessage('duplicate listing')).toBe('duplicate listing')
  })

  test('the summary after posting', () => {
    expect(INTAKE_TEXT.summary(2, 0)).toBe('2 listings posted')
    expect(INTAKE_TEXT.summary(1, 1)).toBe('1 listing posted · 1 draft to fix')
    expect(INTAKE_TEXT.summary(0, 2)).toBe('Nothing posted · 2 drafts to fix')
  })
})
