import type { LocationZone } from '../../../shared/constants'
import { isShouting, shapedPlaces } from './shapes'
import { titleCase, type Message } from './text'

export type KnownLocality = { name: string; zone: LocationZone | null }

/** A lookup's answer: the locality, whether the words named only part of it, whether a first word or base alone did. */
type Found = { locality: KnownLocality; partial: boolean; byBase?: boolean } | null

/** Direction words as brokers shorten them, to the form localities are kept in (`Andheri W`, `andheri (w)`, `andheri wst`). */
const DIRECTION: Record<string, string> = { w: 'west', wst: 'west', west: 'west', e: 'east', est: 'east', east: 'east', n: 'north', north: 'north', s: 'south', south: 'south' }

/** First words that say nothing alone: `lower` is not Lower Parel. */
const GENERIC_FIRST = new Set(['lower', 'upper', 'greater', 'central', 'north', 'south', 'east', 'west', 'new', 'old', 'main', 'station', 'market', 'sector', 'phase', 'block', 'green', 'royal', 'palm', 'grand', 'city', 'park', 'river', 'lake', 'hill', 'hills', 'garden', 'gardens', 'tech', 'business', 'downtown', 'financial', 'silver', 'santa', 'saint', 'mount'])
/** Other shortenings of a name's words: `Mira Rd` is Mira Road. */
const SHORT: Record<string, string> = { rd: 'road', stn: 'station', mkt: 'market', ngr: 'nagar', sec: 'sector', sect: 'sector', ph: 'phase', stg: 'stage', blk: 'block' }
/** Words that end a locality's name after its own (`HSR Layout`, `Sinhagad Road`, `Hinjewadi Phase 1`): alone they name nothing. */
const SUFFIX = new Set(['layout', 'nagar', 'colony', 'road', 'extension', 'phase', 'stage', 'block', 'sector', 'park', 'city', 'town', 'enclave', 'vihar', 'puram', 'halli', 'palya', 'gardens', 'garden', 'estate', 'complex'])

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
/** `ph1`, `sec17`: a shortened label glued to its number. */
const glued = (w: string) => w.replace(/^(ph|sec|sect|stg|blk)(\d+)$/, (_, a: string, d: string) => SHORT[a]! + d)
const keyOf = (ws: string[]) => ws.map((w) => DIRECTION[w] ?? SHORT[w] ?? glued(w)).join(' ')
/** The numbers of a name, which a typo never changes: `Phase 2` is not a misspelt `Phase 1`. */
const digitsOf = (key: string) => key.replace(/\D+/g, ' ').trim()
const squeeze = (k: string) => k.replace(/ /g, '')

/**
 * The localities of a city, looked up the ways a message writes them: exactly (case, spacing, punctuation and
 * direction words aside: `andheri w` is Andheri West, `lowerparel` Lower Parel), and with a small typo (one edit in
 * five to eight letters, two from nine: `Andehri west`, `Ghatkoper`). Built once per city and kept (src/modules/intake/service.ts).
 */
export class LocalityIndex {
  private readonly exact = new Map<string, KnownLocality>()
  /** By first letter and length, for the typo search. */
  private readonly fuzzy = new Map<string, { key: string; digits: string; locality: KnownLocality }[]>()
  /** Answers already given, as a paste repeats its words (at most 10,000 kept: a long paste of nonsense costs no more). */
  private readonly memo = new Map<string, Found>()
  /** Base names shared by a West and an East (`andheri`): written alone they stay as written. */
  private readonly bases = new Map<string, KnownLocality[]>()
  /** Localities of two words or more by their first (`lokhandwala` → Lokhandwala Complex, `hsr` → HSR Layout), when it says enough alone. */
  private readonly firsts = new Map<string, KnownLocality[]>()
  /** Localities of two words or more by their initials (`kp` → Koregaon Park, `bkc` → Bandra Kurla Complex). */
  private readonly initials = new Map<string, KnownLocality[]>()
  /** Every locality's words, for names whose first word is shortened to its letter (`e city` → Electronic City). */
  private readonly named = new Map<string, { ws: string[]; locality: KnownLocality }[]>()
  readonly longest: number
  /** The city's own name and its other names (`Bengaluru`, `Bangalore`): alone, a city is no locality in it. */
  readonly cityWords: Set<string>

