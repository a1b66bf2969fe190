import type { Listing } from '../listings/model'
import { formatSize, listingCurrency, writtenRightToLeft, type Currency } from '../../shared/currency'

/** WhatsApp takes more, but a message that fits a phone's screen is the one that gets read. */
export const SHARE_MAX = 500

const trimZeros = (n: number) => String(Number(n.toFixed(2)))

/**
 * An amount as brokers write it: ₹45K, ₹85 L, ₹1.2 Cr in rupees, $45K and $1.2M elsewhere; when the short form would
 * round (₹1.2345 Cr), the whole number instead, grouped the currency's way (₹1,23,45,678), so parsing it gives back
 * the same amount. A symbol written right to left is replaced by its code (AED 352K).
 */
export function shortAmount(amount: number, currency: Currency): string {
  const symbol = writtenRightToLeft(currency.symbol) ? `${currency.code} ` : currency.symbol
  const steps: [number, string][] = currency.code === 'INR' ? [[1e7, ' Cr'], [1e5, ' L'], [1e3, 'K']] : [[1e9, 'B'], [1e6, 'M'], [1e3, 'K']]
  for (const [size, suffix] of steps) {
    if (amount < size) continue
    const short = amount / size
    if (Math.abs(Number(short.toFixed(2)) * size - amount) < 0.005) return `${symbol}${trimZeros(short)}${suffix === 'B' ? 'bn' : suffix}`
    break
  }
  const locale = currency.code === 'INR' ? 'en-IN' : 'en-US'
  return `${symbol}${amount.toLocaleString(locale, { maximumFractionDigits: 2 })}`
}

/** The listing's own page on the network: the listings screen searched for its entry ID. */
export const listingLink = (publicUrl: string, l: Pick<Listing, 'entry_id'>) => `${publicUrl}/dashboard/listings?search=${encodeURIComponent(l.entry_id)}`

/**
 * A listing as one WhatsApp message: `REQ | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West (West) | Contact Rahul
 * +91 98200 12345 | link`, fields the listing lacks left out, at most 500 characters (the longest field is shortened
 * first, never the link). The parser reads it back (src/modules/intake/parse/structured.ts).
 */
export function shareText(l: Listing, publicUrl: string, link = listingLink(publicUrl, l)): string {
  const parts = [
    l.post_type,
    l.sale_or_rent,
    l.property_type.replace(/\|/g, '/'),
    l.budget !== null ? shortAmount(l.budget, listingCurrency(l)) : null,
    l.size !== null ? formatSize(l.size) : null,
    l.locality ? `${l.locality.replace(/\|/g, '/')}${l.location ? ` (${l.location})` : ''}` : l.location ? `(${l.location})` : null,
    `Contact ${[l.contact_name, l.contact_value].filter((s) => s?.trim()).join(' ')}`.replace(/\|/g, '/'),
  ].filter((p): p is string => p !== null)
  const fits = () => [...parts, link].join(' | ').length <= SHARE_MAX
  while (!fits()) {
    const i = parts.reduce((best, p, k) => (p.length > parts[best]!.length ? k : best), 0)
    const over = [...parts, link].join(' | ').length - SHARE_MAX
    parts[i] = `${parts[i]!.slice(0, Math.max(1, parts[i]!.length - over - 1))}…`
  }
  return [...parts, link].join(' | ')
}

export const whatsappUrl = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`
