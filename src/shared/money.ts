// Money as brokers read it (issue 32): rupees in Indian grouping (₹35,00,000) in full and in lakhs and crores where
// space is tight (₹3.5 Cr, ₹35 L, ₹45 K); every other currency grouped its own country's way (the locale of the
// listing's country, src/shared/currency.ts), short as that locale writes it ($1.2M, 1,2 Mio. €… but with our symbol
// first). And the one reader of typed amounts: `45k`, `35L`, `1.2cr`, `₹35,00,000`, digits (the budget filters, a
// link's min_budget / max_budget). Docs: docs/decisions/037-phone-native.md.
import { writtenRightToLeft, type Currency } from './currency'
import { numberFormat } from './number-format'

const SHORT: Intl.NumberFormatOptions = { maximumFractionDigits: 2 }
const COMPACT: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 2 }

/** The locale a currency's amounts are grouped by: its own, else the listing country's (`currency.locale`). */
export const moneyLocale = (currency: Currency) => currency.locale ?? (currency.code === 'INR' ? 'en-IN' : 'en-US')

/** Digits grouped as the currency's country does: 35,00,000 for rupees, 3,500,000 for dollars, 3.500.000 in Germany. */
export const groupDigits = (amount: number, currency: Currency) => numberFormat(moneyLocale(currency)).format(Math.round(amount))

/** The symbol in front of a number; one written right to left is isolated and spaced, so it stays in front. */
const withSymbol = (symbol: string, number: string) => (writtenRightToLeft(symbol) ? `\u2067${symbol}\u2069\u00a0${number}` : `${symbol}${number}`)

/** An amount in full: ₹35,00,000, $3,500,000, €3.500.000; empty when there is none. */
export function formatMoney(amount: number | null | undefined, currency: Currency): string {
  if (amount === null || amount === undefined) return ''
  return withSymbol(currency.symbol, groupDigits(amount, currency))
}

/** The amount with its ISO code, for a screen reader or a tooltip: 'INR 35,00,000', 'AED 352,000'. */
export const moneyWithCode = (amount: number, currency: Currency) => `${currency.code} ${groupDigits(amount, currency)}`

const INDIAN_STEPS: [number, string][] = [
  [1e7, ' Cr'],
  [1e5, ' L'],
  [1e3, ' K'],
]

/**
 * An amount where space is tight (cards): ₹3.5 Cr, ₹35 L, ₹45 K (two decimals at most, rounded); elsewhere the
 * locale's compact form ($1.2M, $45K). Under a thousand it is the amount in full.
 */
export function formatMoneyShort(amount: number | null | undefined, currency: Currency): string {
  if (amount === null || amount === undefined) return ''
  if (Math.abs(amount) < 1000) return formatMoney(amount, currency)
  if (currency.code === 'INR') {
    const [size, suffix] = INDIAN_STEPS.find(([size]) => Math.abs(amount) >= size)!
    const short = numberFormat('en-IN', SHORT).format(Math.round((amount / size) * 100) / 100)
    return withSymbol(currency.symbol, `${short}${suffix}`)
  }
  return withSymbol(currency.symbol, numberFormat(moneyLocale(currency), COMPACT).format(amount))
}

/** What a field says when it cannot read an amount (the budget filters, the listing form's Budget). */
export const NOT_AN_AMOUNT = 'Not an amount: try 45k, 35L or 1.2cr'

const MULTIPLIERS: [RegExp, number][] = [
  [/^(k|thousands?)$/, 1e3],
  [/^(l|lacs?|lakhs?|lkh?s?)$/, 1e5],
  [/^(cr|crs|crores?)$/, 1e7],
  [/^(m|mn|mil|millions?)$/, 1e6],
  [/^(b|bn|billions?)$/, 1e9],
]

/**
 * A typed amount as a whole number: `45k` 45,000, `35L` / `35 lakh` 35,00,000, `1.2cr` 1,20,00,000, `2.5m` 2,500,000,
 * `₹35,00,000`, `Rs. 45,000/-`, `3500000`. Null for anything else (empty, words, a negative, several numbers), so a
 * field can say it did not understand rather than guess.
 */
export function parseMoney(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null
  const t = text
    .trim()
    .toLowerCase()
    .replace(/^(₹|rs\.?|inr|\$|us\$|usd|£|gbp|€|eur|aed|د\.إ)\s*/u, '')
    .replace(/\/-$/, '')
    .replace(/(\d)[,\s'_](?=\d)/g, '$1')
    .trim()
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\.?$/.exec(t)
  if (!m) return null
  const unit = m[2]!
  const multiplier = unit === '' ? 1 : MULTIPLIERS.find(([re]) => re.test(unit))?.[1]
  if (multiplier === undefined) return null
  const value = Math.round(Number(m[1]) * multiplier)
  return Number.isSafeInteger(value) ? value : null
}
