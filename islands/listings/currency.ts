// The currency of SPEC section 3 "Currency table", by the user's country name: exact, then case-insensitive,
// then partial match; USD otherwise. Filters default to the rupee sign (SPEC section 9).

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

/** An amount with the currency symbol and thousands separators, e.g. ₹1,500,000; empty when there is none. */
export const formatMoney = (amount: number | null | undefined, currency: Currency) =>
  amount === null || amount === undefined ? '' : `${currency.symbol}${Math.round(amount).toLocaleString('en-US')}`

export const formatSize = (size: number | null | undefined) => (size === null || size === undefined ? '' : `${size.toLocaleString('en-US')} sq ft`)
