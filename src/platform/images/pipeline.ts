// One photo, in the image process: checked, decoded whole, turned upright, re-encoded to the two WebP sizes, hashed.
// Nothing of the upload's bytes reaches the outputs: they are new encodings of the decoded pixels, with no metadata
// (sharp writes none unless asked: no EXIF, GPS, camera serial, XMP or ICC profile).
import type { Sharp as Pipeline } from 'sharp'
import { dHash } from './dhash'
import { LARGE_MAX_BYTES, LARGE_QUALITIES, LARGE_SIDE, MAX_PIXELS, THUMB_MAX_BYTES, THUMB_QUALITIES, THUMB_SIDE, WEBP_EFFORT } from './limits'
import { ImageRefused } from './refusal'
import { loadSharp, type Sharp } from './sharp-loader'
import { sniffImage, type Sniffed } from './sniff'
import type { PhotoVariant, ProcessedPhoto } from './types'

export async function processHere(bytes: Uint8Array, nativeDir?: string): Promise<ProcessedPhoto> {
  const source = sniffImage(bytes)
  const sharp = await loadSharp(nativeDir)
  // Decoded once, upright, down to the large size; both outputs and the hash are made from these pixels.
  const decoded = await decode(sharp, bytes, source)
  const { data, info } = await decoded
    .resize({ width: LARGE_SIDE, height: LARGE_SIDE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' }) // a 16-bit PNG too
    .toBuffer({ resolveWithObject: true })
    .catch((e: unknown) => {
      throw refusalOf(e, source)
    })
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } }
  const large = await encode(() => sharp(data, raw), LARGE_QUALITIES, LARGE_MAX_BYTES)
  const thumb = await encode(
    () => sharp(data, raw).resize({ width: THUMB_SIDE, height: THUMB_SIDE, fit: 'inside', withoutEnlargement: true }),
    THUMB_QUALITIES,
    THUMB_MAX_BYTES,
  )
  const grey = await sharp(data, raw).flatten({ background: '#ffffff' }).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer()
  return { large, thumb, phash: dHash(grey), sha256: sha256(bytes), source }
}

async function decode(sharp: Sharp, bytes: Uint8Array, source: Sniffed): Promise<Pipeline> {
  if (source.format === 'heic') {
    const { decodeHeic } = await import('./heic')
    const image = await decodeHeic(bytes)
    const pixels = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    return image.alpha ? pixels : pixels.removeAlpha()
  }
  // failOn 'error': a truncated or damaged file is refused rather than coming out grey at the bottom.
  // limitInputPixels repeats the sniff's limit inside libvips; `animated: false` reads one frame (animations were
  // refused by the sniff). rotate() with no angle applies the EXIF orientation, before anything else.
  return sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS, sequentialRead: true, animated: false }).rotate()
}

/** WebP at the first quality whose result fits the budget (the last one whatever it weighs: the budget is for a typical photo). */
async function encode(pixels: () => Pipeline, qualities: readonly number[], budget: number): Promise<PhotoVariant> {
  let out: { data: Buffer; info: { width: number; height: number } } | undefined
  for (const quality of qualities) {
    out = await pixels().webp({ quality, effort: WEBP_EFFORT }).toBuffer({ resolveWithObject: true })
    if (out.data.length <= budget) break
  }
  const bytes = new Uint8Array(out!.data.buffer, out!.data.byteOffset, out!.data.length)
  const hash = sha256(bytes)
  return { bytes, width: out!.info.width, height: out!.info.height, type: 'image/webp', sha256: hash, name: `${hash.slice(0, 32)}.webp` }
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

/** libvips' own words stay in the image process's error; the person gets a sentence. */
function refusalOf(e: unknown, source: Sniffed): Error {
  if (e instanceof ImageRefused) return e
  const message = String((e as Error)?.message ?? e)
  if (/pixel limit/i.test(message)) return new ImageRefused('too-many-pixels', `The image has more than ${MAX_PIXELS / 1e6} megapixels.`)
  const kind = source.format === 'heic' || source.format === 'avif' ? source.format.toUpperCase() : source.format === 'jpeg' ? 'JPEG' : source.format === 'png' ? 'PNG' : 'WebP'
  const refused = new ImageRefused('undecodable', `The ${kind} image could not be decoded completely: it is truncated or damaged.`)
  refused.cause = message
  return refused
}

/** The preview card's size: what WhatsApp, Facebook and X show best (1.91:1). */
export const CARD = { width: 1200, height: 630, quality: 80 } as const

/**
 * A link preview's image (issue 34): one of our own stored WebP images (never an upload), cropped to fill 1200 × 630
 * around its centre, as a JPEG (what every preview fetcher reads), without metadata.
 */
export async function cardHere(bytes: Uint8Array, nativeDir?: string): Promise<Uint8Array> {
  const sharp = await loadSharp(nativeDir)
  const out = await sharp(bytes, { failOn: 'error', limitInputPixels: 4_000_000 })
    .resize(CARD.width, CARD.height, { fit: 'cover', position: 'centre' })
    .jpeg({ quality: CARD.quality, mozjpeg: false })
    .toBuffer()
  return new Uint8Array(out)
}
