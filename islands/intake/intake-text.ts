// Issue 18, WhatsApp in and out: the paste screen's and the share dialog's address and copy, one place each.

/** The "Paste from WhatsApp" screen (its route: src/modules/intake/pages.ts; its links: the broker's listing screens). */
export const PASTE_PAGE_PATH = '/dashboard/paste'

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

export const INTAKE_TEXT = {
  title: 'Paste from WhatsApp',
  intro: 'Paste messages from a WhatsApp group or chat: each listing in them becomes a draft you check and post. Nothing is posted until you choose.',
  pasteLabel: 'WhatsApp messages',
  pasteHint: 'One message or many; a whole chat export works too.',
  count: (n: number, max: number) => `${n.toLocaleString('en-US')} / ${max.toLocaleString('en-US')} characters`,
  read: 'Read messages',
  readFailed: 'The messages could not be read. Please try again.',
  none: 'No listings found in these messages. A listing says what is wanted or on offer (2 BHK, shop, office…), or REQ / AVL with a price or a size.',
  found: (n: number) => `${plural(n, 'draft')} to check`,
  foundHint: 'Each draft holds what was read from its message. Fix what is marked, select the ones to post, and post them.',
  draft: (n: number) => `Draft ${n}`,
  confidence: (c: number) => `${Math.round(c * 100)}% read`,
  confidenceTitle: 'How much of a listing was found in the message: post type and deal in words, property type, budget, locality, contact, size',
  needsFix: 'Needs a fix',
  message: 'Message',
  unparsed: 'Words not read',
  allRead: 'Every word was read or is a usual detail.',
  ownContact: 'No phone number or email was found in this message: your own number is filled in as the contact.',
  noContact: 'No phone number or email was found in this message: add the contact.',
  contactName: (name: string) => `Name in the message: ${name}. Listings you post carry your own name.`,
  select: 'Select',
  remove: 'Remove',
  duplicate: (entryId: string, ago: string) => `This looks like ${entryId}, which you posted ${ago}.`,
  postAnyway: 'Post anyway',
  posting: 'Posting…',
  postFailed: 'This draft could not be posted',
  posted: 'Posted as',
  view: 'View',
  selectedCount: (selected: number, open: number) => `${plural(open, 'draft')} left · ${selected.toLocaleString('en-US')} selected`,
  postSelected: (n: number) => `Post selected (${n})`,
  postAll: (n: number) => `Post all (${n})`,
  /** The toast after a round of posting. */
  summary: (posted: number, failed: number) =>
    [posted || !failed ? `${plural(posted, 'listing')} posted` : 'Nothing posted', failed ? `${plural(failed, 'draft')} to fix` : ''].filter(Boolean).join(' · '),
  share: {
    button: 'Share',
    title: (entryId: string) => `Share ${entryId}`,
    label: 'Message to share',
    loading: 'Writing the message…',
    loadFailed: 'The message could not be written',
    copy: 'Copy',
    copied: 'Copied',
    selected: 'Selected: copy it with Ctrl+C, or your phone’s Copy',
    whatsapp: 'Open WhatsApp',
  },
} as const
