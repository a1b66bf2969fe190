import { exact, NUM, toNumber, type Ranged } from './numbers'
import type { Message } from './text'

const CUR = String.raw`(?:₹|rs\.?|inr|usd|aed|dhs?|gbp|eur|sgd|[cas]\$|\$|£|€|¥)`
const UNIT = String.raw`k|thousands?|hazaa?r|hajaa?r|savira|lakhs?|lacs?|laks?|lacks?|lkhs?|lks?|l|crores?|crs?|cr\.|c|millions?|mn|m|bn`
// `113.Cr`: a dot may stand between the number and its unit.
const ONE = String.raw`(${CUR}\s*)?(${NUM})(?:\s*\.?\s*(${UNIT})(?![a-z&]))?(\s*\/-)?`
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

/**
 * Words that make the amount after them something else than the price: a deposit, the maintenance, a brokerage, the
 * cheque part of a Tricity deal (`White 75 Lacs`), a balance (`BALANCE- @45`), a booking or allotment amount, a rate
 * at allotment (`ALLOTMENT @8100`), a salary.
 */
const NOT_PRICE_BEFORE = new Set([
  'deposit', 'deposite', 'dep', 'depo', 'security', 'sd', 'advance', 'maintenance', 'maintainance', 'maint', 'mnt', 'mntc', 'mntnc', 'brokerage', 'token', 'tokan', 'booking', 'book',
  'emi', 'loan', 'corpus', 'stamp', 'charges', 'charge', 'escalation', 'lockin', 'lock', 'registration', 'income', 'yield', 'roi', 'returns', 'return', 'white', 'balance', 'bal',
  'allotment', 'allotement', 'alotment', 'salary', 'incentive', 'incentives', 'gain', 'benefit', 'profit', 'appreciation', 'period',
])
/** Words naming a number that is no amount (`shop no 12`, `floor 7`, `sector 15`): only right before a number without a unit. */
const LABEL_BEFORE = new Set(['floor', 'flr', 'no', 'number', 'plot', 'sector', 'sec', 'wing', 'tower', 'unit', 'flat', 'shop', 'room', 'phase', 'gate', 'building', 'bldg', 'year', 'yr', 'since', 'built', 'age', 'old', 'road', 'platform', 'lane', 'society', 'ph', 'stage', 'stg', 'block', 'blk', 'cross', 'main', 'kothi', 'house', 'sco', 'scf', 'booth', 'time', 'rooms'])
/** People counted after a number: never money. */
const PEOPLE = new Set(['brokers', 'agents', 'members', 'users', 'customers', 'clients', 'people', 'persons', 'families', 'students', 'visitors', 'followers', 'downloads', 'subscribers', 'investors', 'buyers'])
/** Labels of a place's number: `Sector 70`, `Phase 7`, `Block 4`. */
const PLACE_LABEL = new Set(['sector', 'sec', 'sect', 'sctr', 'phase', 'ph', 'block', 'blk', 'pocket', 'stage', 'stg'])
const NOT_PRICE_AFTER = new Set(['deposit', 'deposite', 'dep', 'depo', 'security', 'advance', 'maintenance', 'maintainance', 'maint', 'mnt', 'brokerage', 'token', 'psf', 'persqft', 'sqft', 'booking', 'white', 'lead', 'leads', "lead's", 'salary'])
/** Words counting something else than money after a plain number (`6 months`, `3 car parks`): not after `6.5 Lakhs/month`. */
const COUNTED_AFTER = new Set(['months', 'month', 'mnths', 'days', 'day', 'yrs', 'years', 'year', 'yr', 'floor', 'flr', 'floors', 'storey', 'story', 'min', 'mins', 'minutes', 'km', 'kms', 'cars', 'car', 'bath', 'baths', 'bathroom', 'bathrooms', 'toilet', 'toilets', 'washroom', 'washrooms', 'wing', 'bed', 'beds', 'lift', 'lifts', 'percent', 'side', 'open', 'covered', 'parking', 'parkings', 'seats', 'seater', 'cabins', 'cabin', 'workstations', 'ws', 'people', 'members', 'person', 'persons', 'rooms', 'room', 'balcony', 'balconies', 'mtr', 'meters', 'ft', 'feet', 'hrs', 'hours', 'kitchen', 'kitchens', 'shed', 'sheds', 'units', 'shops', 'kw', 'kva'])
const PRICE_WORDS = new Set(['rent', 'rental', 'budget', 'bugdet', 'budjet', 'bdgt', 'budgt', 'price', 'asking', 'ask', 'expected', 'exp', 'quoted', 'quote', 'cost', 'value', 'upto', 'till', 'max', 'maximum', 'within', 'under', 'below', 'around', 'approx', 'rate', 'deal', 'lease', 'sale', 'selling', 'total', 'for', 'at', 'only', 'kiraya', 'kiraye', 'bhada', 'pagdi', 'outright', 'tak', 'range', 'price:', 'cost:', 'leave', 'license', 'licence', 'demand', 'dmd', 'bsp', 'goodwill', 'final', 'worth', 'monthly'])

