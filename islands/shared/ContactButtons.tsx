import { listingMessage, telHref, whatsappHref, type ContactListing } from '../../src/shared/contact-links'
import { createContext, use } from 'react'
import { Icon } from './icons'

/**
 * Inside a listing card: the compact icons (a row's actions) are not drawn there, as the card's footer has the
 * labelled buttons. Drawn and hidden by CSS they were six elements of every card of a phone's list, parsed, styled and
 * hydrated on every visit (docs/decisions/070-slim-cards.md).
 */
export const InCard = createContext(false)

type Props = {
  /** The other broker's listing: its contact, and what the WhatsApp message names. */
  listing: ContactListing & { contact_value: string; owner_name?: string | null }
  /**
   * Icons alone (a table row's actions, named for screen readers), else labelled buttons at least 44 px tall (a card,
   * the details, a match: thumbs on a phone).
   */
  compact?: boolean
}

/**
 * Call and WhatsApp for a phone number (WhatsApp opens with a message naming the listing), a mail link for an email
 * address: one tap to the broker of another listing (issue 32). Nothing for a contact with neither.
 */
export function ContactButtons({ listing: l, compact = false }: Props) {
  const inCard = use(InCard)
  if (compact && inCard) return null
  const name = l.contact_name?.trim() || l.owner_name || l.entry_id
  const size = compact ? 'btn-sm btn-square btn-ghost' : 'btn-sm h-11 min-h-11 px-4'
  const mark = { 'data-contact': compact ? 'compact' : 'full' }
  if (l.contact_value.includes('@'))
    return (
      <a className={`btn ${compact ? size : `${size} btn-outline`}`} href={`mailto:${l.contact_value.trim()}`} aria-label={`Email ${name}`} {...mark}>
        {compact ? <Icon name="mail" className="h-4 w-4" /> : 'Email'}
      </a>
    )
  const tel = telHref(l.contact_value)
  const whatsapp = whatsappHref(l.contact_value, listingMessage(l))
  if (!tel || !whatsapp) return null
  return (
    <>
      <a className={`btn ${compact ? size : `${size} btn-primary`}`} href={tel} aria-label={`Call ${name}`} {...mark}>
        <Icon name="phone" className="h-4 w-4" />
        {!compact && 'Call'}
      </a>
      <a className={`btn ${compact ? size : `${size} btn-outline`}`} href={whatsapp} target="_blank" rel="noopener noreferrer" aria-label={`WhatsApp ${name}`} {...mark}>
        <Icon name="chat" className="h-4 w-4" />
        {!compact && 'WhatsApp'}
      </a>
    </>
  )
}
