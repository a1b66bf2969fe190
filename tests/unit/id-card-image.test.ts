import { describe, expect, test } from 'bun:test'
import { inflateSync } from 'node:zlib'
import {
  C,
  CARD_HEIGHT,
  CARD_WIDTH,
  cardText,
  FIELDS,
  fitScale,
  glyphRows,
  NOTICE_AT,
  renderSampleIdCard,
  SAMPLE_NOTICE,
  textWidth,
} from '../../db/seed/id-card-image'
import { detectDocumentType } from '../../src/platform/documents'

const RAHUL = { fullName: 'Rahul Sharma', idNumber: 'IDC01000123', city: 'Mumbai', role: 'Broker' }

/** The palette index of every pixel, read back from the PNG (one IDAT, filter 0 on every row). */
function decode(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let idat: Uint8Array | null = null
  let width = 0
  let height = 0
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at)
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8))
    if (type === 'IHDR') (width = view.getUint32(at + 8)), (height = view.getUint32(at + 12))
    if (type === 'IDAT') idat = png.subarray(at + 8, at + 8 + length)
    at += 12 + length
  }
  const rows = inflateSync(idat!)
  for (let y = 0; y < height; y++) expect(rows[y * (width + 1)]).toBe(0)
  return { width, height, at: (x: number, y: number) => rows[y * (width + 1) + 1 + x]! }
}

/**
 * Reads `length` characters drawn at (x, y) in `scale`, by comparing each glyph cell's centre pixel with the font:
 * proof that the text on the card is the text asked for.
 */
function readText(img: ReturnType<typeof decode>, x: number, y: number, scale: number, color: number, expected: string): string {
  let out = ''
  let cx = x
  for (const want of expected) {
    const width = want === '—' ? 9 : 5
    const lit = (r: number, c: number) => img.at(cx + c * scale + (scale >> 1), y + r * scale + (scale >> 1)) === color
    if (want === '—') out += [...Array(9).keys()].every((c) => lit(3, c)) && !lit(2, 4) ? '—' : '¿'
    else {
      const rows = glyphRows(want)
      const same = rows.every((bits, r) => [0, 1, 2, 3, 4].every((c) => lit(r, c) === !!((bits >> (4 - c)) & 1)))
      out += same ? want : '¿'
    }
    cx += (width + 1) * scale
  }
  return out
}

describe('sample ID card image', () => {
  const png = renderSampleIdCard(RAHUL)
  const img = decode(png)

  test('a PNG by its bytes, as the document store judges uploads, of an ID-1 card shape', () => {
    expect(detectDocumentType(png)).toEqual({ mime: 'image/png', ext: 'png' })
    expect([img.width, img.height]).toEqual([CARD_WIDTH, CARD_HEIGHT])
    expect(png.length).toBeLessThan(40_000)
  })

  test('the name and ID number are on it, and it says SAMPLE — NOT A REAL DOCUMENT', () => {
    const field = (key: keyof typeof FIELDS, text: string) => {
      const f = FIELDS[key]
      return readText(img, f.x, f.y, fitScale(text, f.width, f.scales), C.text, text)
    }
    expect(field('name', 'RAHUL SHARMA')).toBe('RAHUL SHARMA')
    expect(field('idNumber', 'IDC01000123')).toBe('IDC01000123')
    expect(field('city', 'MUMBAI')).toBe('MUMBAI')
    const notice = cardText(SAMPLE_NOTICE)
    const x = Math.round((CARD_WIDTH - textWidth(notice, NOTICE_AT.scale)) / 2)
    expect(readText(img, x, NOTICE_AT.y, NOTICE_AT.scale, C.white, notice)).toBe('SAMPLE — NOT A REAL DOCUMENT')
    // The reader does refuse: another name is not read where this one is.
    expect(field('name', 'PRIYA MEHTA')).not.toBe('PRIYA MEHTA')
  })

  test('same person, same bytes; another person, another card (the template is not drawn over)', () => {
    expect(Buffer.from(renderSampleIdCard(RAHUL)).equals(Buffer.from(png))).toBe(true)
    const other = renderSampleIdCard({ ...RAHUL, fullName: 'Priya Mehta', idNumber: 'IDC01010042' })
    expect(Buffer.from(other).equals(Buffer.from(png))).toBe(false)
    expect(Buffer.from(renderSampleIdCard(RAHUL)).equals(Buffer.from(png))).toBe(true)
  })

  test('text in capitals without accents; characters the font lacks become ?; long names are drawn smaller', () => {
    expect(cardText("Zoë O'Brien-Smith")).toBe("ZOE O'BRIEN-SMITH")
    expect(cardText('Ωmar')).toBe('?MAR')
    const long = cardText('Venkata Subramanya Lakshminarasimhan')
    expect(fitScale(long, FIELDS.name.width, FIELDS.name.scales)).toBeLessThan(5)
  })
})
