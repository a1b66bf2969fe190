// Public links to a listing for a broker's client (issue 34): the screen that lists and revokes them, its address and
// words, one place each (the page route imports the address; the island the rest).
import type { MyShareLink } from '../../src/modules/share-links/model'

export const SHARE_LINKS_PAGE = '/dashboard/share-links'

export const SHARE_LINKS_TEXT = {
  title: 'Public links',
  lead: 'The pages you made for clients with Share. Revoke one and its page stops working at once; sharing the listing again makes a new link.',
  table: 'Your public links',
  emptyTitle: 'No public links yet',
  emptyText: 'Share a listing (its menu or details: Share) and its link for your client appears here.',
  loadFailed: 'Failed to load your public links',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this link?',
  revokeMessage: (entry: string) => `The page for ${entry} stops working for everyone who has the link, at once. This cannot be undone; you can share the listing again to make a new link.`,
  revoked: 'Link revoked: its page no longer opens',
  revokeFailed: 'Failed to revoke the link',
  open: 'Open page',
  gone: 'No longer shown to you',
} as const

/** Whose listing, and what its owner allows other brokers, in the viewer's words. */
export function onwardText(l: NonNullable<MyShareLink['listing']>): string {
  if (l.own) return l.onward_sharing === 'OFF' ? 'Your listing · others may not share it' : l.onward_sharing === 'NAMED' ? 'Your listing · others may share it, naming you' : 'Your listing · others may share it without your name'
  return l.onward_sharing === 'OFF' ? 'Another broker’s listing · sharing withdrawn' : l.onward_sharing === 'NAMED' ? 'Another broker’s listing · their page names them' : 'Another broker’s listing · anonymous'
}

/** The link's state in words: open, revoked, or ended (the listing closed, expired, consent withdrawn…). */
export const stateText = (link: MyShareLink) => (link.revoked_at !== null ? 'Revoked' : link.live ? 'Live' : 'Ended')
