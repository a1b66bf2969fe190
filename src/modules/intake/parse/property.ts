import type { Message } from './text'

/**
 * Property types, written as the listing form suggests them. The first one named wins, except the word "flat", which
 * only counts when nothing else is said (`2bhk flat` is a `2 BHK`). Two configurations (`2/3 BHK`) give the first.
 */
const CONFIG = /(?<![\w.])(\d(?:\.5)?)\s*(?:(?:\/|,|or|&|and|-)\s*\d(?:\.5)?\s*){0,4}[-\s]?(bhk|b\.h\.k\.?|bhks|rk|r\.k\.?|room\s*(?:&\s*|and\s*)?kitchen|bed\s*(?:room)?s?\s*(?:hall\s*)?(?:kitchen)?|bedrooms?|br)(?![a-z])/g
const KINDS: [RegExp, string][] = [
  // `RK` alone is a one-room kitchen.
  [/(?<![\w.])rk(?![a-z])/g, '1 RK'],
  [/\bstudio(?:\s*(?:apartment|apt|flat))?(?![a-z])/g, 'Studio'],
  [/\bpent\s*house(?![a-z])/g, 'Penthouse'],
  [/\b(?:villa|villas)(?![a-z])/g, 'Villa'],
  [/\b(?:bungalow|bunglow|banglow|bungalo|bunglaw|bungalows)(?![a-z])/g, 'Bungalow'],
  [/\brow\s*-?\s*house(?:s)?(?![a-z])/g, 'Row House'],
  [/\bduplex(?![a-z])/g, 'Duplex'],
  [/\bshow\s*-?\s*room(?:s)?(?![a-z])/g, 'Showroom'],
  [/\b(?:office\s*spaces?|commercial\s*office|office|offices|ofc|offc)(?![a-z])/g, 'Office'],
  [/\b(?:retail\s*shop|retail\s*space|shop|shops|dukan)(?![a-z])/g, 'Shop'],
  [/\b(?:warehouse|warehouses|godown|godowns|go\s*down|gowdown|godaam|godam)(?![a-z])/g, 'Warehouse'],
  [/\b(?:plot|plots|n\.?a\.?\s*plot)(?![a-z])/g, 'Plot'],
  // Bengaluru's word for a plot (`30x40 site`, `BDA site`); a site visit, a site office or being on site is none.
  [/(?<!\b(?:on|at|from|to)\s+)\b(?:site|sites)(?![a-z])(?!\s*(?:visit|visits|visited|office|engineer|supervisor|work|address|plan|photos?|pics?))/g, 'Plot'],
  [/\b(?:land|agri\s*land|agricultural\s*land|zameen)(?![a-z])/g, 'Land'],
  [/\b(?:flat|flats|apartment|apartments|apt|appartment|appt)(?![a-z])/g, 'Apartment'],
]

/** Words whose number comes right after them (`sector 1`, `phase 2`, `floor 3`): such a number is no configuration. */
const NUMBER_LABELS = new Set(['sector', 'sec', 'phase', 'ph', 'stage', 'block', 'blk', 'floor', 'flr', 'no', 'number', 'wing', 'tower', 'plot', 'shop', 'building', 'bldg', 'road', 'cross', 'main', 'lane', 'gate', 'unit'])

export type Property = { type: string; start: number; end: number }

export function findProperty(msg: Message): Property | null {
  const found: (Property & { rank: number })[] = []
  for (const m of msg.matches(CONFIG)) {
    let n = m[1]!
    let start = m.index
    // `sector 1, 3BHK`, `phase 2 / 3 BHK`: the first number belongs to the label before it, the configuration is the last.
    const label = msg.wordsBefore(m.index, 1)[0]
    const numbers = [...m[0].matchAll(/\d(?:\.5)?/g)]
    if (label && NUMBER_LABELS.has(label) && numbers.length > 1) {
      const last = numbers[numbers.length - 1]!
      n = last[0]
      start = m.index + last.index
    }
    const kind = m[2]!.replace(/[.\s]/g, '')
    const type = kind.startsWith('rk') || kind.startsWith('room') ? `${n} RK` : `${n} BHK`
    found.push({ type, start, end: m.index + m[0].length, rank: 0 })
    msg.take(start, m.index + m[0].length, 'property_type')
  }
  KINDS.forEach(([re, type], i) => {
    for (const m of msg.matches(re)) {
      // "Land" is also a landmark and "office" also where a broker sits: both count only if nothing else was named.
      found.push({ type, start: m.index, end: m.index + m[0].length, rank: type === 'Apartment' ? 3 : 1 + i / 100 })
      msg.take(m.index, m.index + m[0].length, 'property_type')
    }
  })
  if (!found.length) return null
  // The first named (`studio or 1rk` is a Studio); a bare "flat" only when nothing else is said (a `2 BHK flat` is a 2 BHK).
  const named = found.filter((f) => f.rank < 3).sort((a, b) => a.start - b.start)[0]
  return named ?? found[0]!
}
