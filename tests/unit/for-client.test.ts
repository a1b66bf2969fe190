import { describe, expect, test } from 'bun:test'
import { forClient, hideContacts, hideName } from '../../src/modules/share-links/for-client'
import type { Listing } from '../../src/modules/listings/model'

// Another broker's listing as their client reads it (issue 34, onward sharing, decision 051): the owner's name as on
// their profile, typed by hand the ways people type it, and their phone in the shapes phones are written.

describe('hideName: the owner’s name as typed by hand', () => {
  const name = 'Asha Verma'
  test.each([
    ['Owner: Asha Verma', 'Owner: [name hidden]'],
    ['owner ASHA VERMA, call', 'owner [name hidden], call'],
    ['asha  verma', '[name hidden]'],
    ['Asha\nVerma', '[name hidden]'],
    ['Ask for Asha', 'Ask for [name hidden]'],
    ['Verma ji’s flat', '[name hidden] ji’s flat'],
    ["Asha's flat", "[name hidden]'s flat"],
    ['Contact: verma.', 'Contact: [name hidden].'],
  ])('%p', (typed, shown) => expect(hideName(typed, name)).toBe(shown))

  test('a word that only contains a part of the name stays whole', () => {
    expect(hideName('Near Ashapura Society, Vermani Road', name)).toBe('Near Ashapura Society, Vermani Road')
  })

  test('letters beyond ASCII, any case; a part shorter than three letters is not looked for alone', () => {
    expect(hideName('Call ZOË ÅNGSTRÖM or Zoë', 'Zoë Ångström')).toBe('Call [name hidden] or [name hidden]')
    expect(hideName('Li Na here; Lime tree, li', 'Li Na')).toBe('[name hidden] here; Lime tree, li')
  })

  test('a name with the signs of a pattern is read as letters', () => {
    expect(hideName('R. (Raj) Shah+ and Rxj', 'R. (Raj) Shah+')).toBe('[name hidden] and Rxj')
  })

  test('no name, no text: unchanged', () => {
    expect(hideName('Asha Verma', null)).toBe('Asha Verma')
    expect(hideName('Asha Verma', '  ')).toBe('Asha Verma')
    expect(hideName(null, name)).toBeNull()
  })
})

describe('hideContacts: the owner’s phone in the shapes it is written', () => {
  test.each(['+91 98200 44556', '+91-98200-44556', '(+91) 98200 44556', '098200 44556', '9820044556', '98200.44556', '91 9820044556', '98 20 04 45 56'])('%p', (phone) => {
    const shown = hideContacts(`call ${phone} today`)!
    expect(shown).toContain('[number hidden] today')
    expect(shown).not.toMatch(/\d/)
  })
  test('prices and pin codes stay', () => {
    expect(hideContacts('₹45,000 a month, 400050')).toBe('₹45,000 a month, 400050')
  })
})

describe('forClient', () => {
  const listing = (onward_sharing: Listing['onward_sharing']) =>
    ({ onward_sharing, property_type: '2BHK of Asha', locality: 'Bandra (ask Verma)', details: 'ASHA VERMA, +91 98200 44556, asha.verma@example.com' }) as Listing
  test('ANONYMOUS: the owner’s name, phone and email out of every free-text field', () => {
    const l = forClient(listing('ANONYMOUS'), 'Asha Verma')
    expect([l.property_type, l.locality, l.details]).toEqual(['2BHK of [name hidden]', 'Bandra (ask [name hidden])', '[name hidden], [number hidden], [email hidden]'])
  })
  test('NAMED: the page names the owner anyway; their contacts still go', () => {
    const l = forClient(listing('NAMED'), 'Asha Verma')
    expect([l.property_type, l.locality, l.details]).toEqual(['2BHK of Asha', 'Bandra (ask Verma)', 'ASHA VERMA, [number hidden], [email hidden]'])
  })
})
