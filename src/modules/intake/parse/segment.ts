import { choosePrice } from './money'
import { DESCRIPTIVE, FIRM, NAME_TAIL, type LocalityIndex } from './places'
import { differentProperties, USES_HEAD, type Property } from './property'
import { read, type Fields } from './read'
import { differentSizes, type Size } from './size'
import { WORD } from './text'

/**
 * One message cut into its listings (issue 30). Brokers put one fact per line and blank lines between
 * (`Available for Rent` / `SECTOR 82A` / `3+1BHK` / `75K` / `2601SQFT` / phone), and also separate listings by blank
 * lines, number them, or give one per line: so a line continues the listing before it unless it opens a new one.
 * A line opens a new listing when
 * - it begins with Req / Wanted / Available / For sale… (or an item number) and says what or where, and the listing so
 *   far already says what it is;
 * - it names a second value of something the listing already has: another configuration or kind (`3 BHK` after
 *   `2+1 BHK`, a plot after a kothi), another size of the same kind (`500 gaj` after `300 gaj`; a plot's yards and its
 *   built-up feet are one listing), another price (not a rent it earns), another sector or phase, the other deal;
 * - it says what or how much after the listing's phone number or signature, or after a greeting.
 * When a second value opens the new listing, the lines between the two values are split where the widest gap of
 * blank lines is, and lines that only repeat what the first listing already has go with the second (`ROSERO ELENA
 * ZIRAKPUR` before `1954 SQ FT`); when the listing before began with a kind of line (`Sec-21`), the next begins
 * with its like.
 * Lines before the first listing, and lines of the first listing before the first fact the others give themselves,
 * are a heading shared by all (`Prerented deals`, `INDUSTRIAL PLOTS IN PHASE 7`, `House for sale`); the signature at
 * the end (`Contact` / firm / office address / phone) is shared too, and read only for the contact.
 */
export type Segment = {
  text: string
  head: string
  tail: string
  /** The message as it was written, blank lines and all, when it holds this one listing; else its heading, lines and signature. */
  details: string
}

type Sig = 'cue' | 'firm' | 'address' | 'sep' | 'city' | 'person' | null

/** What one line says, for cutting: each at most once (the line's first). */
export type LineFacts = {
  type: (Property & { early: boolean }) | null
  size: Size | null
  /** The price and the word that named it (`Demand`, `Final`): `Final 2.3 Cr` after `Demand 2.5 Cr` is a haggle, not a second listing. */
  price: { low: number; high: number; monthly: boolean; cue: string | undefined } | null
  /** A known locality or a sector, phase or block, with its kind (`sector:82`): `Sector 82` after `Sector 83` is another listing, a block inside a sector is not. */
  strongPlace: string | null
  /** Any place the line names (not a landmark beside it), lower case. */
  place: string | null
  post: 'REQ' | 'AVL' | null
  offer: 'SALE' | 'RENT' | 'BOTH' | null
  phone: boolean
  sig: Sig
  chatter: boolean
  /** A greeting (`Good morning all 🙏`): the next fact is another message's. */
  greeting: boolean
  /** Begins with intent words (`Available`, `Wanted`, `For sale`), or an item number in a numbered list. */
  opens: boolean
  numbered: boolean
  /** Begins with its size (`500gaz Joda on 80ft road`). */
  leadSize: boolean
}

type Line = { text: string; gap: number; facts: LineFacts }