  constructor(
    readonly localities: KnownLocality[],
    readonly city: string | null = null,
  ) {
    this.cityWords = cityWordsOf(city)
    let longest = 1
    for (const l of localities) {
      const ws = words(l.name)
      if (!ws.length) continue
      longest = Math.max(longest, ws.length)
      const key = squeeze(keyOf(ws))
      if (!this.exact.has(key)) this.exact.set(key, l)
      const bucket = this.fuzzy.get(key[0]!) ?? []
      bucket.push({ key, digits: digitsOf(key), locality: l })
      this.fuzzy.set(key[0]!, bucket)
      const letter = ws[0]![0]!
      this.named.set(letter, [...(this.named.get(letter) ?? []), { ws: keyOf(ws).split(' '), locality: l }])
      // A first word says enough alone when it is long (`lokhandwala`), or when what follows it is only a generic suffix (`hsr layout`).
      const saysEnough = ws[0]!.length >= 5 || (ws[0]!.length >= 3 && ws.slice(1).every((w) => SUFFIX.has(w)))
      if (ws.length > 1 && saysEnough && !GENERIC_FIRST.has(ws[0]!) && !/\d/.test(ws[0]!)) this.firsts.set(ws[0]!, [...(this.firsts.get(ws[0]!) ?? []), l])
      // Direction words and numbers are not in a name's initials: `Andheri West` has none, `Electronic City Phase 1` is `ecp`.
      const lettered = ws.filter((w) => !DIRECTION[w] && !/\d/.test(w))
      if (lettered.length >= 2 && lettered.length <= 4) {
        const letters = lettered.map((w) => w[0]).join('')
        this.initials.set(letters, [...(this.initials.get(letters) ?? []), l])
      }
      const last = DIRECTION[ws[ws.length - 1]!]
      if (ws.length > 1 && last) {
        const base = squeeze(ws.slice(0, -1).join(' '))
        this.bases.set(base, [...(this.bases.get(base) ?? []), l])
      }
    }
    this.longest = Math.min(longest + 1, 5)
  }

  /** The locality these words name, if any; `typo` allows a small misspelling. */
  lookup(ws: string[], typo: boolean): Found {
    const key = `${typo ? 1 : 0}${ws.join(' ')}`
    let found = this.memo.get(key)
    if (found === undefined) {
      if (this.memo.size >= 10_000) this.memo.clear()
      found = this.find(ws, typo)
      this.memo.set(key, found)
    }
    return found
  }

  private find(ws: string[], typo: boolean): Found {
    const key = squeeze(keyOf(ws))
    const hit = this.exact.get(key)
    if (hit) return { locality: hit, partial: false }
    // `AndheriW`: the direction glued to the name.
    const glued = /^(.{4,})(w|e)$/.exec(key)
    const unglued = glued && this.exact.get(glued[1]! + (glued[2] === 'w' ? 'west' : 'east'))
    if (unglued) return { locality: unglued, partial: false }
    const sharing = this.bases.get(key)
    if (sharing) return sharing.length === 1 ? { locality: sharing[0]!, partial: false, byBase: true } : { locality: { name: titleCase(ws.join(' ')), zone: null }, partial: true }
    const first = ws.length === 1 ? this.firsts.get(ws[0]!) : undefined
    if (first?.length === 1) return { locality: first[0]!, partial: false, byBase: true }
    const cut = this.byFirstLetter(ws)
    if (cut) return { locality: cut, partial: false }
    if (!typo || key.length < 5) return null
    // A typo is in the name, never in its direction: `Mulund E` is not Mulund West.
    const side = /(west|east|north|south)$/.exec(key)?.[1] ?? ''
    const base = key.slice(0, key.length - side.length)
    const allowed = base.length >= 9 ? 2 : base.length >= 5 ? 1 : 0
    if (!allowed) return null
    let best: { d: number; locality: KnownLocality } | null = null
    const digits = digitsOf(key)
    for (const c of this.fuzzy.get(key[0]!) ?? []) {
      if (!c.key.endsWith(side) || c.digits !== digits) continue
      const cBase = c.key.slice(0, c.key.length - side.length)
      if (Math.abs(cBase.length - base.length) > allowed) continue
      const d = editDistance(base, cBase, allowed)
      if (d <= allowed && (!best || d < best.d)) best = { d, locality: c.locality }
    }
    return best ? { locality: best.locality, partial: false } : null
  }

  /** The only locality with these initials (`kp`), if one; two sharing them are both left unread. */
  byInitials(letters: string): KnownLocality | null {
    const found = this.initials.get(letters)
    return found?.length === 1 ? found[0]! : null
  }

