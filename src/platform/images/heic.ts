// HEIC (HEVC-coded HEIF, what iPhones take) decoded by libheif and libde265 compiled to WebAssembly (libheif-js):
// sharp's prebuilt libvips reads HEIF only with AV1 inside (AVIF), HEVC being left out of it for patent reasons.
// Loaded on the first HEIC only; its 1.4 MB of WebAssembly is embedded in the binary as a file.
import heifWasm from 'libheif-js/libheif-wasm/libheif.wasm' with { type: 'file' }
import { readFileSync } from 'node:fs'
import { MAX_PIXELS, MAX_SIDE } from './limits'
import { ImageRefused } from './refusal'

type HeifImage = {
  get_width(): number
  get_height(): number
  is_primary(): boolean
  has_alpha_channel(): boolean
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (r: unknown) => void): void
  free(): void
}
type Libheif = { HeifDecoder: new () => { decoder: unknown; decode(b: Uint8Array): HeifImage[] }; heif_context_free(c: unknown): void }

let libheif: Libheif | null = null

async function load(): Promise<Libheif> {
  if (libheif) return libheif
  const factory = (await import('libheif-js/libheif-wasm/libheif.js')).default as (o: object) => Libheif
  // The module prints its own failures with console.log; the image process's output is not the server's log.
  libheif = factory({ wasmBinary: readFileSync(heifWasm), print: () => {}, printErr: () => {} })
  return libheif
}

/** The primary image as RGBA pixels, rotated and mirrored as the file says (libheif applies `irot`/`imir`). */
export async function decodeHeic(bytes: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number; alpha: boolean }> {
  const heif = await load()
  const decoder = new heif.HeifDecoder()
  const log = console.log
  console.log = () => {} // its "Could not parse HEIF file" and the like
  let images: HeifImage[] = []
  try {
    images = decoder.decode(bytes)
    const image = images.find((i) => i.is_primary()) ?? images[0]
    if (!image) throw new ImageRefused('undecodable', 'The HEIC image could not be read: it is damaged or holds no image.')
    const width = image.get_width()
    const height = image.get_height()
    // The sniff read the sizes the file announces; this is the size libheif will decode to.
    if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
      throw new ImageRefused('too-many-pixels', `The image is ${width} × ${height} pixels: at most ${MAX_PIXELS / 1e6} megapixels are accepted.`)
    const data = new Uint8ClampedArray(width * height * 4)
    const done = await new Promise<unknown>((resolve) => image.display({ data, width, height }, resolve))
    if (!done) throw new ImageRefused('undecodable', 'The HEIC image could not be decoded: it is truncated or damaged.')
    return { data: new Uint8Array(data.buffer), width, height, alpha: image.has_alpha_channel() }
  } finally {
    console.log = log
    for (const image of images) image.free()
    if (decoder.decoder) heif.heif_context_free(decoder.decoder)
  }
}
