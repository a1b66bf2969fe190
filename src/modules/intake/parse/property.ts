import type { Message } from './text'

/**
 * Property types, written as the listing form suggests them. The first one named wins, except the word "flat", which
 * only counts when nothing else is said (`2bhk flat` is a `2 BHK`). Two configurations (`2/3 BHK`) give the first.
 * `3+1 BHK` (a servant or study room besides three bedrooms) is a 3 BHK: its leading count, never `1 BHK`.
 */
const CONFIG = /(?<![\w.+])(\d(?:\.5)?)(\s*\+\s*1(?!\d))?\s*(?:(?:\/|,|or|&|and|-)\s*\d(?:\.5)?\s*){0,4}[-\s]?(bhk|b\.h\.k\.?|bhks|rk|r\.k\.?|room\s*(?:&\s*|and\s*)?kitchen|bed\s*(?:room)?s?\s*(?:hall\s*)?(?:kitchen)?|bedrooms?|br)(?![a-z])/g
/** `4+1 semi furnished` in a flat's post: the BHK left out. Not `G+3` or `S+5` (floors), nor `2+1 parking`. */
const PLUS_ONE = /(?<![\w.+])([2-6])\s*\+\s*1(?![\d.+])(?!\s*(?:floors?|storey|story|stories|parking|parkings|car|cars|lift|bath|baths|washroom|toilet|kitchen|balcon))/g
const FLAT_CONTEXT = /\b(?:flats?|apartments?|furnished|semi[\s-]?furnished|floor|tower|society)\b/

/** Words before a type that make it a neighbour, not the thing on offer: `near shops`, `opp. hotel`. */
const NEAR = String.raw`(?<!\b(?:near|nr|opp|opposite|behind|beside|above|facing)\.?\s+)`
/** …and where someone sits, for an office: `at the office`, `our office`, `head office`, `site office`. */
const WHERE = String.raw`(?<!\b(?:the|our|my|your|his|her|their|head|site|near|nr|opp|opposite|behind|beside)\.?\s+)`
/** …and a house that is no listing: a guest house, a club house, a pump house. */
const OTHER_HOUSE = String.raw`(?<!\b(?:guest|club|pump|power|store|light|court|green|ware|boat|tree|work|dog|opera|in|full|open|near|nr|opp|opposite|behind|beside)\.?\s+)`
/** Words after a type that make it something else: an office room, a shop's number in an address, a house number. */
const NOT_AFTER = String.raw`(?!\s*(?:room|rooms|cabin|boy|staff|timing|timings|hours|address|no\b|no\.|number|#|keeping|tax|owners?\s+looking))`

/** `Single storey`, `Triple Storey`: a built house (a kothi) in North India's posts, unless something else is named. */
const STOREYS = /\b(?:single|double|triple|tripple|trippal|one|two|three|four|1|2|3|4|2\.5|1\.5)\s*-?\s*(?:storey|story|storeyed|storied)(?![a-z])/g