/** What a price is called in a sale (`Rate 95 lakh`, `Demand 5.75`, `@4.70`): beside a rent it earns, it is the price. */
const SALE_PRICE_WORDS = new Set(['price', 'asking', 'ask', 'expected', 'rate', 'demand', 'dmd', 'bsp', 'cost', 'value', 'budget', 'outright', 'selling', '@'])
/** Words saying an amount is by the month: in a sale, it is what the property earns. */
const RENT_WORDS = new Set(['rent', 'rental', 'kiraya', 'kiraye', 'bhada', 'lease', 'leave', 'license', 'licence', 'monthly'])
const EARNING_BEFORE = new Set(['monthly', 'rental', 'rented', 'prerented', 'tenanted', 'coming', 'income', 'leased', 'preleased'])
const MONTHLY_AFTER = /^\s*(?:\/-\s*)?(?:pm\b|p\.m\b|per\s*month|\/\s*month|\/\s*m\b|a\s*month|monthly|rent\b|rental\b)/

export type Amount = Ranged & {
  /** How sure this is a price: 3 a unit, a currency or grouping said so; 2 a plain number of 1,000 or more; 1 a bare small number. */
  strength: 1 | 2 | 3
  /** A bare small number (`rent 45`): read by the deal, in thousands for rent and lakhs or crores for sale. */
  bare: boolean
  /** A price word is next to it (`rent 45k`, `budget 50k`, `45k pm`, `@4.70`). */
  cued: boolean
  /** The price word before it, if any (`rent`, `budget`, `@`): a rent named in a sale is an income, not the price. */
  cue?: string
  /** Said to be by the month (`rent 50K`, `9 lakhs monthly`, `11.50 lac Rent`): in a sale, an income. */
  monthly: boolean
  /** Its unit, if written (`l`, `cr`, `k`). */
  unit?: string
}

function isYear(n: number, before: string[]) {
  return Number.isInteger(n) && n >= 1950 && n <= 2040 && !before.some((w) => PRICE_WORDS.has(w))
}

/**
 * Clock times and dates (`5 pm`, `7pm`, `10:30`, `16th june`, `17/6/2025`) are no amounts, and `pm` after a time no month.
 * A date keeps one separator: `1-1.25 cr` is a range of crores, not the first of January '25.
 */
const TIME = /(?<![\w.,:])(?:(?:1[0-2]|0?\d)(?:[:.][0-5]\d)?\s*(?:a\.?m\.?|p\.?m\.?)(?![a-z])|\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}(?:st|nd|rd|th)?\s*(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b|\d{1,2}([/.-])\d{1,2}\1\d{2,4})(?![\w])/g
/** A per-area or per-unit rate after an amount: `/sqft`, `per sq yard`, `/Gaj`, `per bigha`, `/Plot`. */
const PER_AREA = /^\s*\)?\s*(?:\/-\s*)?(?:\/|per\s*|p\.?\s*)\s*(?:sq\.?\s*(?:ft|feet|yds?|yards?|yrds?|mtrs?|m)\b|sqft|sft|sq\.?ft|square\s*\w+|gaj|gaz|guj|gz|sqyds?|syds?|marla|kanal|acre|bigha|biga|bhiga|plot|unit|flat|sq\b)|^\s*(?:psf|persqft)\b/
/** A PIN code after a city (`Bangalore – 560034`): six digits, no unit, no grouping. */
const PIN = /^[1-8]\d{5}$/