  /**
   * A name whose first word is cut to its letter, `e city` or `E-city ph1` for Electronic City Phase 1: the only
   * locality whose first word starts with that letter and whose next words begin with the rest (a name may go on).
   */
  private byFirstLetter(ws: string[]): KnownLocality | null {
    if (ws.length < 2 || !/^\p{L}$/u.test(ws[0]!)) return null
    const rest = keyOf(ws.slice(1)).split(' ')
    if (rest.every((w) => SUFFIX.has(w) || /^\d+$/.test(w) || DIRECTION[w])) {
      const found = (this.named.get(ws[0]!) ?? []).filter((n) => n.ws.length > rest.length && n.ws[0]!.length > 1 && n.ws[0]!.startsWith(ws[0]!) && rest.every((w, k) => n.ws[k + 1] === w))
      if (found.length === 1) return found[0]!.locality
      // `e city` where Phase 1 and Phase 2 are both known: the one named as far as the message goes, if one is.
      const whole = found.filter((n) => n.ws.length === rest.length + 1)
      return whole.length === 1 ? whole[0]!.locality : null
    }
    return null
  }
}

/** Other names of cities, as brokers still write them. */
const CITY_ALIASES: Record<string, string[]> = {
  bengaluru: ['bangalore', 'blr', 'bengalore', 'banglore'],
  mumbai: ['bombay', 'mumbai'],
  chennai: ['madras'],
  kolkata: ['calcutta'],
  gurugram: ['gurgaon', 'ggn'],
  mohali: ['sas', 'mohali', 'mohalli'],
  'new delhi': ['delhi'],
  mysuru: ['mysore'],
  mangaluru: ['mangalore'],
  thiruvananthapuram: ['trivandrum'],
  pune: ['poona'],
  vadodara: ['baroda'],
}

function cityWordsOf(city: string | null): Set<string> {
  if (!city) return new Set()
  const key = city.toLowerCase().trim()
  return new Set([...words(key), key.replace(/\s+/g, ''), ...(CITY_ALIASES[key] ?? [])])
}

/** Optimal string alignment distance (a swap of neighbours is one edit), giving up past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length
  const m = b.length
  let prev2 = new Array<number>(m + 1).fill(0)
  let prev = Array.from({ length: m + 1 }, (_, j) => j)
  for (let i = 1; i <= n; i++) {
    const cur = new Array<number>(m + 1)
    cur[0] = i
    let rowMin = i
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1)
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    prev2 = prev
    prev = cur
  }
  return prev[m]!
}

/** Words that are never (part of) a place: they belong to other fields or to the sentence. */
const NOT_PLACE = new Set(
  (
    'a an the in at near nr opp opposite behind next to of on for with and or me mein mai main se pe par ka ki ke hai hain h tak only ' +
    'req avl rent sale lease buy sell available required requirement looking need wanted client urgent urgently call contact ' +
    'bhk rk flat flats apartment office shop plot land villa bungalow studio penthouse warehouse godown showroom ' +
    'furnished semi fully unfurnished furnish semifurnished fully-furnished family bachelor bachelors veg nonveg parking lift floor ' +
    'budget price deposit maintenance sqft carpet built up area size new old resale outright ready possession building society tower ' +
    'road station west east north south zone side please pls plz sir ji good morning hi hello all any one anyone ' +
    'upto till max maximum min minimum sudhi paryant budget sec sector sea view facing rd no number ready posn possession oc rcvd ' +
    // Kannada and Marathi words around a place: `Indiranagar alli` (in), `Kothrud la`, `Baner javal` (near), `beku` (wanted).
    'alli nalli hatra hattira javal kade la madhe madhye sathi beku baadige maratakke togollakke ide ge olage varege hazar te site sites khata'
  ).split(' '),
)
const PLACE_CUE = /(?:(?<![\p{L}\p{N}])(?:in|at|near|nr|opp|loc|location|locality|area|village|vill)|@|📍|➡️|👉)\s*[:\-–(]*\s*$/u

/** How far before a word its cue may start: the longest cue word and a little punctuation and space. */
const CUE_REACH = 24

export type Place = {
  locality: string
  zone: LocationZone | null
  known: boolean
  start: number
  end: number
  /**
   * How it was read: a known locality, a sector, phase or block (`shape`), after a cue (`in`, `Location:`), a line
   * that is only a name (`name`), another guess, or a sector or block beside the listing (`landmark`).
   */
  how: 'known' | 'shape' | 'cue' | 'name' | 'guess' | 'landmark'
}

/** A word that may follow a name's first word: a generic suffix or a number, glued to its label or not. */
const nameTail = (w: string) => SUFFIX.has(SHORT[w] ?? w) || /^(?:ph|sec|sect|stg|blk)?\d+$/.test(w)

/**
 * The locality the message names: the longest run of words a known locality matches (exactly before with a typo,
 * earliest first); else the place after `in` / `at` / `near` / 📍, as written in title case.
 */
export function findPlace(msg: Message, index: LocalityIndex): Place | null {
  const ws = [...msg.text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }))
  const known = knownPlace(msg, ws, index)
  if (known) return known
  const shaped = shapedPlaces(msg, ws, (x) => nameWord(msg, x, index))
  const shape = shaped.find((s) => !s.landmark && !(msg.fieldAt(s.start) && msg.fieldAt(s.start) !== 'locality'))
  if (shape) {
    // A sector the city knows (its admin accepted it, or listings use it) comes with its spelling and zone.
    const hit = index.lookup(words(shape.name), false)
    if (hit && !hit.partial && !hit.byBase) {
      msg.take(shape.start, shape.end, 'locality')
      return { locality: hit.locality.name, zone: hit.locality.zone, known: true, start: shape.start, end: shape.end, how: 'shape' }
    }
    return takePlace(msg, shape.name, shape.start, shape.end, 'shape')
  }
  return initialsPlace(msg, ws, index) ?? guessPlace(msg, ws, index) ?? (shaped[0] ? takePlace(msg, shaped[0].name, shaped[0].start, shaped[0].end, 'landmark') : null)
}

