// Texts, links and query keys of the matching screens (issue 15): the inbox, the details' Matches tab, the rows' counts.
import type { Listing } from '../../src/modules/listings/model'
import type { InboxEntry } from '../../src/modules/matches/model'
import { grouped } from '../../src/shared/currency'

export const MATCH_TEXT = {
  title: 'Matches',
  lead: 'Listings across the network that fit yours: requirements meeting availabilities, both ways. New ones first.',
  emptyTitle: 'No matches yet',
  emptyText:
    'When a broker posts a listing that fits one of your active listings (same city, sale or rent and property type, within budget and size), it shows here. Post your requirements and availabilities to get matched.',
  tabEmpty: 'No listing matches this one right now.',
  tabInactive: 'Only active listings match: this one is not active, so it has no matches.',
  loadFailed: 'Failed to load matches',
  seenFailed: 'Failed to mark the match seen',
  dismissed: 'Match dismissed: it will not be shown again',
  dismissFailed: 'Failed to dismiss the match',
  rulesTitle: 'How matching works',
} as const

/** Every cached view of matches: reloaded after a dismissal, and after any listing change (listing-format.ts). */
export const MATCH_QUERY_KEYS = { inbox: ['matches-inbox'], listing: ['listing-matches'], counts: ['match-counts'] } as const

/** '3 matches', '1 match'. */
export const matchCountText = (n: number) => `${grouped(n)} ${n === 1 ? 'match' : 'matches'}`

/** The digits of a phone number as stored (a leading + and spaces dropped); none for an email or a blank. */
export const phoneDigits = (contact: string) => (contact.includes('@') ? '' : contact.replace(/\D/g, ''))

/** `tel:` keeps the leading + of an international number, so a phone dials it as written. */
export function telHref(contact: string): string | null {
  const digits = phoneDigits(contact)
  if (!digits) return null
  return `tel:${contact.trim().startsWith('+') ? '+' : ''}${digits}`
}

/**
 * WhatsApp's click-to-chat link takes the number with its country code, digits only. A number stored without one
 * stays as typed (its digits): guessing a country would send the message to someone else.
 */
export function whatsappHref(contact: string): string | null {
  const digits = phoneDigits(contact)
  return digits ? `https://wa.me/${digits}` : null
}

export type InboxGroup = { listing: Listing; entries: InboxEntry[]; unseen: number }

/**
 * The page's entries by the user's own listing: groups with something unseen first, then the newest; inside a group the
 * unseen first, then newest. The screen asks the API for `order=unseen_first`, so every unseen entry comes on the first
 * pages, before any seen one.
 */
export function groupInbox(entries: readonly InboxEntry[]): InboxGroup[] {
  const groups = new Map<number, InboxGroup>()
  for (const e of entries) {
    const g = groups.get(e.listing_id) ?? { listing: e.listing, entries: [], unseen: 0 }
    g.entries.push(e)
    if (!e.seen) g.unseen++
    groups.set(e.listing_id, g)
  }
  const newest = (g: InboxGroup) => Math.max(...g.entries.map((e) => e.id))
  for (const g of groups.values()) g.entries.sort((a, b) => Number(a.seen) - Number(b.seen) || b.id - a.id)
  return [...groups.values()].sort((a, b) => Number(b.unseen > 0) - Number(a.unseen > 0) || newest(b) - newest(a))
}
