import type { LocationZone } from '../../../shared/constants'
import type { Message } from './text'

const HEAD = /^\s*(req|avl)\s*\|\s*(sale|rent)\s*\|/
const ZONED = /^(.*?)\s*\((north|east|west|south|central|outskirts)\)$/i
const OTHER = /^(?:contact\b|https?:\/\/)|^(?:[^\d\s]{1,3}\s?)?\d[\d,.]*\s*(?:k|l|cr|m|bn)?$|\bsq ft$/i

export type Structured = { post: 'REQ' | 'AVL'; deal: 'SALE' | 'RENT'; propertyType: string; locality: string | null; zone: LocationZone | null }

/**
 * A listing shared from Brokernet (src/modules/intake/share.ts): `REQ | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West
 * (West) | Contact … | link`. Its post type, deal, property type and locality are read by position and kind, as
 * written, so a type or a locality the parser has no word for comes back unchanged; amounts, size and contact are
 * left to the usual recognisers.
 */
export function readStructured(msg: Message): Structured | null {
  const head = HEAD.exec(msg.lower)
  if (!head) return null
  const line = msg.text.split('\n')[0]!
  const segments: { text: string; start: number }[] = []
  let at = 0
  for (const part of line.split('|')) {
    const lead = part.length - part.trimStart().length
    segments.push({ text: part.trim(), start: at + lead })
    at += part.length + 1
  }
  if (segments.length < 4) return null
  for (const s of segments.slice(0, 3)) msg.take(s.start, s.start + s.text.length, 'structured')
  let locality: string | null = null
  let zone: LocationZone | null = null
  for (const s of segments.slice(3)) {
    if (!s.text || OTHER.test(s.text)) continue
    const z = ZONED.exec(s.text)
    locality = (z ? z[1]! : s.text) || null
    zone = z ? ((z[2]![0]!.toUpperCase() + z[2]!.slice(1).toLowerCase()) as LocationZone) : null
    msg.take(s.start, s.start + s.text.length, 'locality')
    break
  }
  return {
    post: head[1] === 'req' ? 'REQ' : 'AVL',
    deal: head[2] === 'sale' ? 'SALE' : 'RENT',
    propertyType: segments[2]!.text,
    locality,
    zone,
  }
}

const URL = /https?:\/\/\S+|www\.\S+/g

/** Links (a map, the listing's own page) are kept in the details, never read for numbers. */
export function takeLinks(msg: Message): void {
  for (const m of msg.matches(URL)) msg.take(m.index, m.index + m[0].length, 'link')
}
