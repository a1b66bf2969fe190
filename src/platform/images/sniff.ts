// What an upload is, read from its own bytes (never its name or declared type), and how large its header says it is:
// enough to refuse a bomb, an animation or an unknown type before any decoder sees the file. Plain JavaScript over the
// headers only (no pixel is decoded), so the server runs it before handing the file to the image process, and that
// process runs it again right before decoding.
import { groupThousands } from '../../shared/number-format'
import { MAX_PIXELS, MAX_SIDE, MAX_UPLOAD_BYTES } from './limits'
import { ImageRefused } from './refusal'

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'heic' | 'avif'
export type Sniffed = { format: ImageFormat; width: number; height: number }

const ACCEPTED = 'a JPEG, PNG, WebP or HEIC photo'
/**
 * Segments, chunks or boxes read before giving up on a header. Phones write a dozen or two; a file of millions of
 * empty ones would otherwise keep the server's event loop on this loop for tens of milliseconds.
 */
const MAX_HEADER_PARTS = 4096
const tooManyParts = (kind: string) => new ImageRefused('undecodable', `The ${kind} file is damaged (thousands of empty parts before its image).`)

export function sniffImage(bytes: Uint8Array): Sniffed {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new ImageRefused('too-large', `The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`)
  if (bytes.length === 0) throw new ImageRefused('undecodable', 'The file is empty.')
  const found = header(bytes)
  const { width, height } = found
  if (!(width > 0 && height > 0)) throw new ImageRefused('undecodable', 'The image does not say its size.')
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
    throw new ImageRefused(
      'too-many-pixels',
      `The image is ${width} × ${height} pixels: at most ${MAX_PIXELS / 1e6} megapixels and ${groupThousands(MAX_SIDE)} pixels a side are accepted.`,
    )
  return found
}

function header(b: Uint8Array): Sniffed {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return jpeg(b)
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(b)
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webp(b)
  if (ascii(b, 4, 4) === 'ftyp') return isoMedia(b)
  throw new ImageRefused('unsupported-type', `${otherKind(b)} is not accepted: send ${ACCEPTED}.`)
}

/** A name for a refused kind, so the message says what was sent. */
function otherKind(b: Uint8Array): string {
  if (ascii(b, 0, 4) === 'GIF8') return 'A GIF image (GIF animations included)'
  if (ascii(b, 0, 5) === '%PDF-') return 'A PDF document'
  if (ascii(b, 0, 2) === 'BM') return 'A BMP image'
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'A TIFF image'
  if (startsWith(b, [0xff, 0x0a]) || ascii(b, 4, 8) === 'JXL \r\n\x87\n') return 'A JPEG XL image'
  const text = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart().toLowerCase()
  if (text.startsWith('<')) return /<svg[\s>]/.test(text) ? 'An SVG image' : 'An HTML or XML document'
  return 'This kind of file'
}

// --- JPEG: markers up to the frame header (SOFn) give the size; EXIF and other segments are skipped by length.

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
const isFrameHeader = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc

function jpeg(b: Uint8Array): Sniffed {
  let i = 2
  for (let parts = 0; ; parts++) {
    if (parts > MAX_HEADER_PARTS) throw tooManyParts('JPEG')
    if (i + 4 > b.length) throw truncated('JPEG')
    if (b[i] !== 0xff) throw new ImageRefused('undecodable', 'The JPEG is damaged (a segment does not start where the previous one ends).')
    let m = b[i + 1]!
    while (m === 0xff && i + 2 < b.length) m = b[++i + 1]! // fill bytes
    if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      i += 2 // markers without a length
      continue
    }
    if (m === 0xda || m === 0xd9) throw new ImageRefused('undecodable', 'The JPEG has no frame header before its image data.')
    if (i + 4 > b.length) throw truncated('JPEG')
    const length = u16be(b, i + 2)
    if (length < 2) throw new ImageRefused('undecodable', 'The JPEG is damaged (a segment has an impossible length).')
    if (isFrameHeader(m)) {
      if (i + 9 > b.length) throw truncated('JPEG')
      // Height 0 would be given later by a DNL marker: no phone writes that, and it hides the size from this check.
      return { format: 'jpeg', height: u16be(b, i + 5), width: u16be(b, i + 7) }
    }
    i += 2 + length
  }
}

// --- PNG: IHDR gives the size; an acTL chunk before the image data makes it an animation (APNG).

function png(b: Uint8Array): Sniffed {
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') throw truncated('PNG')
  const size = { format: 'png' as const, width: u32be(b, 16), height: u32be(b, 20) }
  for (let i = 8, parts = 0; ; parts++) {
    if (parts > MAX_HEADER_PARTS) throw tooManyParts('PNG')
    if (i + 8 > b.length) throw truncated('PNG')
    const type = ascii(b, i + 4, 4)
    if (type === 'acTL') throw new ImageRefused('animated', 'Animated PNGs are not accepted: send a still photo.')
    if (type === 'IDAT') return size
    i += 12 + u32be(b, i)
  }
}

