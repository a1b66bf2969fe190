// One tap to another broker (issue 32): Call (`tel:`) and WhatsApp (`wa.me`, with a first message naming the
// listing) from every listing card, row and details view, and from a match. Pure, for the islands and the server.
import { listingCurrency } from './currency'
import { POST_TYPE_LABELS } from './constants'
import { formatMoneyShort } from './money'
import { SITE_NAME } from './site'

/** The digits of a phone number as stored (a leading + and spaces dropped); none for an email or a blank. */
export const phoneDigits = (contact: string) => (contact.includes('@') ? '' : contact.replace(/\D/g, ''))

/** `tel:` keeps the leading + of an international number, so a phone dials it as written. */
export function telHref(contact: string): string | null {
  const digits = phoneDigits(contact)
  if (!digits) return null
  return `tel:${contact.trim().startsWith('+') ? '+' : ''}${digits}`
}

/**
 * WhatsApp's click-to-chat link takes the number with its country code, digits only, and a first message. A number
 * stored without one stays as typed (its digits): guessing a country would send the message to someone else.
 */
export function whatsappHref(contact: string, text?: string): string | null {
  const digits = phoneDigits(contact)
  if (!digits) return null
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`
}

/** What the first message needs of a listing. */
export type ContactListing = {
  entry_id: string
  post_type: 'REQ' | 'AVL'
  sale_or_rent: 'SALE' | 'RENT'
  property_type: string
  locality: string | null
  budget: number | null
  contact_name: string | null
  country_name: string | null | undefined
}

/**
 * The first message to the broker of a listing, naming it so they know at once which one: 'Hello Asha, about your
 * listing AVL-MUM-000123 on Brokernet (Availability, 2 BHK Apartment for rent in Andheri West, ₹45 K): is it still
 * available?' Fields the listing lacks are left out.
 */
export function listingMessage(l: ContactListing): string {
  const what = `${POST_TYPE_LABELS[l.post_type]}, ${l.property_type} for ${l.sale_or_rent === 'SALE' ? 'sale' : 'rent'}${l.locality ? ` in ${l.locality}` : ''}`
  const price = l.budget !== null ? `, ${formatMoneyShort(l.budget, listingCurrency(l))}` : ''
  const hello = l.contact_name?.trim() ? `Hello ${l.contact_name.trim()}` : 'Hello'
  return `${hello}, about your listing ${l.entry_id} on ${SITE_NAME} (${what}${price}): is it still ${l.post_type === 'REQ' ? 'needed' : 'available'}?`
}
