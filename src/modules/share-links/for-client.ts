import type { Listing } from '../listings/model'

// What a client sees of another broker's listing (issue 34, onward sharing; docs/decisions/051): the owner's own
// words, without what would lead the client past the sharing broker to the owner.

/** 10 to 15 digits, spaced or punctuated the ways phone numbers are written (prices have fewer digits). */
const PHONE = /\+?\d[\d\s().\/-]{8,20}\d/g
const EMAIL = /[^\s@,;:()<>]+@[^\s@,;:()<>]+\.[A-Za-z]{2,}/g

/** Details with any phone number or email address taken out (issue 34: an onward page shows the sharer's only). */
export function hideContacts(text: string | null): string | null {
  if (text === null) return null
  return text.replace(EMAIL, '[email hidden]').replace(PHONE, (m) => {
    const digits = m.replace(/\D/g, '').length
    return digits >= 10 && digits <= 15 ? '[number hidden]' : m
  })
}

/** A name part shorter than this is not looked for alone: "K." or "Li" would hide letters of other words' kind. */
const SHORTEST_PART = 3
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Not inside a longer word: "Asha" is found in "Asha's" and "ASHA," but not in "Ashapura". */
const whole = (pattern: string) => new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, 'giu')

/**
 * Text with a person's name taken out, as the owner would write it by hand: the whole name in any case with any spaces
 * or line breaks between its parts, then each part of it alone (a first name, a surname) of three letters or more.
 * Not found: nicknames and misspellings (Ashu, Aasha), the name in another script, initials, other people's names.
 */
export function hideName(text: string | null, fullName: string | null): string | null {
  const parts = fullName?.trim().split(/\s+/).filter(Boolean) ?? []
  if (text === null || parts.length === 0) return text
  let out = text.replace(whole(parts.map(escape).join('\\s+')), '[name hidden]')
  for (const part of parts.filter((p) => [...p.replace(/[^\p{L}]/gu, '')].length >= SHORTEST_PART).sort((a, b) => b.length - a.length))
    out = out.replace(whole(escape(part)), '[name hidden]')
  return out
}

/**
 * Another broker's listing as their client may read it: in the fields the owner types freely (what the property is,
 * its locality, the details), no phone number or email address, and, when the owner chose ANONYMOUS, not their name
 * as it is on their profile (`ownerName`). Their phone as on the profile is a phone number: hidden in every form it
 * is written in with 10 to 15 digits (+91 98200 44556, 098200-44556, 9820044556).
 */
export function forClient(listing: Listing, ownerName: string | null): Listing {
  // Contacts first: an email address made of the name ("asha.verma@…") goes whole, not as "[name hidden]@…".
  const hide = (text: string | null) => (listing.onward_sharing === 'ANONYMOUS' ? hideName(hideContacts(text), ownerName) : hideContacts(text))
  return { ...listing, property_type: hide(listing.property_type) ?? '', locality: hide(listing.locality), details: hide(listing.details) }
}