function takePlace(msg: Message, name: string, start: number, end: number, how: Place['how']): Place {
  msg.take(start, end, 'locality')
  return { locality: name, zone: null, known: false, start, end, how }
}

/** The longest run of words a known locality matches (exactly before with a typo, earliest first); never the city itself. */
function knownPlace(msg: Message, ws: W[], index: LocalityIndex): Place | null {
  for (const typo of [false, true]) {
    for (let i = 0; i < ws.length; i++) {
      for (let n = Math.min(index.longest, ws.length - i); n >= 1; n--) {
        const run = ws.slice(i, i + n)
        if (!msg.free(run[0]!.start, run[n - 1]!.end)) continue
        // Only spaces, dots, dashes and brackets between the words of one name: `Andheri (W)`, `T. Nagar`.
        if (!run.every((x, k) => k === 0 || /^[\s.\-()]*$/.test(msg.text.slice(run[k - 1]!.end, x.start)))) continue
        if (NOT_PLACE.has(run[0]!.w) || /^\d/.test(run[0]!.w)) continue
        // A typo is looked for in a name's words; after its first, a generic suffix or a number may follow (`Hinjewdi ph 1`).
        if (typo && run.some((x, k) => !(k > 0 && nameTail(x.w)) && ((NOT_PLACE.has(x.w) && !DIRECTION[x.w]) || /\d/.test(x.w)))) continue
        const hit = index.lookup(
          run.map((x) => x.w),
          typo,
        )
        if (!hit) continue
        // `Mulund E` when only Mulund West is known: the message says another place, taken as written below.
        const after = ws[i + n]
        if (hit.byBase && after && DIRECTION[after.w] && /^[\s(]*$/.test(msg.text.slice(run[n - 1]!.end, after.start))) continue
        // `Hinjewadi phase 2` when only Phase 1 is known: the message goes on with the name's next word, then differs.
        if (hit.byBase && goesOtherwise(keyOf(words(hit.locality.name)).split(' '), n, ws.slice(i + n, i + n + 3))) continue
        if (index.cityWords.has(squeeze(keyOf(words(hit.locality.name))))) continue
        let end = run[n - 1]!.end
        if (msg.text[end] === ')' && msg.text.slice(run[0]!.start, end).includes('(')) end++
        msg.take(run[0]!.start, end, 'locality')
        return { locality: hit.locality.name, zone: hit.locality.zone, known: !hit.partial, start: run[0]!.start, end, how: 'known' }
      }
    }
  }
  return null
}

/**
 * Initials that mean other things in a listing: certificates and authorities (OC, CC, NOC, RERA, BDA, SRA, MIDC),
 * paying guest, non-agricultural land, leave and licence, areas (SBA, CA), furnishing (FF, SF, UF), floors (GF, UG),
 * fittings (AC, DG, RO, CCTV, WC) and a broker's own words (NRI, EMI, ASAP, OK).
 */
const NOT_INITIALS = new Set(
  'oc cc noc rera bda sra midc sez dp tp pg na ll sba ba ca ua ff sf uf gf ug lg tf ac dg ro tv ev wc cctv it nri emi gst asap ok pls gmada huda puda glada hsvp mhada cidco dda loi sco scf mig lig hig ews bsp plc edc idc uds bua'.split(' '),
)

/**
 * A free word of two to four capitals that may be initials: none that mean other things in a listing (NOT_INITIALS),
 * and no word of the sentence, even in a message all in capitals (`FOR`, `ONLY`, `BEST`).
 */
const writtenAsInitials = (msg: Message, x: W) =>
  /^\p{Lu}{2,4}$/u.test(msg.text.slice(x.start, x.end)) && !NOT_INITIALS.has(x.w) && !NOT_PLACE.has(x.w) && !COMMON.has(x.w) && !DIRECTION[x.w] && msg.free(x.start, x.end)

/**
 * A known locality written as its initials in capitals, `KP` for Koregaon Park, `BKC` for Bandra Kurla Complex: only
 * when no name was found, the word is free, two to four capitals, and the only locality of the city with them. Capitals
 * only, since `kp` in lower case is as often a typo as a name; some initials mean other things (NOT_INITIALS).
 */
function initialsPlace(msg: Message, ws: W[], index: LocalityIndex): Place | null {
  for (const x of ws) {
    if (!writtenAsInitials(msg, x)) continue
    const hit = index.byInitials(x.w)
    if (!hit) continue
    msg.take(x.start, x.end, 'locality')
    return { locality: hit.name, zone: hit.zone, known: true, start: x.start, end: x.end, how: 'known' }
  }
  return null
}

type W = { w: string; start: number; end: number }

/** Do the message's next words begin the rest of a known name and then part from it (`phase 2` after `Hinjewadi` for `Hinjewadi Phase 1`)? */
function goesOtherwise(known: string[], from: number, next: W[]): boolean {
  for (let j = 0; j < next.length && from + j < known.length; j++) {
    const said = keyOf([next[j]!.w])
    if (said !== known[from + j]) return j > 0
  }
  return false
}

/** A word that may be (the start of) a place's name: letters only, three or more, no word of another field or of the sentence. */
const placeWord = (msg: Message, x: W, index?: LocalityIndex) =>
  msg.free(x.start, x.end) && !NOT_PLACE.has(x.w) && !COMMON.has(x.w) && !DESCRIPTIVE.has(x.w) && !index?.cityWords.has(x.w) && /^\p{L}{3,}$/u.test(x.w)

/** A word that may stand in a name around a phase or a block, or in a line that is only a name: a place word, or initials. */
export const nameWord = (msg: Message, x: W, index: LocalityIndex) =>
  placeWord(msg, x, index) || (/^\p{Lu}{2,4}$/u.test(msg.text.slice(x.start, x.end)) && !NOT_INITIALS.has(x.w) && !NOT_PLACE.has(x.w) && !COMMON.has(x.w) && !DESCRIPTIVE.has(x.w) && !index.cityWords.has(x.w) && msg.free(x.start, x.end))

/**
 * A place the network does not know, taken as written (title case, `W` / `E` written out), from where brokers put one:
 * after `in` / `at` / `near` / `@` / 📍 / `Location:`; before a direction word (`bhandup w`); right after the property
 * type or the intent words (`Avl 2bhk Wadala`, `Office avl on rent Airoli`, `plot for sale – Panvel`); else a line or
 * a comma's part that is nothing but a name (`MARBELLA GRAND`, `Vikas Nagar`: a project or a colony).
 */
function guessPlace(msg: Message, ws: W[], index: LocalityIndex): Place | null {
  // Short words in capitals are initials (`MG Road`, `DN Nagar`), unless the whole message is in capitals.
  const shouting = isShouting(msg.text)
  const initials = (x: W) => !shouting && writtenAsInitials(msg, x) && !index.cityWords.has(x.w)
  const at = (run: W[], how: Place['how']): Place => {
    let end = run[run.length - 1]!.end
    if (msg.text[end] === ')') end++
    // Title case, except initials (`BKC`, `MG Road`), which stay in capitals (read before the words are taken).
    const name = run.map((x) => (initials(x) ? x.w.toUpperCase() : titleCase(keyOf([x.w]))))
    msg.take(run[0]!.start, end, 'locality')
    return { locality: name.join(' '), zone: null, known: false, start: run[0]!.start, end, how }
  }
  /** The words from `i` that make the name: up to three, ending at a direction word or a generic suffix (`Linking Road`). */
  const runFrom = (i: number): W[] => {
    const run = [ws[i]!]
    for (let k = i + 1; k < ws.length && run.length < 3; k++) {
      const x = ws[k]!
      const gap = msg.text.slice(run[run.length - 1]!.end, x.start)
      if (!/^[ .()-]*$/.test(gap) || !msg.free(x.start, x.end) || index.cityWords.has(x.w)) break
      if (DIRECTION[x.w] || SUFFIX.has(SHORT[x.w] ?? x.w)) {
        run.push(x)
        break
      }
      if (!placeWord(msg, x, index) && !initials(x)) break
      run.push(x)
    }
    // `Hinjewadi Phase 2`: a generic suffix keeps its number.
    const next = ws[i + run.length]
    const last = run[run.length - 1]!
    if (next && SUFFIX.has(SHORT[last.w] ?? last.w) && /^\d{1,2}$/.test(next.w) && /^ ?$/.test(msg.text.slice(last.end, next.start)) && msg.free(next.start, next.end)) run.push(next)
    // `JP Nagar 7th Phase`, `Koramangala 3rd Block`: an ordinal and its suffix after the name are part of it.
    else {
      const [nth, what] = [ws[i + run.length], ws[i + run.length + 1]]
      if (nth && what && /^\d{1,2}(?:st|nd|rd|th)$/.test(nth.w) && /^(?:phase|stage|block|sector|cross|main)$/.test(what.w) && /^ ?$/.test(msg.text.slice(last.end, nth.start)) && / /.test(msg.text.slice(nth.end, what.start)) && msg.free(nth.start, what.end)) run.push(nth, what)
    }
    return run
  }
  for (let i = 0; i < ws.length; i++) {
    // `Location - zirakpur Patiala Highway`: the city after the cue is no locality; the name after it is.
    const cueAt = index.cityWords.has(ws[i]!.w) && i + 1 < ws.length && !msg.text.slice(ws[i]!.end, ws[i + 1]!.start).includes('\n') ? i + 1 : i
    const x = ws[cueAt]!
    // `in (North-Goa)`, `in South Delhi`: a direction before a name is part of it.
    const named = ws[cueAt + 1]
    if (DIRECTION[x.w] && x.w.length > 1 && named && placeWord(msg, named, index) && /^[ -]$/.test(msg.text.slice(x.end, named.start)) && msg.free(x.start, x.end) && PLACE_CUE.test(msg.lower.slice(Math.max(0, x.start - CUE_REACH), x.start))) {
      const rest = runFrom(cueAt + 1)
      return at([x, ...rest], 'cue')
    }
    if (!placeWord(msg, x, index) && !initials(x) && !saintly(msg, ws, cueAt)) continue
    // The cue is in the few characters before the word: testing the whole text before every word was quadratic.
    if (PLACE_CUE.test(msg.lower.slice(Math.max(0, ws[i]!.start - CUE_REACH), ws[i]!.start))) return at(runFrom(cueAt), 'cue')
  }
  for (let i = 0; i + 1 < ws.length; i++) {
    const next = ws[i + 1]!
    if (placeWord(msg, ws[i]!, index) && DIRECTION[next.w] && next.w.length <= 4 && /^[ (]*$/.test(msg.text.slice(ws[i]!.end, next.start)) && msg.free(next.start, next.end)) return at([ws[i]!, next], 'guess')
  }
  for (let i = 0; i < ws.length; i++) {
    if ((!placeWord(msg, ws[i]!, index) && !(initials(ws[i]!) && ws[i + 1] && placeWord(msg, ws[i + 1]!, index))) || ws[i]!.start === 0) continue
    // The nearest taken character before the word, across spaces and light punctuation only (`Plot for Sale – JP Nagar`).
    let j = ws[i]!.start - 1
    while (j >= 0 && /[ \t,:*–—|-]/.test(msg.text[j]!) && !msg.fieldAt(j)) j--
    const field = j >= 0 ? msg.fieldAt(j) : null
    if (field === 'property_type' || field === 'intent') return at(runFrom(i), 'guess')
  }
  // `Kandivali area mein`, `Malad side`: a name and the word for a neighbourhood.
  for (let i = 0; i + 1 < ws.length; i++) {
    if (placeWord(msg, ws[i]!, index) && /^(?:area|side|belt|region|wala|waala|vicinity)$/.test(ws[i + 1]!.w) && /^ +$/.test(msg.text.slice(ws[i]!.end, ws[i + 1]!.start))) return at([ws[i]!], 'guess')
  }
  // `Aerotropolis Mohali`, `Kharar, Mohali`: the name just before the city's is the place in it.
  for (let i = 1; i < ws.length; i++) {
    if (!index.cityWords.has(ws[i]!.w) || !/^[ ,.\-–]*$/.test(msg.text.slice(ws[i - 1]!.end, ws[i]!.start))) continue
    let from = i - 1
    while (from > 0 && i - from < 3 && placeWord(msg, ws[from - 1]!, index) && /^[ ]+$/.test(msg.text.slice(ws[from - 1]!.end, ws[from]!.start))) from--
    const run = ws.slice(from, i).filter((x) => placeWord(msg, x, index) || initials(x))
    if (run.length === i - from && run.length) return at(run, 'guess')
  }
  return nameLine(msg, ws, index, initials, at)
}

/** `St. Marks Road`, `Dr. Ambedkar Nagar`: a short title before a name. */
const saintly = (msg: Message, ws: W[], i: number) => /^(?:st|sri|shri|dr|mt)$/.test(ws[i]!.w) && msg.text[ws[i]!.end] === '.' && i + 1 < ws.length && /^\p{Lu}/u.test(msg.text.slice(ws[i + 1]!.start, ws[i + 1]!.end))

/** Words a name may end with although they say nothing alone (`Regalia Tower`, `The Lake`, `Gilco Park Hills`). */
export const NAME_TAIL = new Set(['tower', 'towers', 'heights', 'residency', 'residences', 'enclave', 'city', 'park', 'road', 'nagar', 'estate', 'estates', 'greens', 'complex', 'plaza', 'square', 'market', 'colony', 'vihar', 'garden', 'gardens', 'hills', 'valley', 'view', 'lake', 'grand', 'royal', 'towne', 'homes', 'villas', 'avenue', 'marg', 'chowk', 'highway', 'township', 'society', 'apartments', 'junction', 'point', 'the'])

/**
 * A line, or a part of one between commas, made of one to four name words and nothing else but a property type or
 * intent words (`MARBELLA GRAND`, `Marbella flat`, `Gate No 1, Vikas Nagar, NayaGoan`): a project or a colony.
 * A bracket's words are left aside (`Noble Aurellia (Rera Approved)`), and so is the city's own name.
 */
function nameLine(msg: Message, ws: W[], index: LocalityIndex, initials: (x: W) => boolean, at: (run: W[], how: Place['how']) => Place): Place | null {
  let k = 0
  let segmentStart = 0
  const text = msg.text
  while (segmentStart <= text.length) {
    let segmentEnd = segmentStart
    let depth = 0
    while (segmentEnd < text.length && !(depth === 0 && /[\n,|;:]/.test(text[segmentEnd]!))) {
      if (text[segmentEnd] === '(') depth++
      else if (text[segmentEnd] === ')') depth = Math.max(0, depth - 1)
      segmentEnd++
    }
    const segment = text.slice(segmentStart, segmentEnd)
    const inSegment: W[] = []
    // Words inside brackets are left aside; the depth is counted once along the segment, not again for every word.
    let upTo = segmentStart
    let inside = 0
    while (k < ws.length && ws[k]!.start < segmentEnd) {
      for (; upTo < ws[k]!.start; upTo++) {
        if (text[upTo] === '(') inside++
        else if (text[upTo] === ')') inside = Math.max(0, inside - 1)
      }
      if (ws[k]!.start >= segmentStart && inside === 0) inSegment.push(ws[k]!)
      k++
    }
    // `Aerocity any block`, `JLPL all sectors`: what a requirement accepts inside the place ends its name.
    const last2 = inSegment.slice(-2).map((x) => x.w)
    if (inSegment.length > 2 && /^(?:any|all|other)$/.test(last2[0]!) && /^(?:blocks?|sectors?|phases?|pockets?|towers?|floors?|sizes?|locations?)$/.test(last2[1]!)) inSegment.splice(-2)
    if (inSegment.length && inSegment.length <= 6 && !/[?!]/.test(segment)) {
      const named = inSegment.filter((x) => !['property_type', 'intent'].includes(msg.fieldAt(x.start) ?? '') && !index.cityWords.has(x.w))
      const fits =
        named.length >= 1 &&
        // Up to four words, five when the line is nothing else (`Eco City 2 New Chandigarh`).
        named.length <= (named.length === inSegment.length ? 5 : 4) &&
        named.every(
          (x, n) =>
            nameWord(msg, x, index) ||
            // `New Chandigarh`, `Old Ambala Road`: new or old before a name word is part of the name.
            ((x.w === 'new' || x.w === 'old') && n + 1 < named.length && nameWord(msg, named[n + 1]!, index) && msg.free(x.start, x.end)) ||
            initials(x) ||
            (n > 0 && (NAME_TAIL.has(x.w) || /^\d{1,3}$/.test(x.w)) && msg.free(x.start, x.end)) ||
            (n === 0 && x.w === 'the' && named.length > 1) ||
            // `AMBIKA LA PARISIAN`, `Bay of Bengal`: a short word joining a name's words.
            (n > 0 && n < named.length - 1 && /^(?:la|le|de|di|da|du|del|of|the|el|al|e|y)$/.test(x.w)),
        ) &&
        named.some((x) => x.w !== 'the' && !/^\d/.test(x.w)) &&
        // The words of the name stand together (a type or intent word only before or after them).
        named.every((x, n) => n === 0 || inSegment.indexOf(x) === inSegment.indexOf(named[n - 1]!) + 1) &&
        !FIRM.test(segment)
      if (fits) return at(named, 'name')
    }
    segmentStart = segmentEnd + 1
  }
  return null
}

/**
 * A broker's firm (`Castle Estates`, `ABC REALTORS`, `JK ASSOCIATES`, `PROPERTY POINT`): a signature, never a locality.
 * Not the building described (`Old construction`, `under construction`, `builder floor`).
 */
export const FIRM = /\b(?:estates|properties|(?:property|prop)(?=\s*(?:$|\(|point|junction|network|group|hub|zone|solutions?|consultants?|dealers?|advisors?|care|world|mart|bazaar|\d))|realtors?|realty|realtech|real\s*tech|real\s*estate|associates|consultants?|developers?|developer's|builders?(?!\s*floors?\b)|infra|infratech|infracon|group|ventures|enterprises?|advisors?|advisory|promoters?|buildcon|buildtech|(?<!\b(?:old|new|under|fresh|ongoing|quality|good|solid|latest|recent|original|owner)\s+)constructions?|solutions)\b|&\s*co\b/i

/**
 * Words that describe a listing without naming a place (Tricity posts put each on a line of its own: `PARK FACING`,
 * `REGISTRY CASE`, `Front pocket`, `GENUINE PRICE`): a line of them is no project's name.
 */
export const DESCRIPTIVE = new Set(
  (
    'storey story stories double triple tripple single facing park corner direction owner owners built newly brand renovated interior interiors ultra look ' +
    'luxury luxurious specious spacious genuine geniune price higher lower middle upper ground basement stilt gated beautiful work done registry registery ' +
    'case transfer confirm deal deals best location investment rera approved payment plan easy prime front pocket premium possession loan maximum white ' +
    'allotee allottee normal joda auction token tokan hand party girls boys service servant store study room rooms washroom washrooms bathroom bathrooms ' +
    'kitchen kitchens bedroom bedrooms lawn shed sheds meter meters electricity map freehold leasehold income coming period lock wide feet ' +
    'busiest value opportunity exciting fantastic listing team perfect investors business rare limited first come serve offer grab gone miss golden ' +
    'urgent sale launch launching alert pre hurry book hold booking amount dimension dimensions size total approx marla kanal gaj gaz acre acres bigha ' +
    'mudhouse khali plot plots mohalla residential commercial industrial inventory restocked available availability rent sell buy semi furnished ' +
    'unfurnished fully finish finished interior ready move immediate units unit non details detail more information info contact cont call whatsapp ' +
    'thanks regards sir madam please plz kindly only also new old big small good nice well maintained location locations connectivity amenities ' +
    'attached lift lifts parking covered reserved car cars balcony balconies terrace floor floors flat tower view east west north south southeast ' +
    'northeast northwest southwest approx approximately just with without near nearby opposite adjoining adjacent behind road main highway ' +
    'price negotiable nego fixed final rate demand asking budget require required requirement wanted client clients buyer buyers seller party ' +
    'registration registered clear title documents document verified approved legal dispute free hot new launch project projects phase sector block ' +
    'property properties deal dealer dealers broker brokers agent agents group job jobs salary experience telecaller incentives hiring vacancy ' +
    'allotment allotement gate spot configuration config highlights features specifications specs overview pocket pockets registry ' +
    'gmada huda puda glada hsvp mhada cidco dda bda bbmp pmc pcmc nit comercial commerical commericial adj adjoining adjacent backside infront ' +
    'uds bua sba carpet builtup'
  ).split(' '),
)

/** Words that follow a property type or an intent word without being a place. */
const COMMON = new Set(
  (
    'required requirement available urgent urgently immediate immediately ready new old good best nice big small spacious prime premium luxury ' +
    'fully semi furnished unfurnished sale rent lease resale outright only also under with without from near opposite behind road marg lane ' +
    'client owner direct tenant buyer investor family bachelor bachelors company corporate brand wanted looking need needed please kindly ' +
    'option options share within budget price approx sqft carpet builtup area floor high low very well east west north south facing view ' +
    'sea garden terrace balcony independent standalone commercial residential society building tower project complex wing available. any some ' +
    'chahiye dena hai kiraye kiraya bechna lena wala wali ke ki ka mein main pe par tak hoga chahie chaiye needs wants want ' +
    'kal aaj band rahega rahegi khula khuli chhutti today tomorrow yesterday closed open join group community'
  ).split(' '),
)

const ZONE = /\b(north|south|east|west|central)\s*(?:zone|side|mumbai|delhi|bangalore|bengaluru|pune|suburbs?|region)\b|\b(sobo|outskirts?)\b/g

/** A zone the message names outright (`west zone`, `south mumbai`, `SoBo`, `outskirts`). */
export function findZone(msg: Message): LocationZone | null {
  for (const m of msg.matches(ZONE)) {
    msg.take(m.index, m.index + m[0].length, 'location')
    if (m[1]) return titleCase(m[1]) as LocationZone
    return m[2] === 'sobo' ? 'South' : 'Outskirts'
  }
  return null
}