export const OPENS = /^[\s\W_]*(?:req|reqd|rqd|requirement|required|requird|urgently\s+required|urgent\s+requirement|wanted|want|need|needed|looking|avl[a-z]*|avbl|avai[a-z]*|avali[a-z]*|avil[a-z]*|(?:rare|fresh|hot|new)\s+(?:avai|avali|avl|inventory)[a-z]*|for\s+sale|for\s+rent|to\s+let|resale|outright|inventory|urgent\s+sale)\b/i
const NUMBERED = /^\s*(?:\(?\d{1,2}[).:\-](?!\d)(?!\s*(?:bhk|rk|bed|b\.h\.k))|\d{1,2}\s*⃣)\s*/iu
const OFFER_SALE = /\b(?:for\s*sale|on\s*sale|resale|outright|for\s+purchase)\b/i
const OFFER_RENT = /\b(?:for\s*rent|on\s*rent|to\s*let|to-let|tolet|for\s*lease|on\s*lease|l\s*&\s*l)\b/i
const CUE_LINE = /^[\s\W_]*(?:contact|contacts|contect|cont|cnt|call|calling|ph(?!\s*[-.:]?\s*\d{1,2}[a-c]?\d?(?![\d.]))|phone|mob|mobile|whatsapp|wa|for\s+(?:more\s+)?(?:details?|info|information|enquir[a-z]*)|confirm\s+with\s+us|dm|ping|reach\s+us|regards|thanks\s*(?:&|and)\s*regards)\b/i
const ADDRESS = /^[\s\W_]*(?:sco|scf|shop|booth|plot|office|off|h\.?\s*no|house\s*no|flat\s*no|kothi\s*no|#)\s*(?:no\.?|number|#)?\s*[-.:#]?\s*\d+(?![\d.,]*\s*(?:sq|sft|gaj|gaz|gz|marla|kanal|acre|ft|feet|yd|bhk|rk|lac|lakh|l\b|cr|k\b|%))/i
/** A place named as a landmark (`near Goregaon station`) is no second listing's place. */
const BESIDE = /\b(?:near|nr|opp|opposite|behind|beside|next\s+to|adj|adjoining|off)\W*$/
const SEPARATOR = /^[\s\-_=*~.•—–]{3,}$/
/** Greetings and thanks: said between messages, never part of a listing, and what follows is another message. */
const GREETING = /^[\s\W_]*(?:good\s*(?:morning|afternoon|evening|night|day)|gm|gn|hi+|hello|hey|namaste|namaskar|jai\s+\S+|ram\s+ram|radhe\s+radhe|sat\s+sri\s+akal|thanks?|thank\s*you|thx|congrat\S*|happy\s+\S+|best\s+wishes|welcome)\b[^\d]{0,40}$/i
/** A line selling leads (`Rs. 2,999 - 40 LEAD'S`): an ad, never a listing's price. */
const LEADS_LINE = /\b\d+\s*lead(?:s|['’]s)?\b|\bleads?\s+(?:services?|packages?|generation)\b/i
/** A one-word reply (`Rt`, `Price`, `Ok`): dropped, as no part of a listing. */
const REPLY = /^[\s\W_]*(?:ok+|okay|rt|right|yes|yep|no|done|noted|price|rate|details|pls|plz|please|sir|ji)[\s\W_]*$/i

function signatureOf(text: string, f: Fields, index: LocalityIndex): Sig {
  if (SEPARATOR.test(text)) return 'sep'
  const words = text.match(WORD) ?? []
  if (CUE_LINE.test(text) && (words.length <= 6 || f.contact)) return 'cue'
  if (FIRM.test(text) && !f.size && !f.intent.post && !f.intent.deal && words.length <= 8) return 'firm'
  if (ADDRESS.test(text) && !f.size && !f.amounts.length) return 'address'
  const lower = words.map((w) => w.toLowerCase())
  if (lower.length && lower.every((w) => index.cityWords.has(w))) return 'city'
  // A name in capitals before the phone is the broker's, unless it ends as a project's does (`Homeland Heights`, `Marbella Grand`).
  if (lower.length >= 1 && lower.length <= 3 && !f.property && !f.size && !f.intent.post && !f.intent.deal && words.every((w) => /^\p{Lu}[\p{L}.]+$/u.test(w) && !DESCRIPTIVE.has(w.toLowerCase())) && !(lower.length > 1 && NAME_TAIL.has(lower[lower.length - 1]!) && lower[lower.length - 1] !== 'the')) return 'person'
  return null
}

/** Words of a second price for the same property: `Demand 2.5 Cr` / `Final 2.3 Cr`. */
const HAGGLE = new Set(['final', 'expected', 'exp', 'nego', 'negotiable', 'neg', 'last', 'fixed'])

/** A strong place with its kind: a sector, a phase, a block, or a known locality. */
const placeKey = (p: NonNullable<Fields['place']>) => {
  const name = p.locality.toLowerCase()
  if (p.how === 'known') return `known:${name}`
  const kind = /\b(sector|phase|block)\b/.exec(name)?.[1] ?? 'place'
  return `${kind}:${name}`
}

/** The facts of one line (memoised: a paste repeats its lines, and a long paste of one unit costs one reading). */
export function lineFacts(text: string, index: LocalityIndex, memo: Map<string, LineFacts>, readOnce: (text: string) => Fields = (t) => read(t, index)): LineFacts {
  let f = memo.get(text)
  if (f) return f
  const r = readOnce(text)
  const sig = signatureOf(text, r, index)
  const signed = sig === 'firm' || sig === 'address'
  const early = r.property ? (text.slice(0, r.property.start).match(WORD) ?? []).length <= 4 : false
  const price = signed ? null : choosePrice(r.amounts, 'RENT')
  const sale = OFFER_SALE.test(text)
  const rent = OFFER_RENT.test(text)
  const facts: LineFacts = {
    type: r.property && !signed ? { ...r.property, early } : null,
    size: signed ? null : r.size,
    price: price ? { low: price.low, high: price.high, monthly: price.monthly, cue: price.cue } : null,
    strongPlace: r.place && !signed && ((r.place.how === 'known' && r.place.known) || r.place.how === 'shape') && !BESIDE.test(text.slice(0, r.place.start).toLowerCase()) ? placeKey(r.place) : null,
    place: r.place && !signed && r.place.how !== 'landmark' ? r.place.locality.toLowerCase() : null,
    post: r.intent.post,
    offer: sale && rent ? 'BOTH' : sale ? 'SALE' : rent ? 'RENT' : null,
    phone: Boolean(r.contact),
    sig,
    chatter: false,
    greeting: false,
    opens: OPENS.test(text),
    numbered: NUMBERED.test(text),
    leadSize: r.size !== null && !signed && (text.slice(0, r.size.start).match(WORD) ?? []).length === 0,
  }
  const bare = !facts.type && !facts.size && !facts.price && !facts.phone
  // A greeting, or a question about something else (`Any update on yesterday's Juhu requirement?`).
  facts.greeting = (bare && (GREETING.test(text) || /\?\s*$/.test(text))) || LEADS_LINE.test(text)
  facts.chatter = facts.greeting || (bare && REPLY.test(text))
  if (memo.size < 5000) memo.set(text, facts)
  return facts
}

const NOTHING: LineFacts = { type: null, size: null, price: null, strongPlace: null, place: null, post: null, offer: null, phone: false, sig: null, chatter: false, greeting: false, opens: false, numbered: false, leadSize: false }

type Kind = 'type' | 'size' | 'price' | 'place' | 'offer' | 'post'
const substance = (f: LineFacts) => Boolean(f.type || f.size || f.price)
const kindsOf = (f: LineFacts): Kind[] => {
  const out: Kind[] = []
  // A type read from the floors alone (`Brand new Triple Story`) names nothing a second listing would.
  if (f.type && !f.type.weak) out.push('type')
  if (f.size) out.push('size')
  if (f.price) out.push('price')
  if (f.place) out.push('place')
  if (f.offer) out.push('offer')
  if (f.post) out.push('post')
  return out
}

/** A listing being read: its lines, and what they said so far. */
class Listing {
  lines: Line[] = []
  type: LineFacts['type'] = null
  sizes: Size[] = []
  prices: NonNullable<LineFacts['price']>[] = []
  strongPlaces: string[] = []
  places: string[] = []
  offer: 'SALE' | 'RENT' | null = null
  post: 'REQ' | 'AVL' | null = null
  /** A phone, a firm or a `Contact` line was seen: the listing is signed. */
  signed = false
  /** A greeting came after it (after its first `interruptedAt` lines): the next fact is another message's. */
  interrupted = false
  interruptedAt = 0
  add(line: Line) {
    this.lines.push(line)
    const f = line.facts
    if (f.sig === 'firm' || f.sig === 'address') {
      if (f.sig === 'firm' || this.signed) this.signed = true
      return
    }
    if (f.phone || f.sig === 'cue') this.signed = true
    if (f.type && !this.type) this.type = f.type
    if (f.size) this.sizes.push(f.size)
    if (f.price) this.prices.push(f.price)
    if (f.strongPlace) this.strongPlaces.push(f.strongPlace)
    if (f.place) this.places.push(f.place)
    if (f.offer === 'SALE' || f.offer === 'RENT') this.offer ??= f.offer
    if (f.post) this.post ??= f.post
  }

  get substance() {
    return Boolean(this.type || this.sizes.length || this.prices.length)
  }

  /** The kinds in which a line names a second value of what the listing has. */
  collisions(f: LineFacts): Kind[] {
    const out: Kind[] = []
    if (f.type?.early && this.type && differentProperties(this.type, f.type)) out.push('type')
    if (f.size) {
      const same = this.sizes.find((s) => s.land === f.size!.land && s.label === f.size!.label)
      if (same && differentSizes(same, f.size)) out.push('size')
    }
    if (f.price) {
      const same = f.price.cue !== undefined && HAGGLE.has(f.price.cue) ? undefined : this.prices.find((p) => p.monthly === f.price!.monthly)
      if (same && (same.low !== f.price.low || same.high !== f.price.high)) out.push('price')
    }
    const kind = f.strongPlace?.split(':')[0]
    const same = kind ? this.strongPlaces.filter((p) => p.split(':')[0] === kind) : []
    if (f.strongPlace && same.length && !same.includes(f.strongPlace)) out.push('place')
    if ((f.offer === 'SALE' || f.offer === 'RENT') && this.offer && f.offer !== this.offer) out.push('offer')
    return out
  }
}

export function segment(text: string, index: LocalityIndex, memo: Map<string, LineFacts>, readOnce?: (text: string) => Fields): Segment[] {
  const lines: Line[] = []
  let gap = 0
  let uses = false
  for (const raw of text.split('\n')) {
    const t = raw.trim()
    if (!t) {
      gap++
      continue
    }
    // Bullets under `Ideal for Development:` name uses, not listings.
    if (uses && /^[•▪➤►✅🔹🔸👉*-]/u.test(t)) {
      lines.push({ text: t, gap, facts: NOTHING })
      gap = 0
      continue
    }
    uses = USES_HEAD.test(t.toLowerCase())
    // An item's number is no part of it (`3- 2BHK` is a 2 BHK, not a `3-2` range).
    const item = NUMBERED.exec(t)
    const own = item ? t.slice(item[0].length) || t : t
    const facts = lineFacts(own, index, memo, readOnce)
    lines.push({ text: own, gap, facts: item ? { ...facts, numbered: true } : facts })
    gap = 0
  }
  const numberedList = lines.filter((l) => l.facts.numbered && substance(l.facts)).length >= 2
  // The gap this message usually puts between lines (the median): a wider one separates listings.
  const gaps = lines.slice(1).map((l) => l.gap).sort((a, b) => a - b)
  const typical = gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0
  // Three or more lines in a row that each begin with a size (`300gaz Built-up` / `500gaz normal location` / `2kanal B
  // road`): one listing a line, like numbered items.
  for (let i = 0; i < lines.length; ) {
    let j = i
    while (j < lines.length && lines[j]!.facts.leadSize) j++
    if (j - i >= 3) for (let k = i; k < j; k++) lines[k]!.facts = { ...lines[k]!.facts, numbered: true }
    i = Math.max(j, i + 1)
  }
  const itemised = numberedList || lines.some((l) => l.facts.numbered && l.facts.leadSize)
  const pre: Line[] = []
  const listings: Listing[] = []
  let cur: Listing | null = null
  /** Greetings and replies left out of every listing, by their text. */
  const dropped = new Set<string>()
  /** What the last listing cut at a second value began with: the listings of one message are written alike. */
  let alike = new Set<Kind>()
  const open = (from: Line[]) => {
    const l = new Listing()
    for (const line of from) l.add(line)
    listings.push(l)
    return l
  }
  for (const line of lines) {
    const f = line.facts
    if (f.chatter) {
      dropped.add(line.text)
      if (cur && f.greeting && !cur.interrupted) {
        cur.interrupted = true
        cur.interruptedAt = cur.lines.length
      }
      continue
    }
    const core = substance(f) || f.post !== null || f.offer !== null
    if (!cur) {
      if (core && !f.sig) cur = open([line])
      else pre.push(line)
      continue
    }
    const opener = (f.opens || (itemised && f.numbered)) && !f.sig
    // Said after the listing's signature or a greeting: another message's listing.
    if ((cur.signed || cur.interrupted) && !f.sig && (substance(f) || opener)) {
      // The new listing takes the lines after the signature or the greeting that say what or how much of nothing.
      let k = cur.lines.length
      const floor = cur.signed ? 0 : cur.interruptedAt
      while (k > floor && !cur.lines[k - 1]!.facts.sig && !cur.lines[k - 1]!.facts.phone && !substance(cur.lines[k - 1]!.facts)) k--
      cur = split(cur, k, line)
      continue
    }
    const otherSide = (f.post !== null && cur.post !== null && f.post !== cur.post) || (f.offer !== null && f.offer !== 'BOTH' && cur.offer !== null && f.offer !== cur.offer)
    if (opener && ((cur.substance && (substance(f) || f.place || otherSide)) || (!cur.substance && otherSide && substance(f)))) {
      cur = split(cur, cur.lines.length, line)
      continue
    }
    // The other side, said with what or how much (`1 BHK available on L&L …` after `reqd 2bhk …`): another message.
    if (!f.sig && substance(f) && f.post !== null && cur.post !== null && f.post !== cur.post && cur.substance) {
      cur = split(cur, cur.lines.length, line)
      continue
    }
    // A requirement lists what the client accepts (`100 - 130 - 150 Sq.yrd.` / `Phase 1` / `Phase 2`): only a line
    // that is a listing by itself (`Pagdi 1RK in Matunga, 250 sq ft, 28 lakh`) is another.
    const whole = [f.type, f.size, f.price].filter(Boolean).length >= 2
    const hit = f.sig === 'firm' || f.sig === 'address' || cur.signed || (cur.post === 'REQ' && !whole) ? [] : cur.collisions(f)
    if (hit.length) {
      cur = split(cur, boundary(cur, line, hit, alike, typical), line)
      alike = new Set(kindsOf(cur.lines[0]!.facts).filter((k) => k !== 'post' && k !== 'offer'))
      continue
    }
    cur.add(line)
  }

  function split(from: Listing, at: number, line: Line): Listing {
    const moved = from.lines.splice(at)
    const kept = from.lines
    from.lines = []
    const rebuilt = new Listing()
    for (const l of kept) rebuilt.add(l)
    // The listing being cut is always the last one so far.
    listings[listings.length - 1] = rebuilt
    return open([...moved, line])
  }

  if (!listings.length) return []
  // The heading: lines before the first listing, and the first listing's lines before the first fact the second gives.
  let head = pre
  const first = listings[0]!
  if (listings.length > 1) {
    // Numbered items, or lines opening with Avl / Req: the heading ends where the first item begins. Otherwise at the
    // first line giving what the second listing gives itself (`Sec-15` in `House for sale` / `Sec-15` / `10marla`…).
    const lead = listings[1]!.lines[0]!.facts
    const theirs = new Set<Kind>(listings[1]!.lines.flatMap((l) => kindsOf(l.facts)).filter((k) => k !== 'post' && k !== 'offer'))
    const like = lead.numbered ? first.lines.findIndex((l) => l.facts.numbered) : lead.opens && substance(lead) ? first.lines.findIndex((l) => l.facts.opens && substance(l.facts)) : -1
    // A heading that names a kind (`SITES REQUIRED – North Bengaluru`) before the first item is no listing of its own.
    const headingOnly = like < 0 && (lead.numbered || (lead.opens && substance(lead))) && !first.signed && !first.lines.some((l) => l.facts.size || l.facts.price)
    // Items one a line under a heading that names their kind or area (`AEROCITY PLOTS AVAILABLE` / `D block 300 gaj @
    // 2.55` / `E block 200 gaj @ 1.78`): the first item is the first line said like the second listing's first, and
    // the lines before it, which give no size nor price, are the heading.
    const shape = (f: LineFacts) => kindsOf(f).filter((k) => k !== 'post' && k !== 'offer').sort().join()
    const alikeAt = lead.size || lead.price ? first.lines.findIndex((l) => shape(l.facts) === shape(lead)) : -1
    const alike = alikeAt > 0 && first.lines.slice(0, alikeAt).every((l) => !l.facts.size && !l.facts.price) ? alikeAt : -1
    const from = headingOnly ? first.lines.length : like >= 0 ? like : alike > 0 ? alike : first.lines.findIndex((l) => kindsOf(l.facts).some((k) => theirs.has(k)))
    if (from > 0) head = [...pre, ...first.lines.splice(0, from)]
  } else {
    first.lines = [...pre, ...first.lines]
    head = []
  }
  // The signature: the last lines after the last fact, from a phone, a `Contact` line, a firm or an office address.
  const last = listings[listings.length - 1]!
  let s = last.lines.length
  while (s > 0 && !substance(last.lines[s - 1]!.facts) && !last.lines[s - 1]!.facts.offer && !last.lines[s - 1]!.facts.opens) s--
  let t = s
  while (t < last.lines.length && !starts(last.lines, t)) t++
  const tail = last.lines.splice(t)
  const join = (ls: Line[]) => ls.map((l) => l.text).join('\n')
  const kept = listings.filter((l) => l.lines.length)
  // One listing: its details are the message as written, blank lines and all, but greetings and replies.
  const asWritten = kept.length === 1 ? text.split('\n').filter((raw) => !dropped.has(raw.trim())).join('\n').trim() : ''
  return kept.map((l) => {
    const piece = { text: join(l.lines), head: join(head), tail: join(tail) }
    return { ...piece, details: kept.length === 1 ? asWritten : [piece.head, piece.text, piece.tail].filter(Boolean).join('\n') }
  })
}

/** Does the signature start at line `i`: a phone, a `Contact` line, a firm, an office address, or a name just before one? */
function starts(lines: Line[], i: number): boolean {
  const f = lines[i]!.facts
  if (f.phone || f.sig === 'cue' || f.sig === 'firm' || f.sig === 'address' || f.sig === 'sep') return true
  const next = lines[i + 1]?.facts
  return f.sig === 'person' && next !== undefined && (next.phone || next.sig === 'firm' || next.sig === 'cue')
}

/**
 * What a line between two values says against the first listing: nothing it lacks (`present`: it may go with the
 * second), and whether it names one of those things with another value (`differs`: `ROSERO ELENA ZIRAKPUR` where the
 * first is in Sector 83), rather than repeating the first's (`3 BHK` again, `Single storey` under `House for sale`).
 */
function against(kept: Listing, f: LineFacts): { present: boolean; differs: boolean } {
  const kinds = kindsOf(f).filter((k) => k !== 'post' && k !== 'offer')
  const present = (k: Kind) => (k === 'type' ? kept.type !== null : k === 'size' ? kept.sizes.length > 0 : k === 'price' ? kept.prices.length > 0 : kept.places.length > 0)
  const differs = (k: Kind) => {
    switch (k) {
      case 'type':
        return differentProperties(kept.type!, f.type!)
      case 'size':
        return kept.sizes.every((s) => s.low !== f.size!.low)
      case 'price':
        return kept.prices.every((p) => p.low !== f.price!.low)
      default:
        return !kept.places.includes(f.place!)
    }
  }
  const all = kinds.every(present)
  return { present: all, differs: all && kinds.some(differs) }
}

/**
 * Where a listing that gave a second value (line `next`) begins: after the last line holding the first value, at the
 * widest gap of blank lines among the lines that only repeat what the first listing already has (its place, its type),
 * the earliest of equal gaps; lines that say nothing stay with the first unless a wider gap stands before them.
 */
function boundary(cur: Listing, next: Line, hit: Kind[], alike: Set<Kind>, typical: number): number {
  const lines = cur.lines
  let p = lines.length - 1
  while (p >= 0 && !kindsOf(lines[p]!.facts).some((k) => hit.includes(k))) p--
  // The listing before began with a sector line (`Sec-21` / `10 marla` / `Basement+Triple storey`): so does this one.
  for (let i = lines.length - 1; i > p && i > 0; i--) if (kindsOf(lines[i]!.facts).some((k) => alike.has(k))) return i
  // What the first listing has up to its first value (built once: a long run of lines costs its length, not its square).
  const kept = new Listing()
  for (const l of lines.slice(0, p + 1)) kept.add(l)
  // The lines before the second value that say nothing the first listing lacks; the second may begin at one of them
  // naming another value (`ROSERO ELENA ZIRAKPUR`), or at the value itself.
  let k = lines.length
  while (k - 1 > p) {
    const f = lines[k - 1]!.facts
    if (f.phone || f.sig === 'firm' || f.sig === 'address' || f.sig === 'cue' || !against(kept, f).present) break
    k--
  }
  const starts = [...Array.from({ length: lines.length - k }, (_, n) => k + n).filter((i) => against(kept, lines[i]!.facts).differs), lines.length]
  const gapAt = (i: number) => (i === lines.length ? next.gap : lines[i]!.gap)
  let best = starts[0]!
  for (const i of starts) if (gapAt(i) > gapAt(best)) best = i
  // A wider gap before lines that say nothing (`B150` before `Rate 1.72`) still marks the start.
  for (let i = k; i < best; i++) if (gapAt(i) > gapAt(best)) best = i
  // A gap wider than the message puts between its facts marks the start, whatever the lines after it repeat (three
  // blank lines before `Show Room for sale CP 67`, where every fact has one).
  for (let i = p + 1; i < lines.length; i++) if (gapAt(i) > Math.max(typical, gapAt(best)) && !lines[i]!.facts.sig && !lines[i]!.facts.phone) best = i
  return best
}
