// Sample identity documents for the demo: a card drawn in code and encoded as PNG (palette, zlib from node:zlib).
// No fonts, no canvas, no network: a 5x7 bitmap font covers the few characters the card needs.
import { constants, crc32, deflateSync } from 'node:zlib'

export const CARD_WIDTH = 856 // the ID-1 card format (85.6 x 54 mm) at 10 px per mm
export const CARD_HEIGHT = 540
export const SAMPLE_NOTICE = 'SAMPLE — NOT A REAL DOCUMENT'

export type SampleCard = { fullName: string; idNumber: string; city: string; role: string }

// --------------------------------------------------------------------------------------------------------------
// Palette: one byte per pixel, so a card is 460 KB before compression and about 17 KB after.

const PALETTE = [
  [0xf3, 0xf0, 0xe6], // 0 card
  [0x1e, 0x3a, 0x5f], // 1 header band
  [0xff, 0xff, 0xff], // 2 white
  [0x1f, 0x29, 0x37], // 3 text
  [0x6b, 0x72, 0x80], // 4 labels
  [0xf4, 0xcf, 0xcf], // 5 watermark
  [0xb9, 0x1c, 0x1c], // 6 red
  [0xd6, 0xdb, 0xe2], // 7 photo background
  [0x8a, 0x94, 0xa3], // 8 silhouette
  [0xc9, 0xa2, 0x27], // 9 chip
] as const
export const C = { card: 0, band: 1, white: 2, text: 3, label: 4, watermark: 5, red: 6, photo: 7, figure: 8, chip: 9 } as const

// --------------------------------------------------------------------------------------------------------------
// 5x7 font: each glyph is seven rows of five bits, most significant bit on the left.

const GLYPHS: Record<string, string> = {
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11110 10001 10001 10001 10001 10001 11110',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  I: '01110 00100 00100 00100 00100 00100 01110',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  L: '10000 10000 10000 10000 10000 10000 11111',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 11001 10101 10011 10001 10001 10001',
  O: '01110 10001 10001 10001 10001 10001 01110',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 01010 00100 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
  '0': '01110 10001 10011 10101 11001 10001 01110',
  '1': '00100 01100 00100 00100 00100 00100 01110',
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '3': '11111 00010 00100 00010 00001 10001 01110',
  '4': '00010 00110 01010 10010 11111 00010 00010',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '6': '00110 01000 10000 11110 10001 10001 01110',
  '7': '11111 00001 00010 00100 01000 01000 01000',
  '8': '01110 10001 10001 01110 10001 10001 01110',
  '9': '01110 10001 10001 01111 00001 00010 01100',
  ' ': '00000 00000 00000 00000 00000 00000 00000',
  '-': '00000 00000 00000 11111 00000 00000 00000',
  '—': '00000 00000 00000 11111 00000 00000 00000', // drawn as a bar 9 columns wide (glyphWidth)
  '.': '00000 00000 00000 00000 00000 01100 01100',
  ',': '00000 00000 00000 00000 01100 00100 01000',
  ':': '00000 01100 01100 00000 01100 01100 00000',
  "'": '00100 00100 01000 00000 00000 00000 00000',
  '/': '00001 00010 00010 00100 01000 01000 10000',
  '#': '01010 01010 11111 01010 11111 01010 01010',
  '?': '01110 10001 00001 00010 00100 00000 00100',
}
const FONT = new Map(Object.entries(GLYPHS).map(([ch, rows]) => [ch, rows.split(' ').map((r) => parseInt(r, 2))]))

/** The seven rows of a character's glyph (bit 4 is the leftmost column). */
export const glyphRows = (ch: string): readonly number[] => FONT.get(ch) ?? FONT.get('?')!

/** Letters are drawn in capitals; accents are dropped; anything else the font lacks becomes '?'. */
export function cardText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .split('')
    .map((ch) => (FONT.has(ch) ? ch : /\s/.test(ch) ? ' ' : '?'))
    .join('')
}

const glyphWidth = (ch: string) => (ch === '—' ? 9 : 5)
/** Width in pixels of `text` at `scale` (one blank column between glyphs). */
export const textWidth = (text: string, scale: number) =>
  [...text].reduce((w, ch, i) => w + (glyphWidth(ch) + (i > 0 ? 1 : 0)) * scale, 0)

// --------------------------------------------------------------------------------------------------------------
// Drawing on a palette bitmap

/** Rows are stored as PNG wants them: a filter byte (0, none) and then one palette index per pixel. */
class Bitmap {
  readonly stride: number
  constructor(
    readonly width: number,
    readonly height: number,
    readonly rows = new Uint8Array((width + 1) * height),
  ) {
    this.stride = width + 1
  }

