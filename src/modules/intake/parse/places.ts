import type { LocationZone } from '../../../shared/constants'
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

  constructor(readonly localities: KnownLocality[]) {
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
const PLACE_CUE = /(?:(?<![\p{L}\p{N}])(?:in|at|near|nr|opp|loc|location|locality|area)|@|📍|➡️|👉)\s*[:\-–]?\s*$/u

/** How far before a word its cue may start: the longest cue word and a little punctuation and space. */
const CUE_REACH = 24

export type Place = { locality: string; zone: LocationZone | null; known: boolean; start: number; end: number }

/** A word that may follow a name's first word: a generic suffix or a number, glued to its label or not. */
const nameTail = (w: string) => SUFFIX.has(SHORT[w] ?? w) || /^(?:ph|sec|sect|stg|blk)?\d+$/.test(w)

/**
 * The locality the message names: the longest run of words a known locality matches (exactly before with a typo,
 * earliest first); else the place after `in` / `at` / `near` / 📍, as written in title case.
 */
export function findPlace(msg: Message, index: LocalityIndex): Place | null {
  const ws = [...msg.text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }))
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
        let end = run[n - 1]!.end
        if (msg.text[end] === ')' && msg.text.slice(run[0]!.start, end).includes('(')) end++
        msg.take(run[0]!.start, end, 'locality')
        return { locality: hit.locality.name, zone: hit.locality.zone, known: !hit.partial, start: run[0]!.start, end }
      }
    }
  }
  return initialsPlace(msg, ws, index) ?? guessPlace(msg, ws)
}

/**
 * Initials that mean other things in a listing: certificates and authorities (OC, CC, NOC, RERA, BDA, SRA, MIDC),
 * paying guest, non-agricultural land, leave and licence, areas (SBA, CA), furnishing (FF, SF, UF), floors (GF, UG),
 * fittings (AC, DG, RO, CCTV, WC) and a broker's own words (NRI, EMI, ASAP, OK).
 */
const NOT_INITIALS = new Set(
  'oc cc noc rera bda sra midc sez dp tp pg na ll sba ba ca ua ff sf uf gf ug lg tf ac dg ro tv ev wc cctv it nri emi gst asap ok pls'.split(' '),
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
    return { locality: hit.name, zone: hit.zone, known: true, start: x.start, end: x.end }
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
const placeWord = (msg: Message, x: W) => msg.free(x.start, x.end) && !NOT_PLACE.has(x.w) && !COMMON.has(x.w) && /^\p{L}{3,}$/u.test(x.w)

/**
 * A place the network does not know, taken as written (title case, `W` / `E` written out), from where brokers put one:
 * after `in` / `at` / `near` / `@` / 📍; before a direction word (`bhandup w`); or right after the property type or the
 * intent words (`Avl 2bhk Wadala`, `Office avl on rent Airoli`, `plot for sale – Panvel`).
 */
function guessPlace(msg: Message, ws: W[]): Place | null {
  // Short words in capitals are initials (`MG Road`, `DN Nagar`), unless the whole message is in capitals.
  const shouting = isShouting(msg.text)
  const initials = (x: W) => !shouting && writtenAsInitials(msg, x)
  const at = (i: number, run: W[]): Place => {
    let end = run[run.length - 1]!.end
    if (msg.text[end] === ')') end++
    // Title case, except initials (`BKC`, `MG Road`), which stay in capitals (read before the words are taken).
    const name = run.map((x) => (initials(x) ? x.w.toUpperCase() : titleCase(keyOf([x.w]))))
    msg.take(run[0]!.start, end, 'locality')
    return { locality: name.join(' '), zone: null, known: false, start: run[0]!.start, end }
  }
  /** The words from `i` that make the name: up to three, ending at a direction word or a generic suffix (`Linking Road`). */
  const runFrom = (i: number): W[] => {
    const run = [ws[i]!]
    for (let k = i + 1; k < ws.length && run.length < 3; k++) {
      const x = ws[k]!
      const gap = msg.text.slice(run[run.length - 1]!.end, x.start)
      if (!/^[ .()-]*$/.test(gap) || !msg.free(x.start, x.end)) break
      if (DIRECTION[x.w] || SUFFIX.has(SHORT[x.w] ?? x.w)) {
        run.push(x)
        break
      }
      if (!placeWord(msg, x)) break
      run.push(x)
    }
    // `Hinjewadi Phase 2`: a generic suffix keeps its number.
    const next = ws[i + run.length]
    const last = run[run.length - 1]!
    if (next && SUFFIX.has(SHORT[last.w] ?? last.w) && /^\d{1,2}$/.test(next.w) && /^ ?$/.test(msg.text.slice(last.end, next.start)) && msg.free(next.start, next.end)) run.push(next)
    return run
  }
  for (let i = 0; i < ws.length; i++) {
    if (!placeWord(msg, ws[i]!) && !initials(ws[i]!)) continue
    // The cue is in the few characters before the word: testing the whole text before every word was quadratic.
    if (PLACE_CUE.test(msg.lower.slice(Math.max(0, ws[i]!.start - CUE_REACH), ws[i]!.start))) return at(i, runFrom(i))
  }
  for (let i = 0; i + 1 < ws.length; i++) {
    const next = ws[i + 1]!
    if (placeWord(msg, ws[i]!) && DIRECTION[next.w] && next.w.length <= 4 && /^[ (]*$/.test(msg.text.slice(ws[i]!.end, next.start)) && msg.free(next.start, next.end)) return at(i, [ws[i]!, next])
  }
  for (let i = 0; i < ws.length; i++) {
    if (!placeWord(msg, ws[i]!) || ws[i]!.start === 0) continue
    // The nearest taken character before the word, across spaces and light punctuation only.
    let j = ws[i]!.start - 1
    while (j >= 0 && /[\s,:*–-]/.test(msg.text[j]!) && !msg.fieldAt(j)) j--
    const field = j >= 0 ? msg.fieldAt(j) : null
    if (field === 'property_type' || field === 'intent') return at(i, runFrom(i))
  }
  return null
}

/** Is the message written in capitals (most of its letters)? Then a short word in capitals says nothing of initials. */
function isShouting(text: string): boolean {
  let upper = 0
  let lower = 0
  for (const c of text) {
    if (c >= 'A' && c <= 'Z') upper++
    else if (c >= 'a' && c <= 'z') lower++
  }
  return upper > lower
}

/** Words that follow a property type or an intent word without being a place. */
const COMMON = new Set(
  (
    'required requirement available urgent urgently immediate immediately ready new old good best nice big small spacious prime premium luxury ' +
    'fully semi furnished unfurnished sale rent lease resale outright only also under with without from near opposite behind road marg lane ' +
    'client owner direct tenant buyer investor family bachelor bachelors company corporate brand wanted looking need needed please kindly ' +
    'option options share within budget price approx sqft carpet builtup area floor high low very well east west north south facing view ' +
    'sea garden terrace balcony independent standalone commercial residential society building tower project complex wing available. any some ' +
    'chahiye dena hai kiraye kiraya bechna lena wala wali ke ki ka mein main pe par tak hoga chahie chaiye needs wants want'
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
