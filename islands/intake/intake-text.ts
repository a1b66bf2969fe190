// Issue 18, WhatsApp in and out: the paste screen's and the share dialog's address and copy, one place each.

import { INTAKE_LINK_TEXT } from './intake-links'

// The addresses and the listing screens' words live in ./intake-links.ts (small, for the listing screens' scripts).
export { PASTE_PAGE_PATH, SHARE_PATH } from './intake-links'
/**
 * Photos shared with the text (issue 34) never go to the server before the broker posts: the service worker keeps them
 * in this cache of the browser (src/modules/pwa/service-worker.js) and the paste screen takes them from it.
 */
export const SHARED_PHOTOS_CACHE = 'shared-photos-v1'
/** A draft's photos, like a listing's (src/modules/photos/model.ts MAX_PHOTOS_PER_LISTING). */
export const DRAFT_PHOTOS_MAX = 10

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

export const INTAKE_TEXT = {
  title: INTAKE_LINK_TEXT.title,
  intro: 'Paste messages from a WhatsApp group or chat: each listing in them becomes a draft you check and post. Nothing is posted until you choose.',
  pasteLabel: 'WhatsApp messages',
  pasteHint: 'One message or many; a whole chat export works too.',
  sharedTruncated: 'Only the first part of what you shared fit: paste the rest to read it too.',
  sharedDropped: (n: number) => `${plural(n, 'shared photo')} could not be kept: add ${n === 1 ? 'it' : 'them'} to the draft from your gallery.`,
  photos: {
    label: (n: number) => `Photos (${n} of ${DRAFT_PHOTOS_MAX}; sent once the draft is posted)`,
    add: 'Add photos',
    remove: (i: number) => `Remove photo ${i}`,
    alt: (i: number, name: string) => `Photo ${i}: ${name}`,
    tray: (n: number) => `Shared photos (${plural(n, 'photo')})`,
    trayHint: 'Several listings were shared: put each photo on the draft it belongs to.',
    trayNoDraft: 'Read the message first: the photos then go on its draft.',
    putOn: (i: number) => `Put photo ${i} on`,
    chooseDraft: 'Choose a draft',
  },
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
  /** Issue 30: a whole chat export. */
  import: {
    title: 'Import a chat export',
    intro: 'In WhatsApp, open the chat, choose Export chat, Without media, and pick the file here (.txt or .zip, up to 10 MB). Your own messages become drafts; nothing is posted until you choose.',
    fileLabel: 'Chat export file',
    period: 'Messages of',
    periods: [
      { days: 30, label: 'the last 30 days' },
      { days: 90, label: 'the last 3 months' },
      { days: 365, label: 'the last year' },
      { days: 3650, label: 'the whole chat' },
    ],
    read: 'Read export',
    noFile: 'Choose the chat export file first.',
    tooLarge: 'This file is larger than 10 MB: export the chat without media.',
    uploading: (percent: number) => `Sending the file: ${percent}%`,
    reading: 'Reading the chat…',
    progressLabel: 'Reading the chat export',
    failed: 'The chat export could not be read. Please try again.',
    summary: (messages: number, first: string | null, last: string | null) =>
      `${plural(messages, 'message')} in this chat${first && last ? `, ${first} to ${last}` : ''}.`,
    whoAreYou: 'Which sender are you in this chat?',
    whoHint: 'Your number was not found among the senders: choose yourself, and your messages become drafts.',
    you: 'You in this chat',
    readAs: 'Read my messages',
    yours: (own: number, drafts: number) => `${plural(own, 'message')} of yours in the period: ${plural(drafts, 'draft')}.`,
    truncated: 'Only the newest 300 drafts are shown: choose a shorter period for the rest.',
    others: 'Others in this chat',
    othersHint: 'Their messages are never posted for them: invite them to post their own on the network.',
    sender: (messages: number, listings: number) => `${plural(messages, 'message')}, ${plural(listings, 'listing')}`,
    invite: 'Invite on WhatsApp',
    posted: (day: string) => `Posted ${day}`,
    times: (n: number) => `posted ${n} times`,
    alike: (entryId: string, own: boolean) => `Looks like ${entryId}${own ? ', one of your listings' : ' on the network'}.`,
  },
  selectAll: 'Select all',
  selectNone: 'Select none',
  share: {
    button: INTAKE_LINK_TEXT.share,
    title: (entryId: string) => `Share ${entryId}`,
    label: 'Message to share',
    loading: 'Writing the message…',
    loadFailed: 'The message could not be written',
    copy: 'Copy',
    copied: 'Copied',
    selected: 'Selected: copy it with Ctrl+C, or your phone’s Copy',
    whatsapp: 'Open WhatsApp',
    publicPage: 'The link opens a page for your client, with your name and phone: no sign-in needed.',
  },
} as const
