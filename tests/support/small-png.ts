import { deflateSync } from 'node:zlib'

const ascii = (s: string) => new TextEncoder().encode(s)

/** One PNG chunk: its length, type, data and the CRC of type and data (the PNG specification, section 5.3). */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = new Uint8Array([...ascii(type), ...data])
  const out = new Uint8Array(12 + data.length)
  new DataView(out.buffer).setUint32(0, data.length)
  out.set(body, 4)
  new DataView(out.buffer).setUint32(8 + data.length, Bun.hash.crc32(body))
  return out
}

/**
 * An 8-bit RGB PNG whose header says width × height and whose image data is `rows` (filter bytes included), deflated:
 * the whole picture, or, for a test of what a header announces, less than it says.
 */
export function rgbPng(width: number, height: number, rows: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13)
  new DataView(ihdr.buffer).setUint32(0, width)
  new DataView(ihdr.buffer).setUint32(4, height)
  ihdr.set([8, 2, 0, 0, 0], 8)
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk('IHDR', ihdr), ...pngChunk('IDAT', deflateSync(rows)), ...pngChunk('IEND', new Uint8Array())])
}

/**
 * A small real PNG (64 × 48, RGB) whose pixels depend on `seed`: each seed a picture of its own. Photos are named by
 * their content and shared by every listing showing the same picture, so a test about one listing's files needs one.
 */
export function seededPng(seed: number): Uint8Array {
  const [w, h] = [64, 48]
  const rows = new Uint8Array((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set([(x * seed * 7) & 255, (y * 5 + seed * 40) & 255, (x * y + seed * 90) & 255], y * (w * 3 + 1) + 1 + x * 3)
  return rgbPng(w, h, rows)
}
