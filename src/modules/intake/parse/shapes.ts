import { titleCase, type Message } from './text'

/**
 * Places read by their shape, in a city the network barely knows: planned cities number their sectors and phases and
 * letter their blocks (`Sector 82`, `SEC-66A`, `Sec 82 Alpha`, `67 sec`, `PHASE-8A`, `Block H`, `E block Aerocity`).
 * A number or a letter names one place; the words around it say which (`Aerocity C Block`, `Ashatownship Phase 2`).
 */
const SECTOR = /(?<![\p{L}\p{N}])(?:sector|sectors|sec|sect|sctr|secter)\s*[-.:#]*\s*(?:no\.?\s*|number\s*)?(\d{1,3})(?:\s*-?\s*([a-d])(?![\p{L}\p{N}])(?!\s*-?\s*(?:road|rd)\b))?(?:\s+(alpha|beta|gamma|delta|omega)(?![\p{L}]))?(?![\p{N}])/gu
/** `67 sec`, `Showroom 67 sec Mohali`: the number before the word. */
const SECTOR_AFTER = /(?<![\p{L}\p{N}.,])(\d{1,3})\s*(?:sec|sector)(?![\p{L}\p{N}])/gu
const PHASE = /(?<![\p{L}\p{N}])(?:phase|phse|ph)\s*[-.:#]*\s*(\d{1,2}|(?<=(?:phase|phse)\s*[-.:#]*\s*)(?:xi{0,2}|i?x|vi{0,3}|i?v|i{1,3})(?![\p{L}\p{N}]))(?:\s*-?\s*([a-c]\d?)(?![\p{L}\p{N}]))?(?![\p{N}])/gu
/** `Phase-IX`, `Phase XI`: a phase in Roman numerals (after the whole word: `ph i` is no phase) is its number. */
const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6, vii: 7, viii: 8, ix: 9, x: 10, xi: 11, xii: 12 }
const phaseNumber = (n: string) => String(ROMAN[n.toLowerCase()] ?? n)
const BLOCK_AFTER = /(?<![\p{L}\p{N}])block\s*[-.:]*\s*(\p{L})(?![\p{L}\p{N}])/gu
const BLOCK_BEFORE = /(?<![\p{L}\p{N}])(\p{L})\s*[-.]?\s*block(?![\p{L}])/gu
/** Words that make the place a landmark beside the listing, not where it is: `ADJ.- I BLOCK`, `near Phase 7`. */
const LANDMARK = /\b(?:adj|adjoining|adjacent|near|nr|opp|opposite|behind|backside|beside|infront|front|next)\b[\s.,:-]*(?:of|to)?[\s.,:-]*$/

export type Shaped = { name: string; start: number; end: number; landmark: boolean }

type W = { w: string; start: number; end: number }

/**
 * Every sector, phase and block the message names, in order. `nameWord` says whether a word around a phase or a block
 * names the place it belongs to (`Aerocity`), not a detail of the listing.
 */
export function shapedPlaces(msg: Message, ws: W[], nameWord: (x: W) => boolean): Shaped[] {
  const out: Shaped[] = []
  const landmark = (start: number) => LANDMARK.test(msg.lower.slice(Math.max(0, start - 16), start).split('\n').pop()!)
  // The characters a place already covers: an overlap is checked along the new span, not against every place so far.
  const covered = new Uint8Array(msg.text.length)
  const add = (name: string, start: number, end: number, own = start) => {
    for (let i = start; i < end; i++) if (covered[i]) return
    covered.fill(1, start, end)
    out.push({ name, start, end, landmark: landmark(own) || landmark(start) })
  }
  for (const m of msg.matches(SECTOR)) add(`Sector ${m[1]}${(m[2] ?? '').toUpperCase()}${m[3] ? ` ${titleCase(m[3])}` : ''}`, m.index, m.index + m[0].length)
  for (const m of msg.matches(SECTOR_AFTER)) add(`Sector ${m[1]}`, m.index, m.index + m[0].length)
  for (const m of msg.matches(PHASE)) {
    const before = nameBefore(msg, ws, m.index, nameWord)
    add(`${before ? `${before.name} ` : ''}Phase ${phaseNumber(m[1]!)}${(m[2] ?? '').toUpperCase()}`, before?.start ?? m.index, m.index + m[0].length, m.index)
  }
  for (const [re, letterFirst] of [
    [BLOCK_AFTER, false],
    [BLOCK_BEFORE, true],
  ] as const) {
    for (const m of msg.matches(re)) {
      const letter = msg.text.slice(m.index, m.index + m[0].length).match(letterFirst ? /^\p{L}/u : /\p{L}$/u)![0]
      // `a block of flats`: a lower-case a before `block` is the article.
      if (letterFirst && letter === 'a') continue
      const before = nameBefore(msg, ws, m.index, nameWord)
      const after = before ? null : nameAfter(msg, ws, m.index + m[0].length, nameWord)
      const block = letterFirst ? `${letter.toUpperCase()} Block` : `Block ${letter.toUpperCase()}`
      const name = [before?.name, block, after?.name].filter(Boolean).join(' ')
      add(name, before?.start ?? m.index, after?.end ?? m.index + m[0].length, m.index)
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

/** Words a project's name ends with (`Maya Garden Phase 2`, `Gulmohar City Block B`): part of it after a name word. */
const TAIL = new Set(['garden', 'gardens', 'city', 'park', 'heights', 'homes', 'greens', 'valley', 'enclave', 'estate', 'hills', 'residency', 'towers', 'township', 'vihar', 'colony', 'nagar'])

/**
 * Up to two name words right before `at` on its line (spaces, commas or dashes between), and a word ending a
 * project's name after its first (`Maya Garden`).
 */
function nameBefore(msg: Message, ws: W[], at: number, nameWord: (x: W) => boolean): { name: string; start: number } | null {
  const run: W[] = []
  let edge = at
  for (let i = firstFrom(ws, at) - 1; i >= 0 && run.length < 3; i--) {
    const x = ws[i]!
    if (x.end > edge) continue
    if (!/^[ ,.\-–]*$/.test(msg.text.slice(x.end, edge))) break
    const tail = TAIL.has(x.w) && msg.free(x.start, x.end) && (run.length === 0 || TAIL.has(run[0]!.w))
    if (!(nameWord(x) && run.length < 2) && !tail) break
    run.unshift(x)
    edge = x.start
  }
  // A name does not begin with the word that ends one (`Corner Park Phase 7` is Phase 7).
  while (run.length && TAIL.has(run[0]!.w) && !nameWord(run[0]!)) run.shift()
  return run.length ? { name: run.map((x) => spelled(msg, x)).join(' '), start: run[0]!.start } : null
}

/** Up to two name words right after `at` on its line. */
function nameAfter(msg: Message, ws: W[], at: number, nameWord: (x: W) => boolean): { name: string; end: number } | null {
  const run: W[] = []
  let edge = at
  for (let i = firstFrom(ws, at); i < ws.length; i++) {
    const x = ws[i]!
    if (x.start < edge) continue
    if (run.length >= 2 || !/^[ ,.\-–]*$/.test(msg.text.slice(edge, x.start)) || !nameWord(x)) break
    run.push(x)
    edge = x.end
  }
  return run.length ? { name: run.map((x) => spelled(msg, x)).join(' '), end: run[run.length - 1]!.end } : null
}

/** The index of the first word starting at or after `at` (the words are in order): a block's neighbours are found in log time, not by walking every word of the paste. */
function firstFrom(ws: W[], at: number): number {
  let lo = 0
  let hi = ws.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (ws[mid]!.start < at) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A word as a name: title case, except initials written in capitals (`JLPL`, `IT`). */
const spelled = (msg: Message, x: W) => {
  const raw = msg.text.slice(x.start, x.end)
  return /^\p{Lu}{2,4}$/u.test(raw) && !isShouting(msg.text) ? raw : titleCase(raw)
}

/** Is the message written in capitals (most of its letters)? Then a short word in capitals says nothing of initials. */
export function isShouting(text: string): boolean {
  let upper = 0
  let lower = 0
  for (const c of text) {
    if (c >= 'A' && c <= 'Z') upper++
    else if (c >= 'a' && c <= 'z') lower++
  }
  return upper > lower
}
