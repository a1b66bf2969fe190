// Texts, links and query keys of the matching screens (issue 15): the inbox, the details' Matches tab, the rows' counts.
import type { Listing } from '../../src/modules/listings/model'
import type { InboxEntry } from '../../src/modules/matches/model'
import { grouped } from '../../src/shared/number-format'

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
  restoreFailed: 'Failed to bring the match back',
  rulesTitle: 'How matching works',
} as const

/** Every cached view of matches: reloaded after a dismissal, and after any listing change (listing-format.ts). */
export const MATCH_QUERY_KEYS = { inbox: ['matches-inbox'], listing: ['listing-matches'], counts: ['match-counts'] } as const

/** '3 matches', '1 match'. */
export const matchCountText = (n: number) => `${grouped(n)} ${n === 1 ? 'match' : 'matches'}`

/** Contact links live in src/shared/contact-links.ts (every listing view uses them, issue 32). */
export { phoneDigits, telHref, whatsappHref } from '../../src/shared/contact-links'

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
