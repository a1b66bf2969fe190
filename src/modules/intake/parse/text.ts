const FIELDS = ['link', 'structured', 'contact', 'property_type', 'size', 'intent', 'detail', 'budget', 'location', 'locality'] as const
export type Field = (typeof FIELDS)[number]

/**
 * The working copy of one message while the recognisers read it: its text, the same in lower case (offsets equal, so a
 * match in one is a span of the other), and the spans already taken by a field, so no two fields read the same words
 * (the digits of a phone number are not a budget, `2.5 BHK` is not 2.5 lakh).
 */
export class Message {
  readonly lower: string
  /** 1 where a field took the character: checking a span costs its length, not the number of spans taken. */
  private readonly taken: Uint8Array

  constructor(readonly text: string) {
    const lower = text.toLowerCase()
    // A few characters change length in lower case (İ); keep offsets by lowering those one by one.
    this.lower = lower.length === text.length ? lower : [...text].map((c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('')
    this.taken = new Uint8Array(text.length)
  }

  /** Is every character of start..end still free? */
  free(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.taken[i]) return false
    return true
  }

  take(start: number, end: number, field: Field): void {
    this.taken.fill(FIELDS.indexOf(field) + 1, start, end)
    if (end > start) this.masked = null
  }

  /** The lower-case text with the taken spans blanked, kept until the next take: most patterns run between two takes. */
  private masked: string | null = null

  /** The field that took the character at `i`, if any. */
  fieldAt(i: number): Field | null {
    const code = this.taken[i]
    return code ? FIELDS[code - 1]! : null
  }

  /**
   * Every match of `re` (global) on the lower-case text with the taken spans blanked out (U+0001, neither a space nor
   * a word character), so a pattern can neither match inside a taken span nor run across one.
   */
  *matches(re: RegExp): Generator<RegExpExecArray> {
    if (this.masked === null) {
      const units = this.lower.split('')
      for (let i = 0; i < units.length; i++) if (this.taken[i]) units[i] = '\u0001'
      this.masked = units.join('')
    }
    const masked = this.masked
    re.lastIndex = 0
    for (let m = re.exec(masked); m; m = re.exec(masked)) {
      if (m[0].length === 0) {
        re.lastIndex++
        continue
      }
      if (this.free(m.index, m.index + m[0].length)) yield m
    }
  }

  /** The words (letters and digits) outside every taken span, with their offsets. */
  freeWords(): { word: string; start: number; end: number }[] {
    const out: { word: string; start: number; end: number }[] = []
    for (const m of this.text.matchAll(WORD)) {
      const start = m.index
      const end = start + m[0].length
      if (this.free(start, end)) out.push({ word: m[0], start, end })
    }
    return out
  }

  /** The lower-case words just before `index`, nearest last (at most `n`). */
  wordsBefore(index: number, n: number): string[] {
    const head = this.lower.slice(Math.max(0, index - 40), index)
    return (head.match(WORD) ?? []).slice(-n)
  }

  /** The lower-case words just after `index` on its line (at most `n`): the next line's words say nothing of this one's. */
  wordsAfter(index: number, n: number): string[] {
    return (this.lower.slice(index, index + 40).split('\n')[0]!.match(WORD) ?? []).slice(0, n)
  }
}

/** A word: letters (any script), digits and the marks inside them (`L&L` is read elsewhere). */
export const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu

/** Invisible marks WhatsApp exports put around names and dates, and the non-breaking spaces of some phones. */
export function cleanPaste(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // Invisible marks, and the variation selectors after emoji (`️`).
      .replace(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufe0e\ufe0f]/g, '')
      .replace(/[\u00a0\u2000-\u200a\u202f\t]/g, ' ')
      // Unicode's "mathematical" bold and italic letters (`𝐊𝐨𝐭𝐡𝐢 𝐅𝐨𝐫 𝐒𝐚𝐥𝐞`, `125 𝒈𝒂𝒛`), which brokers use for emphasis: plain letters.
      .replace(/[\u{1D400}-\u{1D7FF}]/gu, (c) => c.normalize('NFKC'))
      // A long run of spaces inside a line is a line break lost in copying (a phone's layout padded to its width).
      .replace(/(\S) {6,}(?=\S)/g, '$1\n')
  )
}

export const titleCase = (s: string) =>
  s
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ')