  /** Makes this bitmap a copy of `other` (same size), reusing its memory. */
  copyFrom(other: Bitmap) {
    this.rows.set(other.rows)
    return this
  }

  rect(x: number, y: number, w: number, h: number, color: number) {
    const x0 = Math.max(0, Math.round(x))
    const x1 = Math.min(this.width, Math.round(x + w))
    for (let row = Math.max(0, Math.round(y)); row < Math.min(this.height, Math.round(y + h)); row++)
      this.rows.fill(color, row * this.stride + 1 + x0, row * this.stride + 1 + x1)
  }

  /** A filled ellipse centred on (cx, cy); `clipBottom` stops it at that row. */
  ellipse(cx: number, cy: number, rx: number, ry: number, color: number, clipBottom = this.height) {
    for (let y = Math.max(0, Math.ceil(cy - ry)); y <= Math.min(clipBottom - 1, cy + ry); y++) {
      const dx = Math.floor(rx * Math.sqrt(Math.max(0, 1 - ((y - cy) / ry) ** 2)))
      this.rect(cx - dx, y, 2 * dx + 1, 1, color)
    }
  }

  text(text: string, x: number, y: number, scale: number, color: number) {
    let cx = x
    for (const ch of text) {
      const rows = FONT.get(ch) ?? FONT.get('?')!
      if (ch === '—') this.rect(cx, y + 3 * scale, glyphWidth(ch) * scale, scale, color)
      else
        for (let r = 0; r < 7; r++)
          // One fill per run of lit columns, not per cell (the binary draws these without a JIT).
          for (let c = 0; c < 5; c++) {
            if (!((rows[r]! >> (4 - c)) & 1)) continue
            let end = c + 1
            while (end < 5 && (rows[r]! >> (4 - end)) & 1) end++
            this.rect(cx + c * scale, y + r * scale, (end - c) * scale, scale, color)
            c = end
          }
      cx += (glyphWidth(ch) + 1) * scale
    }
  }

  /**
   * Text turned by `angle` radians about its centre (cx, cy). Each lit cell of a glyph is a turned square, filled
   * span by span: a few thousand fills, not a test of every pixel of the card (the binary starts without a JIT).
   */
  rotatedText(text: string, cx: number, cy: number, scale: number, angle: number, color: number) {
    const w = textWidth(text, scale)
    const h = 7 * scale
    const cos = Math.cos(angle)
    const sin = Math.sin(angle)
    const cell = (u: number, v: number, cw: number) => {
      // The cell's corners, turned onto the card.
      const corners = [
        [u, v],
        [u + cw, v],
        [u + cw, v + scale],
        [u, v + scale],
      ].map(([a, b]) => [cx + (a! - w / 2) * cos - (b! - h / 2) * sin, cy + (a! - w / 2) * sin + (b! - h / 2) * cos] as const)
      const top = Math.ceil(Math.min(...corners.map((c) => c[1])))
      const bottom = Math.floor(Math.max(...corners.map((c) => c[1])))
      for (let y = top; y <= bottom; y++) {
        // Where the row crosses the square's four edges; the span between the outermost crossings is inside.
        let left = Infinity
        let right = -Infinity
        for (let i = 0; i < 4; i++) {
          const [x0, y0] = corners[i]!
          const [x1, y1] = corners[(i + 1) % 4]!
          if ((y < y0 && y < y1) || (y > y0 && y > y1) || y0 === y1) continue
          const x = x0 + ((y - y0) / (y1 - y0)) * (x1 - x0)
          left = Math.min(left, x)
          right = Math.max(right, x)
        }
        if (left <= right) this.rect(Math.round(left), y, Math.round(right) - Math.round(left) + 1, 1, color)
      }
    }
    let u = 0
    for (const ch of text) {
      const rows = FONT.get(ch) ?? FONT.get('?')!
      if (ch === '—') cell(u, 3 * scale, glyphWidth(ch) * scale)
      else for (let r = 0; r < 7; r++) for (let c = 0; c < 5; c++) if ((rows[r]! >> (4 - c)) & 1) cell(u + c * scale, r * scale, scale)
      u += (glyphWidth(ch) + 1) * scale
    }
  }
}

// --------------------------------------------------------------------------------------------------------------
// The card

