// Real images for the image pipeline's tests, made with sharp in a process of their own
// (`bun tests/support/image-fixtures.ts DIR`): tests/unit/images.test.ts checks that its own process never loads
// libvips, which is the image process's alone. HEIC cannot be written by sharp's prebuilt libvips (no HEVC encoder):
// the HEIC samples are committed files (tests/fixtures/images/README.md says how they were made).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

/** Text planted in the metadata of every fixture: none of it may come out of the pipeline. */
export const PLANTED = { make: 'PlantedMake', model: 'PlantedModel X1', serial: 'SN-PLANTED-4242', software: 'PlantedCam 1.0' }

/**
 * A phone-photo stand-in: sky, buildings with windows, sensor noise, and a red block in the stored top-left corner
 * (which Orientation 6 turns to the top-right). About 4 MB as a 12 MP JPEG at quality 92, like a phone's.
 */
export function scene(width: number, height: number, seed = 1): Uint8Array {
  const px = new Uint8Array(width * height * 3)
  let s = seed
  const noise = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5) * 22
  const block = Math.round(width * 0.08)
  for (let y = 0; y < height; y++) {
    const t = y / height
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      let r = 90 + 120 * t
      let g = 140 + 70 * t
      let b = 230 - 60 * t
      const column = Math.floor((x * 4032) / width / 380)
      const top = height - (height * (900 + ((column * 7919 * seed) % 1300))) / 3024
      if (y > top) {
        const shade = 60 + ((column * 31 * seed) % 120)
        r = shade + 30
        g = shade + 20
        b = shade
        const wx = (x * 4032) / width
        const wy = (y * 3024) / height
        if (wx % 60 > 20 && wx % 60 < 48 && wy % 90 > 30 && wy % 90 < 70) [r, g, b] = [200, 210, 170 + (column % 5) * 10]
      }
      if (x < block && y < block) [r, g, b] = [230, 20, 20]
      const n = noise()
      px[i] = r + n + 10 * Math.sin(x / 40) * Math.cos(y / 55)
      px[i + 1] = g + n
      px[i + 2] = b + n
    }
  }
  return px
}

const exif = {
  IFD0: { Make: PLANTED.make, Model: PLANTED.model, Software: PLANTED.software },
  IFD2: { BodySerialNumber: PLANTED.serial },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '28/1 36/1 5012/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 12/1 3456/100' },
}

export async function makeImageFixtures(dir: string): Promise<void> {
  // Imported here, not at the top: the test imports PLANTED from this file and must not load sharp by doing so.
  const sharp = (await import('sharp')).default
  mkdirSync(dir, { recursive: true })
  const raw = (w: number, h: number, seed = 1) => sharp(scene(w, h, seed), { raw: { width: w, height: h, channels: 3 } })
  // The 12 MP phone photo: stored landscape, EXIF Orientation 6 (shown turned a quarter clockwise), GPS, serial.
  await raw(4032, 3024).jpeg({ quality: 92 }).withExif(exif).withMetadata({ orientation: 6 }).toFile(join(dir, 'photo.jpg'))
  // The same picture smaller and harder compressed (and as turned), for the perceptual hash; and another picture.
  await raw(4032, 3024).resize(1500).jpeg({ quality: 55 }).withMetadata({ orientation: 6 }).toFile(join(dir, 'photo-small.jpg'))
  await raw(1200, 900, 7).flop().jpeg({ quality: 85 }).toFile(join(dir, 'other.jpg'))
  await raw(1000, 700, 3).png().withExif(exif).toFile(join(dir, 'photo.png'))
  await raw(1000, 700, 3).toColourspace('rgb16').png().toFile(join(dir, 'photo16.png'))
  await raw(2000, 1500, 5).webp({ quality: 80 }).withExif(exif).toFile(join(dir, 'photo.webp'))
  await raw(800, 600, 9).avif({ quality: 50, effort: 2 }).toFile(join(dir, 'photo.avif'))
  // Two-frame animations.
  const frames = [0, 1].map((i) => sharp({ create: { width: 40, height: 30, channels: 3, background: i ? '#00ff00' : '#ff0000' } }).png().toBuffer())
  const [a, b] = await Promise.all(frames)
  await sharp([a!, b!], { join: { animated: true } }).gif({ delay: [200, 200], loop: 0 }).toFile(join(dir, 'animated.gif'))
  await sharp([a!, b!], { join: { animated: true } }).webp({ delay: [200, 200], loop: 0 }).toFile(join(dir, 'animated.webp'))
}

if (import.meta.main) await makeImageFixtures(process.argv[2]!)
