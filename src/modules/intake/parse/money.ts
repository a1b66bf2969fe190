import { exact, NUM, toNumber, type Ranged } from './numbers'
import type { Message } from './text'

const CUR = String.raw`(?:₹|rs\.?|inr|usd|aed|dhs?|gbp|eur|sgd|[cas]\$|\$|£|€|¥)`
const UNIT = String.raw`k|thousands?|hazaa?r|hajaa?r|savira|lakhs?|lacs?|laks?|lacks?|lkhs?|lks?|l|crores?|crs?|cr\.|c|millions?|mn|m|bn`
const ONE = String.raw`(${CUR}\s*)?(${NUM})(?:\s*(${UNIT})(?![a-z&]))?(\s*\/-)?`
/**
 * An amount, or a range of two: `45k`, `₹45,000/-`, `Rs. 45000`, `85 lac`, `1.2 Cr`, `1,20,000`, `40-45k`, `1 to 1.2 Cr`,
 * `40 se 45k`; and `1 cr 20 lakh`, read as 1.2 Cr.
 */
const AMOUNT = new RegExp(String.raw`(?<![\w.,])${ONE}(?:\s*(?:-|–|—|to|~|se|te|thi)\s*${ONE})?`, 'g')

const MULTIPLIER: [RegExp, number][] = [
  [/^(?:k|thousands?|hazaa?r|hajaa?r|savira)$/, 1e3],
  [/^(?:lakhs?|lacs?|laks?|lacks?|lkhs?|lks?|l)$/, 1e5],
  [/^(?:crores?|crs?|cr\.|c)$/, 1e7],
  [/^(?:millions?|mn|m)$/, 1e6],
  [/^bn$/, 1e9],
]
const multiplier = (unit: string | undefined) => (unit ? (MULTIPLIER.find(([re]) => re.test(unit))?.[1] ?? 1) : 1)

/** Words that make the amount after them something else than the price: a deposit, the maintenance, a brokerage. */
const NOT_PRICE_BEFORE = new Set(['deposit', 'deposite', 'dep', 'depo', 'security', 'sd', 'advance', 'maintenance', 'maintainance', 'maint', 'mnt', 'mntc', 'mntnc', 'brokerage', 'token', 'booking', 'emi', 'loan', 'corpus', 'stamp', 'charges', 'charge', 'escalation', 'lockin', 'lock', 'registration', 'income', 'yield', 'roi', 'returns', 'return'])
/** Words naming a number that is no amount (`shop no 12`, `floor 7`, `sector 15`): only right before a number without a unit. */
const LABEL_BEFORE = new Set(['floor', 'flr', 'no', 'number', 'plot', 'sector', 'sec', 'wing', 'tower', 'unit', 'flat', 'shop', 'room', 'phase', 'gate', 'building', 'bldg', 'year', 'yr', 'since', 'built', 'age', 'old', 'road', 'platform', 'lane', 'society', 'ph', 'stage', 'stg', 'block', 'blk', 'cross', 'main'])
const NOT_PRICE_AFTER = new Set(['deposit', 'deposite', 'dep', 'depo', 'security', 'advance', 'maintenance', 'maintainance', 'maint', 'mnt', 'brokerage', 'token', 'psf', 'persqft', 'sqft'])
/** Words counting something else than money after a plain number (`6 months`, `3 car parks`): not after `6.5 Lakhs/month`. */
const COUNTED_AFTER = new Set(['months', 'month', 'mnths', 'days', 'day', 'yrs', 'years', 'year', 'yr', 'floor', 'flr', 'floors', 'storey', 'min', 'mins', 'minutes', 'km', 'kms', 'cars', 'car', 'bath', 'baths', 'bathroom', 'bathrooms', 'toilet', 'toilets', 'wing', 'bed', 'beds', 'lift', 'lifts', 'percent', 'sec', 'side', 'open', 'covered', 'parking', 'parkings', 'seats', 'seater', 'cabins', 'cabin', 'workstations', 'ws', 'people', 'members', 'person', 'persons', 'rooms', 'room', 'balcony', 'balconies', 'mtr', 'meters', 'ft', 'feet', 'hrs', 'hours'])
const PRICE_WORDS = new Set(['rent', 'rental', 'budget', 'bugdet', 'budjet', 'bdgt', 'budgt', 'price', 'asking', 'ask', 'expected', 'exp', 'quoted', 'quote', 'cost', 'value', 'upto', 'till', 'max', 'maximum', 'within', 'under', 'below', 'around', 'approx', 'rate', 'deal', 'lease', 'sale', 'selling', 'total', 'for', 'at', 'only', 'kiraya', 'kiraye', 'bhada', 'pagdi', 'outright', 'tak', 'range', 'price:', 'cost:', 'leave', 'license', 'licence'])

const RENT_WORDS = new Set(['rent', 'rental', 'kiraya', 'kiraye', 'bhada', 'lease', 'leave', 'license', 'licence'])

export type Amount = Ranged & {
  /** How sure this is a price: 3 a unit, a currency or grouping said so; 2 a plain number of 1,000 or more; 1 a bare small number. */
  strength: 1 | 2 | 3
  /** A bare small number (`rent 45`): read by the deal, in thousands for rent and lakhs for sale. */
  bare: boolean
  /** A price word is next to it (`rent 45k`, `budget 50k`, `45k pm`). */
  cued: boolean
  /** The price word before it, if any (`rent`, `budget`): a rent named in a sale is an income, not the price. */
  cue?: string
}

