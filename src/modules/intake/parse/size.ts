import { NUM, toNumber, exact, type Ranged } from './numbers'
import type { Message } from './text'

// Areas, in square feet. Units other than feet are converted (a square yard or gaj is 9 sq ft, a square metre 10.764,
// a guntha 1,089, an acre 43,560): the listing's size is always square feet.
const UNITS: [RegExp, number][] = [
  [/^(?:sq\.?\s*y(?:ar)?ds?\.?|square\s*y(?:ar)?ds?|gaj|gaz|syd)$/, 9],
  [/^(?:sq\.?\s*m(?:tr?s?|eters?|etres?)?\.?|sqm|m2|m²|square\s*met(?:er|re)s?)$/, 10.764],
  [/^(?:acres?|acer)$/, 43_560],
  [/^(?:gunthas?|guntas?)$/, 1089],
]
const UNIT = String.raw`sq\.?\s*f(?:ee)?t\.?|sq\.?\s*feet|sqft|sq\.?ft|sft|sqf|square\s*f(?:ee|oo)?t|ft²|ft2|sq\.?\s*y(?:ar)?ds?\.?|square\s*y(?:ar)?ds?|gaj|gaz|syd|sq\.?\s*m(?:tr?s?|eters?|etres?)?\.?|sqm|m2|m²|square\s*met(?:er|re)s?|acres?|acer|gunthas?|guntas?|feet|ft`
const KIND = String.raw`(?:\s*(?:carpet|cpt|crpt|built\s*-?\s*up|builtup|bua|super\s*built\s*-?\s*up|super\s*area|sba|saleable|salable|rera(?:\s*carpet)?|plot\s*area|area|approx\.?))*`
const RANGE = String.raw`(?:\s*(?:-|–|to)\s*(${NUM}))?`
/** `650 sqft`, `650 sq ft carpet`, `1200-1300 sq.ft built up`, `650 carpet`, `1,200 sft`. */
const AFTER = new RegExp(String.raw`(?<![\w.])(${NUM})${RANGE}\+?\s*(?:(${UNIT})(?![a-z])(?!\s*(?:road|rd|wide|width|frontage|height|high|ceiling|long|lane|deep))${KIND}|(?=\s*(?:carpet|cpt|crpt|built\s*-?\s*up|builtup|bua|sba)\b)${KIND})`, 'g')
/** `carpet 650`, `carpet area: 650 sqft`, `area 1200`, `size - 900`. */
const BEFORE = new RegExp(String.raw`(?:carpet|cpt|built\s*-?\s*up|builtup|bua|super\s*built\s*-?\s*up|sba|area|size)(?:\s*area)?\s*(?:[:=\-]|of|is|approx\.?|around)*\s*(${NUM})${RANGE}(?:\s*(${UNIT})(?![a-z]))?${KIND}`, 'g')

const factor = (unit: string | undefined) => {
  if (!unit) return 1
  const u = unit.trim()
  return UNITS.find(([re]) => re.test(u))?.[1] ?? 1
}

/**
 * A plot given by its sides in feet, as Bengaluru writes sites (`30x40 site` is 1,200 sq ft, `40 X 60`, `50*80`). Both sides
 * 20 to 999 and the area at least 600, so `24x7 water` and a `12x14` bedroom are no size.
 */
const SIDES = /(?<![\w.])([2-9]\d{1,2})\s*(?:x|×|\*)\s*([2-9]\d{1,2})(?!\d)(?:\s*(?:ft|feet|sq\.?\s*ft|sqft)(?![a-z]))?/g

/** The first area the message gives, taken. */
export function findSize(msg: Message): Ranged | null {
  const found: Ranged[] = []
  for (const m of msg.matches(SIDES)) {
    const area = Number(m[1]) * Number(m[2])
    if (area < 600) continue
    found.push({ low: area, high: area, start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'size')
  }
  for (const re of [AFTER, BEFORE]) {
    for (const m of msg.matches(re)) {
      const f = factor(m[3])
      const a = toNumber(m[1]!)
      const b = m[2] ? toNumber(m[2]) : a
      if (!m[3] && re === BEFORE && (a < 100 || a > 1_000_000)) continue
      found.push({ low: exact(Math.min(a, b) * f), high: exact(Math.max(a, b) * f), start: m.index, end: m.index + m[0].length })
      msg.take(m.index, m.index + m[0].length, 'size')
    }
  }
  found.sort((x, y) => x.start - y.start)
  return found[0] ?? null
}
