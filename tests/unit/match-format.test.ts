import { describe, expect, test } from 'bun:test'
import type { InboxEntry } from '../../src/modules/matches/model'
import { groupInbox, matchCountText, telHref, whatsappHref } from '../../islands/matches/match-format'
import { listingMessage } from '../../src/shared/contact-links'

// The matching screens' pure parts (issue 15): contact links, the rows' count text, the inbox's grouping and order.

describe('contact links', () => {
  test('Call keeps the + of an international number; WhatsApp takes its digits only', () => {
    expect(telHref('+91 98765 43210')).toBe('tel:+919876543210')
    expect(whatsappHref('+91 98765 43210')).toBe('https://wa.me/919876543210')
    expect(whatsappHref('+971-50-123-4567')).toBe('https://wa.me/971501234567')
  })
  test('a number without a country code stays as typed (its digits): no country is guessed', () => {
    expect(telHref('098765 43210')).toBe('tel:09876543210')
    expect(whatsappHref('098765 43210')).toBe('https://wa.me/09876543210')
  })
  test('an email or a contact without digits has neither', () => {
    for (const c of ['ravi@example.com', 'ask at the office', '']) {
      expect(telHref(c)).toBeNull()
      expect(whatsappHref(c)).toBeNull()
    }
  })
})

test('the count of a row: singular for one', () => {
  expect(matchCountText(1)).toBe('1 match')
  expect(matchCountText(3)).toBe('3 matches')
  expect(matchCountText(1200)).toBe('1,200 matches')
})

describe('the inbox grouped by the own listing', () => {
  const entry = (id: number, listingId: number, seen: boolean) => ({ id, listing_id: listingId, listing: { id: listingId }, seen }) as unknown as InboxEntry
  const order = (entries: InboxEntry[]) => groupInbox(entries).map((g) => [g.listing.id, g.entries.map((e) => e.id)])

  test('groups with something unseen first, then the newest; inside a group the unseen first, then the newest', () => {
    // Newest first, as the API answers: 7 and 6 on listing 1 are seen, 5 on listing 2 is not.
    const entries = [entry(7, 1, true), entry(6, 1, true), entry(5, 2, false), entry(4, 1, false), entry(3, 3, true), entry(2, 2, true)]
    expect(order(entries)).toEqual([
      [1, [4, 7, 6]],
      [2, [5, 2]],
      [3, [3]],
    ])
    expect(groupInbox(entries).map((g) => g.unseen)).toEqual([1, 1, 0])
  })
  test('all seen: newest group first', () => {
    expect(order([entry(9, 2, true), entry(8, 1, true), entry(1, 2, true)])).toEqual([
      [2, [9, 1]],
      [1, [8]],
    ])
  })
  test('nothing: no group', () => expect(groupInbox([])).toEqual([]))
})

describe('the first WhatsApp message names the listing (issue 32)', () => {
  const listing = {
    entry_id: 'AVL-MUM-000123',
    post_type: 'AVL' as const,
    sale_or_rent: 'SALE' as const,
    property_type: '3 BHK Apartment',
    locality: 'Bandra West',
    budget: 35_000_000,
    contact_name: 'Asha',
    country_name: 'India',
  }
  test('entry ID, type, deal, locality and price, in the short Indian form', () => {
    expect(listingMessage(listing)).toBe('Hello Asha, about your listing AVL-MUM-000123 on Brokernet (Availability, 3 BHK Apartment for sale in Bandra West, ₹3.5 Cr): is it still available?')
    expect(whatsappHref('+91 98200 12345', listingMessage(listing))).toBe(`https://wa.me/919820012345?text=${encodeURIComponent(listingMessage(listing))}`)
  })
  test('a requirement asks whether it is still needed; missing fields are left out', () => {
    expect(listingMessage({ ...listing, post_type: 'REQ', sale_or_rent: 'RENT', locality: null, budget: null, contact_name: null })).toBe(
      'Hello, about your listing AVL-MUM-000123 on Brokernet (Requirement, 3 BHK Apartment for rent): is it still needed?',
    )
  })
})
