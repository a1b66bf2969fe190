// The currency of SPEC section 3 "Currency table", by country name: exact, then case-insensitive, then partial
// match; USD otherwise. A price belongs to its listing, so it is shown in the currency of the listing's country
// (`listingCurrency`) wherever it appears; the user's own currency is for what no listing is attached to yet (filters,
// the new-listing form), with the rupee sign when the user has no country (SPEC section 9: the filters' default).

export type Currency = { symbol: string; code: string }

const TABLE: [string, Currency][] = [
  ['India', { symbol: '₹', code: 'INR' }],
  ['United States', { symbol: '$', code: 'USD' }],
  ['USA', { symbol: '$', code: 'USD' }],
  ['United Kingdom', { symbol: '£', code: 'GBP' }],
  ['UK', { symbol: '£', code: 'GBP' }],
  ['Germany', { symbol: '€', code: 'EUR' }],
  ['France', { symbol: '€', code: 'EUR' }],
  ['Spain', { symbol: '€', code: 'EUR' }],
  ['Italy', { symbol: '€', code: 'EUR' }],
  ['Netherlands', { symbol: '€', code: 'EUR' }],
  ['Canada', { symbol: 'C$', code: 'CAD' }],
  ['Australia', { symbol: 'A$', code: 'AUD' }],
  ['Japan', { symbol: '¥', code: 'JPY' }],
  ['China', { symbol: '¥', code: 'CNY' }],
  ['Singapore', { symbol: 'S$', code: 'SGD' }],
  ['United Arab Emirates', { symbol: 'د.إ', code: 'AED' }],
  ['UAE', { symbol: 'د.إ', code: 'AED' }],
  ['Saudi Arabia', { symbol: '﷼', code: 'SAR' }],
]

export const DEFAULT_CURRENCY: Currency = { symbol: '$', code: 'USD' }
export const FILTER_CURRENCY: Currency = { symbol: '₹', code: 'INR' }

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

let EN: Intl.NumberFormat | undefined
/**
 * 1500000 -> '1,500,000', as `toLocaleString('en-US')` writes it, through one formatter made on first use:
 * `toLocaleString` with a locale builds a new formatter every call, which was a tenth of a listing page's hydration on
 * a slow phone (three amounts per row, twice: table and card).
 */
export const grouped = (n: number) => (EN ??= new Intl.NumberFormat('en-US')).format(n)

/**
 * An amount with the currency symbol and thousands separators, e.g. ₹1,500,000; empty when there is none. A symbol
 * written right to left is isolated (U+2067 … U+2069) and followed by a space, so it stays in front of the digits
 * ('د.إ 352,000') instead of the bidirectional algorithm moving it behind them.
 */
export function formatMoney(amount: number | null | undefined, currency: Currency): string {
  if (amount === null || amount === undefined) return ''
  const digits = grouped(Math.round(amount))
  return RTL.test(currency.symbol) ? `\u2067${currency.symbol}\u2069\u00a0${digits}` : `${currency.symbol}${digits}`
}

/** The amount with its ISO code, for a tooltip or a screen reader: 'AED 352,000'. */
export const moneyWithCode = (amount: number, currency: Currency) => `${currency.code} ${grouped(Math.round(amount))}`

export const formatSize = (size: number | null | undefined) => (size === null || size === undefined ? '' : `${grouped(size)} sq ft`)