/** Each kind's pattern, with the letters one of its words must contain: a line without them is not searched (the patterns' lookbehinds cost more than the test). */
const KINDS: [RegExp, string][] = [
  // `RK` alone is a one-room kitchen.
  [/(?<![\w.])rk(?![a-z])/g, '1 RK'],
  [/\bstudio(?:\s*(?:apartment|apt|flat))?(?![a-z])/g, 'Studio'],
  [/\b(?:pent\s*house|penta\s*house|penthouses)(?![a-z])/g, 'Penthouse'],
  // `villa plots`: plots to build a villa on.
  [/\b(?:villa|villas)(?![a-z])(?!\s*plot)/g, 'Villa'],
  [/\b(?:bungalow|bunglow|banglow|bungalo|bunglaw|bungalows)(?![a-z])/g, 'Bungalow'],
  [/\brow\s*-?\s*house(?:s)?(?![a-z])/g, 'Row House'],
  [/\bfarm\s*-?\s*house(?:s)?(?![a-z])/g, 'Farm House'],
  [/\bduplex(?![a-z])/g, 'Duplex'],
  // A kothi is North India's independent house; `house` alone too, but not a guest house, a club house or a house number.
  [new RegExp(String.raw`${OTHER_HOUSE}\b(?:independent\s+(?:house|kothi|villa|bungalow|floor)|kothi|kothis|kothee|koti|house|houses|makaan|makan)(?![a-z])${NOT_AFTER}`, 'g'), 'House'],
  // `Single storey`, `Triple Storey`, `G+2`-less `double story`: a built house (a kothi) in North India's posts.
  [STOREYS, 'House'],
  [/\bshow\s*-?\s*room(?:s)?(?![a-z])/g, 'Showroom'],
  // Shop-cum-office (Tricity's SCO, SCF), a commercial unit of several floors.
  [/\b(?:sco|scf|scos|shop\s*-?\s*cum\s*-?\s*office|shop\s*-?\s*cum\s*-?\s*flat)(?![a-z])/g, 'SCO'],
  [new RegExp(String.raw`${WHERE}\b(?:office\s*spaces?|commercial\s*office|office|offices|ofc|offc)(?![a-z])${NOT_AFTER}`, 'g'), 'Office'],
  // Chandigarh's booth is a small shop.
  [/\b(?:booth|booths|kiosk)(?![a-z])/g, 'Booth'],
  [new RegExp(String.raw`${NEAR}\b(?:retail\s*shop|retail\s*space|shop|shops|dukan)(?![a-z])${NOT_AFTER}`, 'g'), 'Shop'],
  // An industrial shed or a factory is let and sold as a warehouse is; a shed alone only when offered (`4 shed` are counted).
  [/\b(?:warehouse|warehouses|godown|godowns|go\s*down|gowdown|godaam|godam|factory|factories|industrial\s+sheds?|sheds?(?=\s*(?:for\s+(?:sale|rent|lease)|available|avl)))(?![a-z])/g, 'Warehouse'],
  [new RegExp(String.raw`${NEAR}\bhotels?(?![a-z])`, 'g'), 'Hotel'],
  // A whole building on offer, not the building a flat is in: `commercial building`, `building for rent`.
  [/\b(?:(?:commercial|industrial|residential|independent|whole|entire|complete|full)\s+building|building(?=\s*(?:for\s+(?:sale|rent|lease)|available|avl)))(?![a-z])/g, 'Building'],
  // `Plot Size:`, `Plot Facing:`, `plot area` label the land under a house, not a plot on offer.
  [/\b(?:plot|plots|plot's|n\.?a\.?\s*plot)(?![a-z])(?!\s*(?:size|area|facing|dimensions?|dimension|length|width)\b)/g, 'Plot'],
  // GMADA's letter of intent is a plot allotted and not yet registered: brokers trade it as a plot.
  [/\b(?:loi|lois|loi's)(?![a-z])/g, 'Plot'],
  // Bengaluru's word for a plot (`30x40 site`, `BDA site`); a site visit, a site office or being on site is none.
  [/(?<!\b(?:on|at|from|to)\s+)\b(?:site|sites)(?![a-z])(?!\s*(?:visit|visits|visited|office|engineer|supervisor|work|address|plan|photos?|pics?|dimensions?))/g, 'Plot'],
  // `Land: 60×66`, `Total Land: 3 Bigha`: the land under a house, a field's label.
  [/(?<!\btotal\s+)\b(?:land|agri\s*land|agricultural\s*land|zameen)(?![a-z])(?!\s*(?::|area\b|size\b))/g, 'Land'],
  // A commercial property with no other word for it.
  [/\bcommercial\s+(?:property|properties|space|unit|premises)(?![a-z])/g, 'Commercial'],
  [/\b(?:flat|flats|flate|flatt|apartment|apartments|apt|appartment|appt)(?![a-z])/g, 'Apartment'],
  // Punjabi, in Gurmukhi, as Tricity's brokers write a word or a heading (`ਪਲਾਟ ਵਿਕਾਊ ਹੈ`, a plot for sale): plot, kothi or
  // house, shop, land (ਜ਼ with its dot precomposed or not), flat.
  [/(?<![\p{L}\p{M}])(?:ਪਲਾਟ|ਪਲਾਂਟ)(?![\p{L}\p{M}])/gu, 'Plot'],
  [/(?<![\p{L}\p{M}])(?:ਕੋਠੀ|ਮਕਾਨ)(?![\p{L}\p{M}])/gu, 'House'],
  [/(?<![\p{L}\p{M}])(?:ਦੁਕਾਨ)(?![\p{L}\p{M}])/gu, 'Shop'],
  [/(?<![\p{L}\p{M}])(?:ਜ\u0A3C?ਮੀਨ|\u0A5Bਮੀਨ)(?![\p{L}\p{M}])/gu, 'Land'],
  [/(?<![\p{L}\p{M}])(?:ਫਲੈਟ)(?![\p{L}\p{M}])/gu, 'Apartment'],
]

/** KINDS' letters, in its order. */
const HINTS: string[][] = [
  ['rk'],
  ['studio'],
  ['pent'],
  ['villa'],
  ['bung', 'bang'],
  ['row'],
  ['farm'],
  ['duplex'],
  ['house', 'kot', 'makaan', 'makan', 'independent'],
  ['stor'],
  ['show'],
  ['sco', 'scf', 'cum'],
  ['off', 'ofc'],
  ['booth', 'kiosk'],
  ['shop', 'dukan', 'retail'],
  ['ware', 'down', 'godaam', 'godam', 'factor', 'shed'],
  ['hotel'],
  ['building'],
  ['plot'],
  ['loi'],
  ['site'],
  ['land', 'zameen'],
  ['commercial'],
  ['fla', 'apart', 'apt', 'appt', 'appart'],
  ['ਪਲਾ'],
  ['ਕੋਠੀ', 'ਮਕਾਨ'],
  ['ਦੁਕਾਨ'],
  ['ਮੀਨ'],
  ['ਫਲੈਟ'],
]
if (HINTS.length !== KINDS.length) throw new Error('property.ts: a kind without its hint letters')

/** Words whose number comes right after them (`sector 1`, `phase 2`, `floor 3`): such a number is no configuration. */
const NUMBER_LABELS = new Set(['sector', 'sec', 'phase', 'ph', 'stage', 'block', 'blk', 'floor', 'flr', 'no', 'number', 'wing', 'tower', 'plot', 'shop', 'building', 'bldg', 'road', 'cross', 'main', 'lane', 'gate', 'unit'])

export type Property = {
  type: string
  start: number
  end: number
  /** `3+1` for a 3 BHK with a servant or study room: a listing of it is another than a plain 3 BHK's. */
  plusOne?: boolean
  /** Read from the floors only (`Double storey`): a house, or the building another word names. */
  weak?: boolean
  /** A plot or a site named with its measure (`Plot 2,400 sq.ft`, `Site 40×60`): beside a home, the land it stands on. */
  measure?: boolean
}

/** Homes built on land: a plot named with its measure beside one of them is that home's land, not a second property. */
const BUILT = new Set(['House', 'Villa', 'Bungalow', 'Duplex', 'Row House', 'Farm House', 'Penthouse'])
const isHome = (p: Pick<Property, 'type'>) => BUILT.has(p.type) || /^\d(?:\.5)? (?:BHK|RK)$/.test(p.type)
/** The measure right after a plot's word (`Plot 2,400 sq.ft`, `Site: 40×60`, `plot of 200 gaj`). */
const MEASURED = /^\s*(?:[:\-–=]\s*|of\s+)?\d/

/**
 * Uses, not the property: `Ideal for: Commercial Complex, Office Spaces, Showrooms`, `Best suited for PG HOTEL GUEST
 * HOUSE`, `Perfect for investors or business owners looking to…` (taken as details, so no recogniser reads them).
 */
const USES = /\b(?:ideal|best|suitable|perfect|good|suited|useful|fit|best\s+suited)\s+(?:for|as)\b[^.!|\n;,\d]*/g
export const USES_HEAD = /\b(?:ideal|best|suitable|perfect|good|suited)\s+for\b[^\n]*:\s*$/

export function takeUses(msg: Message): void {
  for (const m of msg.matches(USES)) msg.take(m.index, m.index + m[0].length, 'detail')
  // A heading `Ideal for Development:` and the bullets under it.
  let at = 0
  const lines = msg.lower.split('\n')
  let under = false
  for (const line of lines) {
    if (under && /^\s*[•▪➤►✅🔹🔸👉*-]/u.test(line)) msg.take(at, at + line.length, 'detail')
    else under = USES_HEAD.test(line)
    at += line.length + 1
  }
}

export function findProperty(msg: Message): Property | null {
  const found: (Property & { rank: number })[] = []
  for (const m of msg.matches(CONFIG)) {
    let n = m[1]!
    let start = m.index
    // `sector 1, 3BHK`, `phase 2 / 3 BHK`: the first number belongs to the label before it, the configuration is the last.
    const label = msg.wordsBefore(m.index, 1)[0]
    const numbers = [...m[0].replace(/\+\s*1(?!\d)/, '').matchAll(/\d(?:\.5)?/g)]
    if (label && NUMBER_LABELS.has(label) && numbers.length > 1) {
      const last = numbers[numbers.length - 1]!
      n = last[0]
      start = m.index + m[0].indexOf(last[0], m[1]!.length)
    }
    const kind = m[3]!.replace(/[.\s]/g, '')
    const type = kind.startsWith('rk') || kind.startsWith('room') ? `${n} RK` : `${n} BHK`
    found.push({ type, start, end: m.index + m[0].length, rank: 0, plusOne: Boolean(m[2]) && start === m.index })
    msg.take(start, m.index + m[0].length, 'property_type')
  }
  if (!found.length && FLAT_CONTEXT.test(msg.lower)) {
    for (const m of msg.matches(PLUS_ONE)) {
      found.push({ type: `${m[1]} BHK`, start: m.index, end: m.index + m[0].length, rank: 0, plusOne: true })
      msg.take(m.index, m.index + m[0].length, 'property_type')
      break
    }
  }
  KINDS.forEach(([re, type], i) => {
    if (!HINTS[i]!.some((h) => msg.lower.includes(h))) return
    for (const m of msg.matches(re)) {
      // A flat or a house with its configuration is that configuration (`2bhk flat`, `Independent house 3BHK`).
      const storeys = re === STOREYS
      const measure = (type === 'Plot' || type === 'Land') && MEASURED.test(msg.lower.slice(m.index + m[0].length, m.index + m[0].length + 4))
      found.push({ type, start: m.index, end: m.index + m[0].length, rank: type === 'Apartment' ? 3.1 : storeys ? 3.05 : type === 'House' ? 3 : 1 + i / 100, ...(storeys ? { weak: true } : {}), ...(measure ? { measure: true } : {}) })
      msg.take(m.index, m.index + m[0].length, 'property_type')
    }
  })
  // `4 BHK Villa … Plot 2,400 sq.ft`, `Independent House … Site 40×60`: the plot is the land under the home.
  if (found.some(isHome)) for (let i = found.length - 1; i >= 0; i--) if (found[i]!.measure) found.splice(i, 1)
  if (!found.length) return null
  // The first named (`studio or 1rk` is a Studio); a bare "flat" only when nothing else is said (a `2 BHK flat` is a 2 BHK).
  const named = found.filter((f) => f.rank < 3).sort((a, b) => a.start - b.start)[0]
  const { rank: _, ...best } = named ?? [...found].sort((a, b) => a.rank - b.rank || a.start - b.start)[0]!
  return best
}

/** Kinds one listing may name together (`3BHK kothi`, `plot … land`, `SCO … showroom`): no sign of a second listing. */
const HOME = new Set(['Apartment', 'House', 'Villa', 'Bungalow', 'Penthouse', 'Duplex', 'Row House', 'Farm House', 'Studio'])
const GROUND = new Set(['Plot', 'Land'])
const TRADE = new Set(['Commercial', 'Shop', 'Booth', 'SCO', 'Showroom', 'Office', 'Building', 'Hotel', 'Warehouse'])

/** Do two types named in one message say two different properties (`3 BHK` then `4 BHK`, a plot then a shop)? */
export function differentProperties(a: Property, b: Property): boolean {
  if (a.weak || b.weak) return false
  if ((a.measure && isHome(b)) || (b.measure && isHome(a))) return false
  const bhk = (p: Property) => /^\d(?:\.5)? (?:BHK|RK)$/.test(p.type)
  if (bhk(a) && bhk(b)) return a.type !== b.type || Boolean(a.plusOne) !== Boolean(b.plusOne)
  if (a.type === b.type) return false
  if (bhk(a) || bhk(b)) return !HOME.has(bhk(a) ? b.type : a.type)
  if (HOME.has(a.type) && HOME.has(b.type)) return !(a.type === 'Apartment' || a.type === 'House' || b.type === 'Apartment' || b.type === 'House')
  if (GROUND.has(a.type) && GROUND.has(b.type)) return false
  if (TRADE.has(a.type) && TRADE.has(b.type)) return !(a.type === 'Commercial' || b.type === 'Commercial' || a.type === 'SCO' || b.type === 'SCO' || a.type === 'Building' || b.type === 'Building')
  return true
}