function isYear(n: number, before: string[]) {
  return Number.isInteger(n) && n >= 1950 && n <= 2040 && !before.some((w) => PRICE_WORDS.has(w))
}

/** Every amount of the message that can be a price (deposits and the like are taken and left out). */
export function findAmounts(msg: Message): Amount[] {
  const out: Amount[] = []
  for (const m of msg.matches(AMOUNT)) {
    let [whole, cur1, n1, unit1, slash1, cur2, n2, unit2, slash2] = m
    const start = m.index
    let end = start + whole.length
    const after = msg.lower.slice(end, end + 1)
    // `2nd`, `12th`, `3bhk` (bhk is taken before; an ordinal is not), `9am`.
    if (!unit1 && !n2 && /[a-z]/.test(after)) continue
    if (n2 && !unit2 && /[a-z]/.test(after)) continue
    const a = toNumber(n1!)
    const b = n2 ? toNumber(n2) : null
    // A range's first amount without a unit takes the second's (`40-45k`, `1 to 1.2 Cr`).
    const u1 = unit1 ?? (b !== null ? unit2 : undefined)
    let low = exact(a * multiplier(u1))
    let high = b !== null ? exact(b * multiplier(unit2)) : low
    if (b !== null && high < low) [low, high] = [high, low]
    // `1 cr 20 lakh`
    const tail = b === null && /^(?:crores?|crs?|cr\.|c)$/.test(unit1 ?? '') ? /^\s*(?:and\s*)?(\d{1,2})\s*(?:lakhs?|lacs?|l)(?![a-z])/.exec(msg.lower.slice(end)) : null
    if (tail) {
      low = high = exact(low + Number(tail[1]) * 1e5)
      end += tail[0].length
    }
    const unit = Boolean(unit1 || unit2)
    const strong = unit || Boolean(cur1 || cur2 || slash1 || slash2) || /,/.test(n1! + (n2 ?? ''))
    const before = msg.wordsBefore(start, 3)
    const afterWords = msg.wordsAfter(end, 2)
    const next = afterWords[0]
    // `rent 45k deposit 2L`: "deposit" after 45k belongs to 2L, it is followed by its own number.
    const nextOwnsNumber = next !== undefined && /^\d/.test(afterWords[1] ?? '')
    const nearestCue = [...before].reverse().find((w) => PRICE_WORDS.has(w) || NOT_PRICE_BEFORE.has(w) || /^\d/.test(w))
    // A rate per square foot is market talk, not the price (`22k per sqft`, `28-32k psf`).
    const perArea = /^\s*(?:\/|per\s*)?\s*(?:sq\.?\s*ft|sqft|sft|psf|sq\.?\s*feet)\b/.test(msg.lower.slice(end, end + 16))
    const notPrice =
      perArea ||
      (nearestCue !== undefined && NOT_PRICE_BEFORE.has(nearestCue)) ||
      (next !== undefined && NOT_PRICE_AFTER.has(next) && !(nextOwnsNumber && /^(?:deposit|deposite|dep|depo|security|advance|maintenance|maint|mnt|brokerage|token)$/.test(next))) ||
      (!strong && next !== undefined && COUNTED_AFTER.has(next))
    if (notPrice) {
      msg.take(start, end, 'detail')
      continue
    }
    // Left free: a labelled number may be part of the locality's name (`Hinjewadi ph 1`, `Sector 15`).
    if (!strong && before.length > 0 && LABEL_BEFORE.has(before[before.length - 1]!)) continue
    if (!strong && isYear(a, before)) continue
    const cued = (nearestCue !== undefined && PRICE_WORDS.has(nearestCue)) || /^(?:rent|pm|p\.m|per|month|monthly|only|nego|negotiable|neg|tak|max|budget|all|inclusive|onwards|fixed|lumpsum|sudhi|paryant|paryent|varege|olage)$/.test(next ?? '')
    const strength: 1 | 2 | 3 = strong ? 3 : high >= 1000 ? 2 : 1
    if (strength === 1 && (high > 999 || high <= 0)) continue
    out.push({ low, high, start, end, strength, bare: strength === 1, cued, cue: nearestCue !== undefined && PRICE_WORDS.has(nearestCue) ? nearestCue : undefined })
    msg.take(start, end, 'budget')
  }
  return out
}

/**
 * The price among the amounts: the first one a unit, a currency or a price word marks; else the first plain number of
 * 1,000 or more; else a bare small number, read by the deal (rent: thousands, sale: lakhs) only when nothing else is
 * possible.
 */
export function choosePrice(all: Amount[], deal: 'SALE' | 'RENT'): Amount | null {
  // `3BHK for sale, rented at 45k, asking 2.1 Cr`: in a sale, a rent is what the buyer earns.
  const earned = (a: Amount) => deal === 'SALE' && a.cue !== undefined && RENT_WORDS.has(a.cue)
  const amounts = all.some((a) => !earned(a)) ? all.filter((a) => !earned(a)) : all
  const strong = amounts.filter((a) => a.strength === 3)
  const best = strong.find((a) => a.cued) ?? strong[0] ?? amounts.find((a) => a.strength === 2 && a.cued) ?? amounts.find((a) => a.strength === 2)
  if (best) return best
  const bare = amounts.find((a) => a.bare)
  if (!bare) return null
  const scale = deal === 'RENT' ? 1e3 : 1e5
  return { ...bare, low: exact(bare.low * scale), high: exact(bare.high * scale) }
}
