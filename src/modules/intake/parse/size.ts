import { NUM, toNumber, exact, type Ranged } from './numbers'
import type { Message } from './text'

// Areas, in square feet. Units other than feet are converted (a square yard or gaj is 9 sq ft, a square metre 10.764,
// a marla 225 (GMADA's 25 sq yd), a kanal 4,500 (20 marla), a guntha 1,089, an acre 43,560): the listing's size is
// always square feet.
const YARDS = String.raw`sq\.?\s*y(?:ar)?ds?\.?|sq\.?\s*yrds?\.?|square\s*y(?:ar)?ds?|sqyds?|syds?|sys?|gaj|gaaj|gaz|guj|guaj|gz|gj`
const UNITS: [RegExp, number][] = [
  [new RegExp(String.raw`^(?:${YARDS})$`), 9],
  [/^(?:sq\.?\s*m(?:tr?s?|eters?|etres?)?\.?|sqm|m2|m²|square\s*met(?:er|re)s?)$/, 10.764],
  [/^(?:acres?|acer)$/, 43_560],
  [/^(?:gunthas?|guntas?)$/, 1089],
  [/^(?:marlas?|marle)$/, 225],
  [/^(?:kanals?|kanaal)$/, 4500],
]
const FEET = String.raw`sq\.?\s*f(?:ee)?ts?\.?|sq\.?\s*feet|sqfts?|sq\.?fts?|sft|sqf|square\s*f(?:ee|oo)?t|ft²|ft2`
const UNIT = String.raw`${FEET}|${YARDS}|sq\.?\s*m(?:tr?s?|eters?|etres?)?\.?|sqm|m2|m²|square\s*met(?:er|re)s?|acres?|acer|gunthas?|guntas?|marlas?|marle|kanals?|kanaal|feet|ft`
const KIND = String.raw`(?:\s*(?:carpet|cpt|crpt|built\s*-?\s*up|builtup|bua|super\s*built\s*-?\s*up|super\s*area|sba|saleable|salable|rera(?:\s*carpet)?|plot\s*area|area|approx\.?))*`
const RANGE = String.raw`(?:\s*(?:-|–|to)\s*(${NUM}))?`
/** `650 sqft`, `650 sq ft carpet`, `1200-1300 sq.ft built up`, `650 carpet`, `1,200 sft`, `10marla`, `1 Kanal`, `300 gaj`. */
const AFTER = new RegExp(String.raw`(?<![\w.])(${NUM})${RANGE}\+?\s*(?:(${UNIT})(?![a-z])(?![ \t]*(?:road|rd|wide|width|frontage|height|high|ceiling|long|lane|deep)\b)${KIND}|(?=\s*(?:carpet|cpt|crpt|built\s*-?\s*up|builtup|bua|sba)\b)${KIND})`, 'g')
/** `carpet 650`, `carpet area: 650 sqft`, `area 1200`, `size - 900`, `Total Area: Approx. 5,700 sq.ft`. */
const BEFORE = new RegExp(String.raw`(?:carpet|cpt|built\s*-?\s*up|builtup|bua|super\s*built\s*-?\s*up|sba|area|size)(?:\s*area)?(?:\s*(?:[:=\-]|of|is|approx\.?|around))*\s*(${NUM})${RANGE}(?:\s*(${UNIT})(?![a-z]))?${KIND}`, 'g')
/** `AVAILABLE KANAL`: a kanal with no number is one kanal. */
const ONE_KANAL = /(?<![\d.]\s{0,3})\b(?:one\s+)?kanal(?![a-z])/g
/** Words whose number comes right after them (`Sector 91`, `plot no 35`, `Phase 7`): such a number is no size (a `Plot 100-150 gaj` is). */
const NUMBER_LABEL = /(?<![\p{L}])(?:sector|sectors|sec|sect|sctr|phase|ph|block|blk|pocket|no|number|gate|tower|floor|unit)\s*[-.:#]*\s*$/u
/** A length, not an area: `Front: 180 Feet`, `road 40 ft`. */
const LENGTH_BEFORE = /\b(?:front|frontage|road|width|wide|depth|length|height|facing)\s*[:\-–]?\s*$/

const factor = (unit: string | undefined) => {
  if (!unit) return 1
  const u = unit.trim()
  return UNITS.find(([re]) => re.test(u))?.[1] ?? 1
}
/** Land is measured in yards, marla, kanal, acres; floors in feet and metres. Two sizes of different kinds are one listing's plot and built-up area. */
const landUnit = (unit: string | undefined) => factor(unit) === 9 || factor(unit) > 11

/**
 * A plot given by its sides in feet, as Bengaluru writes sites (`30x40 site` is 1,200 sq ft, `40 X 60`, `50*80`). Both sides
 * 20 to 999 and the area at least 600, so `24x7 water` and a `12x14` bedroom are no size.
 */
const SIDES = /(?<![\w.])([2-9]\d{1,2})\s*(?:x|×|\*)\s*([2-9]\d{1,2})(?!\d)(?:\s*(?:ft|feet|sq\.?\s*ft|sqft)(?![a-z]))?/g

export type Size = Ranged & {
  /** Land (yards, marla, kanal, acres) or floor (feet, metres). */
  land: boolean
  /** The kind said before it (`Carpet Area:`, `Plot Size:`, `UDS:`, `Built-up:`, `Covered`, `Open area`): two kinds are two measures of one listing. */
  label: string | null
  /** Read from a plot's sides (`66 × 87 ft`): its dimensions, beside which an area may be written. */
  sides?: boolean
}

const LABEL = /\b(carpet|built\s*-?\s*up|builtup|super|sba|plot|land|uds|saleable|rera|covered|open)\b[^\n\d]{0,16}$/

/** The first area the message gives, taken; sides (`30x40`) only when no area is written with its unit. */
export function findSize(msg: Message): Size | null {
  const found: Size[] = []
  const sides: Size[] = []
  const labelAt = (start: number) => LABEL.exec(msg.lower.slice(Math.max(0, start - 24), start).split('\n').pop()!)?.[1]?.replace(/[\s-]/g, '') ?? null
  for (const m of msg.matches(SIDES)) {
    const area = Number(m[1]) * Number(m[2])
    if (area < 600) continue
    sides.push({ low: area, high: area, start: m.index, end: m.index + m[0].length, land: false, label: labelAt(m.index), sides: true })
    msg.take(m.index, m.index + m[0].length, 'size')
  }
  for (const re of [AFTER, BEFORE]) {
    for (const m of msg.matches(re)) {
      // `Sector 91 - 100 sq yd`, `Plot no 35 - 250 gaj`: a labelled number is no range's first end; read from the second.
      if (m[2] && re === AFTER && NUMBER_LABEL.test(msg.lower.slice(Math.max(0, m.index - 12), m.index))) {
        re.lastIndex = m.index + m[0].indexOf(m[2], m[1]!.length)
        continue
      }
      const f = factor(m[3])
      const a = toNumber(m[1]!)
      const b = m[2] ? toNumber(m[2]) : a
      if (!m[3] && re === BEFORE && (a < 100 || a > 1_000_000)) continue
      // `11 ft floor-to-roof`, `42 ft front`: feet alone measure a length under a hundred; `front 180 feet` too.
      const unit = m[3]?.trim()
      if (unit && /^(?:feet|ft)$/.test(unit) && (Math.max(a, b) < 100 || LENGTH_BEFORE.test(msg.lower.slice(Math.max(0, m.index - 16), m.index)))) continue
      // The kind said before it (`Carpet 1250 sqft`) or after it (`1250 sqft carpet`, `1650 sq ft super area`).
      const after = re === AFTER ? /(carpet|cpt|crpt|built\s*-?\s*up|builtup|bua|super|sba|saleable|salable|rera|plot)/.exec(m[0].slice(m[1]!.length))?.[1] : undefined
      const label = labelAt(m.index) ?? (after ? ({ cpt: 'carpet', crpt: 'carpet', bua: 'builtup', salable: 'saleable' } as Record<string, string>)[after] ?? after.replace(/[\s-]/g, '') : null)
      found.push({ low: exact(Math.min(a, b) * f), high: exact(Math.max(a, b) * f), start: m.index, end: m.index + m[0].length, land: landUnit(m[3]), label })
      msg.take(m.index, m.index + m[0].length, 'size')
    }
  }
  for (const m of msg.matches(ONE_KANAL)) {
    found.push({ low: 4500, high: 4500, start: m.index, end: m.index + m[0].length, land: true, label: null })
    msg.take(m.index, m.index + m[0].length, 'size')
  }
  const all = found.length ? found : sides
  all.sort((x, y) => x.start - y.start)
  return all[0] ?? null
}

/** Are two sizes of one message the sizes of two listings (`300 gaj` then `500 gaj`), not a plot and its built-up area? */
export function differentSizes(a: Size, b: Size): boolean {
  if (a.sides || b.sides) return false
  return a.land === b.land && a.label === b.label && (a.low !== b.low || a.high !== b.high)
}
