// The currency of SPEC section 3 "Currency table", by country name: exact, then case-insensitive, then partial
// match; USD otherwise. A price belongs to its listing, so it is shown in the currency of the listing's country
// (`listingCurrency`) wherever it appears; the user's own currency is for what no listing is attached to yet (filters,
// the new-listing form), with the rupee sign when the user has no country (SPEC section 9: the filters' default).

import { grouped } from './number-format'

/** `locale`: how the country groups digits (src/shared/money.ts), when it is not the currency's usual one. */
export type Currency = { symbol: string; code: string; locale?: string }

const TABLE: [string, Currency][] = [
  ['India', { symbol: '₹', code: 'INR', locale: 'en-IN' }],
  ['United States', { symbol: '$', code: 'USD' }],
  ['USA', { symbol: '$', code: 'USD' }],
  ['United Kingdom', { symbol: '£', code: 'GBP', locale: 'en-GB' }],
  ['UK', { symbol: '£', code: 'GBP', locale: 'en-GB' }],
  ['Germany', { symbol: '€', code: 'EUR', locale: 'de-DE' }],
  ['France', { symbol: '€', code: 'EUR', locale: 'fr-FR' }],
  ['Spain', { symbol: '€', code: 'EUR', locale: 'es-ES' }],
  ['Italy', { symbol: '€', code: 'EUR', locale: 'it-IT' }],
  ['Netherlands', { symbol: '€', code: 'EUR', locale: 'nl-NL' }],
  ['Canada', { symbol: 'C$', code: 'CAD', locale: 'en-CA' }],
  ['Australia', { symbol: 'A$', code: 'AUD', locale: 'en-AU' }],
  ['Japan', { symbol: '¥', code: 'JPY', locale: 'ja-JP' }],
  ['China', { symbol: '¥', code: 'CNY', locale: 'zh-CN' }],
  ['Singapore', { symbol: 'S$', code: 'SGD', locale: 'en-SG' }],
  ['United Arab Emirates', { symbol: 'د.إ', code: 'AED', locale: 'en-AE' }],
  ['UAE', { symbol: 'د.إ', code: 'AED', locale: 'en-AE' }],
  ['Saudi Arabia', { symbol: '﷼', code: 'SAR', locale: 'en-SA' }],
]

export const DEFAULT_CURRENCY: Currency = { symbol: '$', code: 'USD' }
export const FILTER_CURRENCY: Currency = { symbol: '₹', code: 'INR', locale: 'en-IN' }

export function currencyFor(country: string | null | undefined): Currency {
  if (!country) return DEFAULT_CURRENCY
  const exact = TABLE.find(([name]) => name === country)
  if (exact) return exact[1]
  const lower = country.toLowerCase()
  const insensitive = TABLE.find(([name]) => name.toLowerCase() === lower)
  if (insensitive) return insensitive[1]
  // Partial, by words: "Republic of India" finds India, "Emirates" or "Arab" the UAE, "Aus" Australia. Table names match
  // as whole words ("UK" not inside "Ukraine"); what was typed matches the start of a word, from 3 letters on ("US" is
  // not inside "Australia").
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const input = country.trim()
  const partial = TABLE.find(
    ([name]) =>
      new RegExp(`(^|[^\\p{L}])${escape(name)}($|[^\\p{L}])`, 'iu').test(input) ||
      (input.length >= 3 && new RegExp(`(^|[^\\p{L}])${escape(input)}`, 'iu').test(name)),
  )
  return partial?.[1] ?? DEFAULT_CURRENCY
}

/** The currency of a listing: its country's. */
export const listingCurrency = (listing: { country_name: string | null | undefined }) => currencyFor(listing.country_name)

/** The user's currency where no listing is involved (filters, a new listing): their country's, else the rupee sign. */
export const userCurrency = (country: string | null | undefined) => (country?.trim() ? currencyFor(country) : FILTER_CURRENCY)

/** Symbols written right to left (د.إ, ﷼). */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/
export const writtenRightToLeft = (symbol: string) => RTL.test(symbol)

// Amounts are written by src/shared/money.ts (Indian grouping for rupees, each country's own elsewhere).

export const formatSize = (size: number | null | undefined) => (size === null || size === undefined ? '' : `${grouped(size)} sq ft`)
