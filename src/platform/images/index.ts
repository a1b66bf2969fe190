// Listing photos' image pipeline (issue 34): checked by content, decoded whole in a separate process, re-encoded
// without metadata to a 320 px and a 1,600 px WebP, hashed. See docs/decisions/036-images.md.
//
//   const images = createImagePool(config)                 // nothing starts until the first photo
//   const photo = await images.process(bytes)              // ProcessedPhoto, or throws:
//   //  ImageRefused      (e.status 413 | 415 | 422, e.detail for the person)
//   //  ImagesUnavailable (503: busy, or the image library could not start)
//   await images.close()                                   // on shutdown
import { join } from 'node:path'
import { ImagePool, type ImagePoolOptions } from './pool'

export { ImagePool, type ImagePoolOptions } from './pool'
export { ImageRefused, ImagesUnavailable, type RefusalCode } from './refusal'
export { hammingDistance } from './dhash'
export { sniffImage, type ImageFormat, type Sniffed } from './sniff'
export type { PhotoVariant, ProcessedPhoto } from './types'
export * as imageLimits from './limits'

/** The server's pool: sharp's native parts go to DATA_DIR/.native when running as the compiled binary. */
export function createImagePool(config: { dataDir: string }, options: Omit<ImagePoolOptions, 'nativeDir'> = {}): ImagePool {
  return new ImagePool({ ...options, nativeDir: join(config.dataDir, '.native') })
}
