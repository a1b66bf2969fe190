import { findContact, findContactName } from './contact'
import { findIntent } from './intent'
import { findAmounts, takeTimes } from './money'
import { findPlace, findZone, type LocalityIndex } from './places'
import { findProperty, takeUses } from './property'
import { findSize } from './size'
import { readStructured, takeLinks } from './structured'
import { Message } from './text'

/**
 * Every recogniser over one text, in an order that settles who owns a number: links, contacts (a phone's digits are no
 * price), uses (`ideal for showrooms`) and clock times, the property type (`2.5 BHK`), the size (`1200 sqft`), the
 * intent words, the amounts, the zone, the locality.
 */
export function read(text: string, localities: LocalityIndex) {
  const msg = new Message(text)
  takeLinks(msg)
  const structured = readStructured(msg)
  const contact = findContact(msg)
  takeUses(msg)
  takeTimes(msg)
  const property = structured ? { type: structured.propertyType, start: 0, end: 0 } : findProperty(msg)
  const size = findSize(msg)
  const intent = structured ? { post: structured.post, deal: structured.deal, question: false } : findIntent(msg)
  const amounts = findAmounts(msg)
  const zone = structured ? structured.zone : findZone(msg)
  const place = structured?.locality ? { locality: structured.locality, zone: structured.zone, known: true, start: 0, end: 0, how: 'known' as const } : findPlace(msg, localities)
  const contactName = contact ? findContactName(msg, contact) : null
  return { msg, contact, property, size, intent, amounts, zone, place, contactName, structured: structured !== null }
}

export type Fields = ReturnType<typeof read>