/**
 * `Block A 200 gaj double story 4.30`: a figure with a fraction that ends a line naming a size or a kind is that item's
 * price, as brokers list inventory one a line (a house or plot number has no fraction; `2.5 storey` is counted); so is
 * one alone on its line in a text that gives a size or a kind.
 */
function closesItem(msg: Message, start: number, end: number, n: string, second: number | null, measured: () => boolean): boolean {
  if (second !== null || !/^\d{1,3}\.\d{1,2}$/.test(n) || !/^[\s.,;)*_~!-]*(?:\n|$)/.test(msg.lower.slice(end, end + 8))) return false
  const from = msg.lower.lastIndexOf('\n', start - 1) + 1
  // A figure alone on its line (`300 gaj` / `2.65`) prices the listing whose size or kind the text has given.
  if (/^[\s*_~•-]*$/.test(msg.lower.slice(from, start))) return measured()
  for (let i = from; i < start; i++) {
    const field = msg.fieldAt(i)
    if (field === 'size' || field === 'property_type') return true
  }
  return false
}

export function takeTimes(msg: Message): void {
  for (const m of msg.matches(TIME)) msg.take(m.index, m.index + m[0].length, 'detail')
}

/** Every amount of the message that can be a price (deposits and the like are taken and left out). */
export function findAmounts(msg: Message): Amount[] {
  const out: Amount[] = []
  // Has a size or a kind been read (looked at once, and only for a figure alone on its line)?
  let sized: boolean | undefined
  const measured = () => {
    if (sized === undefined) {
      sized = false
      for (let i = 0; i < msg.text.length && !sized; i++) sized = msg.fieldAt(i) === 'size' || msg.fieldAt(i) === 'property_type'
    }
    return sized
  }
  for (const m of msg.matches(AMOUNT)) {
    let [whole, cur1, n1, unit1, slash1, cur2, n2, unit2, slash2] = m
    const start = m.index
    // `sec 117 - 65 lac`: a labelled number is no range's first end; read again from the amount after it.
    if (n2 && !unit1 && !cur1 && LABEL_BEFORE.has(msg.wordsBefore(start, 1)[0] ?? '')) {
      AMOUNT.lastIndex = start + whole.indexOf(n2, n1!.length)
      continue
    }
    let end = start + whole.length
    const after = msg.lower.slice(end, end + 1)
    // `2nd`, `12th`, `3bhk` (bhk is taken before; an ordinal is not), `9am`.
    if (!unit1 && !n2 && /[a-z]/.test(after)) continue
    if (n2 && !unit2 && /[a-z]/.test(after)) continue
    const a = toNumber(n1!)
    const b = n2 ? toNumber(n2) : null
    // `14,000 L sump`: litres, not lakhs (no one means 140 crore with a bare L).
    if ((unit1 === 'l' && a >= 1000) || (unit2 === 'l' && (b ?? 0) >= 1000)) {
      msg.take(start, end, 'detail')
      continue
    }
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
    // `SEC 46C`, `Sector 35 C`: a C after a sector's number is its name, not crores (`phase 13k` stays a rent).
    if (b === null && unit1 === 'c' && !cur1 && /^(?:sector|sec|sect|phase|ph|block|blk|pocket|plot|no)$/.test(msg.wordsBefore(start, 1)[0] ?? '')) continue
    const unit = Boolean(unit1 || unit2)
    // `/-` closes a rupee amount (`25000/-`); after a small figure (`Rate 5.75/-`) it says no unit, so the figure stays bare.
    const slashed = Boolean(slash1 || slash2) && Math.max(a, b ?? 0) >= 1000
    const strong = unit || Boolean(cur1 || cur2 || slashed) || /,/.test(n1! + (n2 ?? ''))
    const before = msg.wordsBefore(start, 3)
    const afterWords = msg.wordsAfter(end, 2)
    const next = afterWords[0]
    // `rent 45k deposit 2L`: "deposit" after 45k belongs to 2L, it is followed by its own number.
    const nextOwnsNumber = next !== undefined && /^\d/.test(afterWords[1] ?? '')
    // `Rent: ₹68,000 + maintenance`: the charge after a plus is added to the amount, it does not name it.
    const plus = /^\s*(?:\/-\s*)?\(?\s*\+/.test(msg.lower.slice(end, end + 8))
    const nearestCue = [...before].reverse().find((w) => PRICE_WORDS.has(w) || NOT_PRICE_BEFORE.has(w) || /^\d/.test(w))
    // `@4.70`, `Price@ 75,000`: an at sign right before the number names its price.
    const at = /@\s*[-:]?\s*$/.test(msg.lower.slice(Math.max(0, start - 4), start))
    // A rate per square foot, per gaj or per plot is market talk, not the price (`22k per sqft`, `90K/Gaj`, `60 Lac per bigha`).
    const perArea = PER_AREA.test(msg.lower.slice(end, end + 20))
    // A sector's or a phase's number is the place's, also after a word naming something else (`rental income Sector 70`).
    if (!strong && !at && b === null && PLACE_LABEL.has(before[before.length - 1] ?? '')) continue
    const notPrice =
      perArea ||
      (nearestCue !== undefined && NOT_PRICE_BEFORE.has(nearestCue)) ||
      (next !== undefined && NOT_PRICE_AFTER.has(next) && !plus && !(nextOwnsNumber && /^(?:deposit|deposite|dep|depo|security|advance|maintenance|maint|mnt|brokerage|token)$/.test(next))) ||
      (!strong && next !== undefined && COUNTED_AFTER.has(next)) ||
      // `10,000+ brokers`, `1,200 families`: people counted, however the number is written, unless money is said.
      (!unit && !cur1 && !cur2 && next !== undefined && PEOPLE.has(next))
    if (notPrice) {
      msg.take(start, end, 'detail')
      continue
    }
    // Left free: a labelled number may be part of the locality's name (`Hinjewadi ph 1`, `Sector 15`).
    if (!strong && !at && before.length > 0 && LABEL_BEFORE.has(before[before.length - 1]!)) continue
    if (!strong && isYear(a, before)) continue
    if (!strong && !at && b === null && PIN.test(n1!)) {
      msg.take(start, end, 'detail')
      continue
    }
    // A bare number is a price only right after its word (`Demand 5.75`, `Budget 3.5`): `Total floor -S+5` is no total.
    const adjacent = strong || before[before.length - 1] === nearestCue
    const cueWord = at ? '@' : nearestCue !== undefined && PRICE_WORDS.has(nearestCue) && adjacent ? nearestCue : undefined
    const cued = cueWord !== undefined || /^(?:rent|pm|p\.m|per|month|monthly|only|nego|negotiable|neg|tak|max|budget|all|inclusive|onwards|fixed|final|lumpsum|sudhi|paryant|paryent|varege|olage)$/.test(next ?? '') || closesItem(msg, start, end, n1!, b, measured)
    const strength: 1 | 2 | 3 = strong ? 3 : high >= 1000 ? 2 : 1
    if (strength === 1 && (high > 999 || high <= 0)) continue
    // A number no price word, unit or currency marks is a house, plot or sector number, a count or a chat time, not a
    // price (`kothi 2425`, `JLPL 82`, `Medallion 82`).
    if (strength < 3 && !cued) continue
    // `Pre rented 35k`, `Rented 1.2 lac`, `rental income 67000`: what it earns by the month.
    const monthly =
      (cueWord !== undefined && RENT_WORDS.has(cueWord)) ||
      EARNING_BEFORE.has([...(msg.lower.slice(Math.max(0, start - 30), start).split('\n').pop()!.match(/[\p{L}\p{N}]+/gu) ?? []).slice(-3)].reverse().find((w) => EARNING_BEFORE.has(w) || PRICE_WORDS.has(w)) ?? '') ||
      MONTHLY_AFTER.test(msg.lower.slice(end, end + 16))
    out.push({ low, high, start, end, strength, bare: strength === 1, cued, cue: cueWord, monthly, unit: (unit2 ?? unit1)?.replace(/\.$/, '') })
    msg.take(start, end, 'budget')
  }
  return out
}

/**
 * A bare sale amount in crores or lakhs: under ten crores, else lakhs (`Demand 5.75`, `@146.50`); when the size is
 * known, the reading that gives a price per square foot a property can have (₹500 to ₹1,00,000): `@10.25` for 1,000
 * sq yd is 10.25 crore, `@104` for a kanal 104 lakh.
 */
function saleScale(n: number, sqft: number | null): number {
  const first = n < 10 ? 1e7 : 1e5
  if (!sqft) return first
  const fits = (scale: number) => (n * scale) / sqft >= 500 && (n * scale) / sqft <= 100_000
  return fits(first) ? first : [1e7, 1e5].find(fits) ?? first
}
const RENT_SCALE = (n: number) => (n < 10 && !Number.isInteger(n) ? 1e5 : 1e3)

/** A sale's amount read as brokers mean it: `.70 Lakh` is 70 lakh, `113 Cr` (the point lost) 1.13 crore. */
function saleReading(a: Amount): Amount {
  const u = a.unit ?? ''
  if (/^(?:lakhs?|lacs?|laks?|lacks?|lkhs?|lks?|l)$/.test(u) && a.high < 1e5) return { ...a, low: exact(a.low * 100), high: exact(a.high * 100) }
  if (/^(?:crores?|crs?|cr|c)$/.test(u) && a.low >= 1e9 && a.low < 1e10 && Number.isInteger(a.low / 1e7)) return { ...a, low: exact(a.low / 100), high: exact(a.high / 100) }
  return a
}

/**
 * The price among the amounts: the first one a unit, a currency or a price word marks; else the first plain number of
 * 1,000 or more; else a bare small number a price word marks, read by the deal: a rent in thousands (`rent 45`; lakhs
 * under ten with a fraction, `rent 1.5`), a sale in lakhs, or crores under ten (`Demand 5.75`, `@4.70`, `Budget 3.5`,
 * as Tricity brokers write them; `@146.50` is 146.5 lakh).
 * In a sale, an amount by the month is what the property earns, and a plain number under a lakh is no price; `literal`
 * (a listing shared from Brokernet) reads the amount as written.
 */
export function choosePrice(all: Amount[], deal: 'SALE' | 'RENT', literal = false, sqft: number | null = null): Amount | null {
  const earned = (a: Amount) => deal === 'SALE' && a.monthly && !literal
  const amounts = (all.some((a) => !earned(a)) ? all.filter((a) => !earned(a)) : deal === 'SALE' ? [] : all).map((a) => (deal === 'SALE' && !literal ? saleReading(a) : a))
  // A listing shared from Brokernet says its amount exactly (`SALE | … | $65,021`): read as written.
  const plausible = literal ? amounts : amounts.filter((a) => !(deal === 'SALE' && !a.bare && a.high < 1e5 && !a.unit))
  const strong = plausible.filter((a) => a.strength === 3)
  const best = strong.find((a) => a.cued) ?? strong[0] ?? plausible.find((a) => a.strength === 2 && a.cued) ?? plausible.find((a) => a.strength === 2)
  if (best) return best
  const bare = amounts.find((a) => a.bare)
  if (!bare) return null
  const scale = deal === 'RENT' ? RENT_SCALE(bare.high) : saleScale(bare.high, sqft)
  return { ...bare, low: exact(bare.low * scale), high: exact(bare.high * scale) }
}

/** Is there a price a sale would name (`Rate 95 lakh`, `Demand 5.75`, `@146.50`, `1.35 CR`) besides the rent it earns? */
export const salePriced = (all: Amount[]) => all.some((a) => !a.monthly && ((a.cue !== undefined && SALE_PRICE_WORDS.has(a.cue)) || a.strength === 3) && (a.bare || a.high >= 1e6 || /^(?:crores?|crs?|cr|c|lakhs?|lacs?|l)$/.test(a.unit ?? '')))