/** Where the per-person text starts (top-left corner) and the largest scale tried. */
export const FIELDS = {
  name: { x: 280, y: 156, width: CARD_WIDTH - 320, scales: [5, 4, 3] },
  idNumber: { x: 280, y: 240, width: CARD_WIDTH - 320, scales: [5, 4, 3] },
  city: { x: 280, y: 324, width: 260, scales: [4, 3, 2] },
  role: { x: 560, y: 324, width: 256, scales: [4, 3, 2] },
} as const
/** The bottom band's notice: white on red, centred, at scale 4. */
export const NOTICE_AT = { y: CARD_HEIGHT - 46, scale: 4 } as const

let template: Bitmap | null = null
/** Each card is drawn here over a copy of the template: no new 460 KB per card. */
let scratch: Bitmap | null = null

/** Everything that is the same on every card, drawn once. */
function cardTemplate(): Bitmap {
  if (template) return template
  const b = new Bitmap(CARD_WIDTH, CARD_HEIGHT)
  b.rect(0, 0, CARD_WIDTH, CARD_HEIGHT, C.card)
  b.rotatedText('SAMPLE', CARD_WIDTH / 2, CARD_HEIGHT / 2 + 10, 18, -0.42, C.watermark)
  b.rect(0, 0, CARD_WIDTH, 92, C.band)
  b.text('BROKERNET', 40, 22, 4, C.white)
  b.text('DEMO IDENTITY CARD', 40, 60, 2, C.white)
  const stamp = 'SAMPLE'
  b.rect(CARD_WIDTH - 40 - textWidth(stamp, 4) - 24, 18, textWidth(stamp, 4) + 24, 56, C.red)
  b.text(stamp, CARD_WIDTH - 40 - textWidth(stamp, 4) - 12, 32, 4, C.white)
  // Photo: a grey silhouette, so no real face is ever on a demo card.
  b.rect(40, 124, 200, 250, C.photo)
  b.ellipse(140, 210, 46, 54, C.figure)
  b.ellipse(140, 374, 92, 100, C.figure, 374)
  // A chip, as on real cards.
  b.rect(40, 394, 70, 52, C.chip)
  b.rect(40, 418, 70, 3, C.card)
  b.rect(73, 394, 3, 52, C.card)
  b.text('NAME', 280, 130, 2, C.label)
  b.text('ID NUMBER', 280, 214, 2, C.label)
  b.text('CITY', 280, 298, 2, C.label)
  b.text('ROLE', 560, 298, 2, C.label)
  b.rect(0, CARD_HEIGHT - 64, CARD_WIDTH, 64, C.red)
  const notice = cardText(SAMPLE_NOTICE)
  b.text(notice, Math.round((CARD_WIDTH - textWidth(notice, NOTICE_AT.scale)) / 2), NOTICE_AT.y, NOTICE_AT.scale, C.white)
  template = b
  return b
}

/** The largest scale from `scales` at which `text` fits in `width` pixels, or the smallest. */
export const fitScale = (text: string, width: number, scales: readonly number[]) =>
  scales.find((s) => textWidth(text, s) <= width) ?? scales[scales.length - 1]!

/** A sample identity card for a demo person, as PNG bytes. Same person, same bytes. */
export function renderSampleIdCard(card: SampleCard): Uint8Array {
  scratch ??= new Bitmap(CARD_WIDTH, CARD_HEIGHT)
  const b = scratch.copyFrom(cardTemplate())
  for (const key of ['name', 'idNumber', 'city', 'role'] as const) {
    const f = FIELDS[key]
    const text = cardText(key === 'name' ? card.fullName : card[key])
    b.text(text, f.x, f.y, fitScale(text, f.width, f.scales), C.text)
  }
  b.text(cardText(`NO. ${card.idNumber}`), 130, 412, 2, C.label)
  return encodePng(b)
}

// --------------------------------------------------------------------------------------------------------------
// PNG: signature, IHDR, PLTE, one IDAT (each row prefixed by filter byte 0), IEND.

function encodePng(b: Bitmap): Uint8Array {
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, b.width)
  view.setUint32(4, b.height)
  ihdr.set([8, 3, 0, 0, 0], 8) // 8 bits, indexed colour, deflate, adaptive filtering, no interlace
  const chunks = [
    chunk('IHDR', ihdr),
    chunk('PLTE', Uint8Array.from(PALETTE.flat())),
    // Run-length matching only: five times faster than the default on these flat colours, for 16 KB instead of 8 KB.
    chunk('IDAT', deflateSync(b.rows, { strategy: constants.Z_RLE })),
    chunk('IEND', new Uint8Array(0)),
  ]
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  const out = new Uint8Array(signature.length + chunks.reduce((n, c) => n + c.length, 0))
  out.set(signature)
  let at = signature.length
  for (const c of chunks) out.set(c, at), (at += c.length)
  return out
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}