// --- WebP: a lossy (VP8), lossless (VP8L) or extended (VP8X) first chunk, each with the size in its own layout.

function webp(b: Uint8Array): Sniffed {
  if (b.length < 30) throw truncated('WebP')
  const chunk = ascii(b, 12, 4)
  if (chunk === 'VP8 ') {
    if (!(b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)) throw new ImageRefused('undecodable', 'The WebP image is damaged.')
    return { format: 'webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff }
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) throw new ImageRefused('undecodable', 'The WebP image is damaged.')
    const bits = u32le(b, 21)
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8X') {
    if (b[20]! & 0x02) throw new ImageRefused('animated', 'Animated WebP images are not accepted: send a still photo.')
    return { format: 'webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 }
  }
  throw new ImageRefused('undecodable', 'The WebP image is damaged.')
}

// --- HEIF (HEIC from iPhones, AVIF): brands in `ftyp`, sizes in the `ispe` properties inside `meta`.

const STILL_HEIC = new Set(['heic', 'heix', 'heim', 'mif1', 'mif2'])
const SEQUENCES = new Set(['msf1', 'hevc', 'hevx', 'heis', 'hevs', 'avis'])

function isoMedia(b: Uint8Array): Sniffed {
  const ftypSize = u32be(b, 0)
  if (ftypSize < 16 || ftypSize > b.length) throw truncated('HEIF')
  const major = ascii(b, 8, 4)
  const brands = new Set([major])
  for (let i = 16; i + 4 <= ftypSize; i += 4) brands.add(ascii(b, i, 4))
  if (SEQUENCES.has(major)) throw new ImageRefused('animated', 'Image sequences and animations are not accepted: send a still photo.')
  let format: ImageFormat
  if (major === 'avif' || (brands.has('avif') && !brands.has('heic') && !brands.has('heix'))) format = 'avif'
  else if (STILL_HEIC.has(major) || brands.has('heic') || brands.has('heix')) format = 'heic'
  else throw new ImageRefused('unsupported-type', `${major.startsWith('qt') || brands.has('isom') || brands.has('mp42') ? 'A video' : 'This kind of file'} is not accepted: send ${ACCEPTED}.`)
  // The largest size any image item announces: a grid's (the whole photo) is larger than its tiles'. A hidden item
  // that announces a bomb refuses the file too, as nothing of it is needed.
  let width = 0
  let height = 0
  const meta = findBox(b, ftypSize, b.length, 'meta')
  if (!meta) throw new ImageRefused('undecodable', 'The HEIF image has no metadata box.')
  const iprp = findBox(b, meta.start + 4, meta.end, 'iprp') // meta is a full box: 4 bytes of version and flags
  const ipco = iprp && findBox(b, iprp.start, iprp.end, 'ipco')
  if (!ipco) throw new ImageRefused('undecodable', 'The HEIF image has no item properties.')
  for (const box of boxes(b, ipco.start, ipco.end)) {
    if (box.type !== 'ispe' || box.end - box.start < 12) continue
    const w = u32be(b, box.start + 4)
    const h = u32be(b, box.start + 8)
    if (w * h > width * height) [width, height] = [w, h]
  }
  return { format, width, height }
}

type Box = { type: string; start: number; end: number }

function* boxes(b: Uint8Array, from: number, to: number): Generator<Box> {
  for (let i = from, parts = 0; i + 8 <= to; parts++) {
    if (parts > MAX_HEADER_PARTS) throw tooManyParts('HEIF')
    let size = u32be(b, i)
    let start = i + 8
    if (size === 1) {
      if (i + 16 > to) throw truncated('HEIF')
      size = u32be(b, i + 8) * 2 ** 32 + u32be(b, i + 12)
      start = i + 16
    } else if (size === 0) size = to - i
    if (size < start - i || i + size > to) throw truncated('HEIF')
    yield { type: ascii(b, i + 4, 4), start, end: i + size }
    i += size
  }
}

function findBox(b: Uint8Array, from: number, to: number, type: string): Box | undefined {
  for (const box of boxes(b, from, to)) if (box.type === type) return box
  return undefined
}

// --- bytes

const truncated = (kind: string) => new ImageRefused('undecodable', `The ${kind} file ends before its header does: it is truncated or damaged.`)
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v)
const ascii = (b: Uint8Array, at: number, n: number) => (at + n <= b.length ? String.fromCharCode(...b.subarray(at, at + n)) : '')
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8)
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!
const u32le = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0
