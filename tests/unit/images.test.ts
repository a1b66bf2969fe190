import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { hammingDistance, ImagePool, ImageRefused, ImagesUnavailable, imageLimits, sniffImage, type ProcessedPhoto } from '../../src/platform/images'
import { PLANTED } from '../support/image-fixtures'
import { pngChunk, rgbPng } from '../support/small-png'

// The image pipeline (src/platform/images, issue 34) on real images: made by sharp in a process of their own
// (tests/support/image-fixtures.ts), HEIC from tests/fixtures/images. Photos go through the pool, so through the image
// process, as the server will use it.
const root = new URL('../..', import.meta.url).pathname
let dir: string
let pool: ImagePool
const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)))
const heic = (name: string) => new Uint8Array(readFileSync(join(root, 'tests/fixtures/images', name)))

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'brokernet-images-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), dir], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  pool = new ImagePool()
}, 120_000)

afterAll(async () => {
  await pool?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** What a refusal says, or a failure of the test when the photo was accepted. */
async function refusal(bytes: Uint8Array, p = pool): Promise<ImageRefused> {
  try {
    await p.process(bytes)
  } catch (e) {
    if (e instanceof ImageRefused) return e
    throw e
  }
  throw new Error('the image was accepted')
}

const ascii = (s: string) => new TextEncoder().encode(s)
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1')
function indexOf(hay: Uint8Array, needle: string): number {
  return Buffer.from(hay).indexOf(Buffer.from(needle, 'latin1'))
}
/** The chunk names of a WebP file (RIFF): VP8/VP8L/VP8X/ALPH carry pixels; EXIF, XMP and ICCP would carry metadata. */
function webpChunks(b: Uint8Array): string[] {
  expect(text(b.subarray(0, 4))).toBe('RIFF')
  expect(text(b.subarray(8, 12))).toBe('WEBP')
  const chunks: string[] = []
  for (let i = 12; i + 8 <= b.length; ) {
    const size = b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24)
    chunks.push(text(b.subarray(i, i + 4)))
    i += 8 + size + (size & 1)
  }
  return chunks
}

describe('the image process', () => {
  // First in the file, before any test here loads sharp itself to look at the outputs.
  test('does the decoding: libvips is loaded in the image process, never in the process that asked', async () => {
    const photo = await pool.process(file('photo.jpg'))
    expect(photo.large.width).toBe(1200)
    const [pid] = pool.pids
    expect(pid).toBeDefined()
    expect(pid).not.toBe(process.pid)
    expect(readFileSync(`/proc/${pid}/maps`, 'utf8')).toContain('libvips-cpp')
    expect(readFileSync('/proc/self/maps', 'utf8')).not.toContain('libvips')
  }, 60_000)
})

describe('accepted photos', () => {
  let jpeg: ProcessedPhoto
  beforeAll(async () => {
    jpeg = await pool.process(file('photo.jpg'))
  }, 60_000)

  test('a 12 MP phone JPEG becomes a 1,600 px and a 320 px WebP, turned upright first (Orientation 6 swaps the sides)', async () => {
    expect(jpeg.source).toEqual({ format: 'jpeg', width: 4032, height: 3024 })
    expect([jpeg.large.width, jpeg.large.height]).toEqual([1200, 1600])
    expect([jpeg.thumb.width, jpeg.thumb.height]).toEqual([240, 320])
    for (const v of [jpeg.large, jpeg.thumb]) {
      expect(v.type).toBe('image/webp')
      expect(webpChunks(v.bytes)[0]).toMatch(/^VP8[ LX]$/)
    }
    // The red block stored at the top left is shown at the top right after a quarter turn clockwise.
    const sharp = (await import('sharp')).default
    const { data, info } = await sharp(jpeg.large.bytes).raw().toBuffer({ resolveWithObject: true })
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)]
    const [r, g, b] = at(info.width - 20, 20)
    expect(r).toBeGreaterThan(180)
    expect(g + b).toBeLessThan(120)
    expect(at(20, 20)[0]! - at(20, 20)[2]!).toBeLessThan(60) // sky, not the block
  })

  test('keeps no metadata: the upload had EXIF with GPS, camera and serial; the outputs have no EXIF, XMP or ICC at all', async () => {
    const sharp = (await import('sharp')).default
    const input = await sharp(file('photo.jpg')).metadata()
    expect(input.orientation).toBe(6)
    expect(text(input.exif!)).toContain(PLANTED.serial)
    expect(indexOf(input.exif!, '\x25\x88')).toBeGreaterThan(0) // the GPS IFD pointer (tag 0x8825, little-endian)
    for (const name of ['photo.jpg', 'photo.png', 'photo.webp']) {
      const out = name === 'photo.jpg' ? jpeg : await pool.process(file(name))
      for (const v of [out.large, out.thumb]) {
        expect(webpChunks(v.bytes).filter((c) => !/^(VP8 |VP8L|VP8X|ALPH)$/.test(c))).toEqual([])
        for (const planted of Object.values(PLANTED)) expect(indexOf(v.bytes, planted)).toBe(-1)
        const m = await sharp(v.bytes).metadata()
        expect([m.exif, m.xmp, m.icc, m.orientation]).toEqual([undefined, undefined, undefined, undefined])
      }
    }
  }, 60_000)

  test('sizes stay within the budgets for a typical photo (20 KB and 250 KB) and names are the content hash', () => {
    expect(jpeg.thumb.bytes.length).toBeLessThanOrEqual(imageLimits.THUMB_MAX_BYTES)
    expect(jpeg.large.bytes.length).toBeLessThanOrEqual(imageLimits.LARGE_MAX_BYTES)
    for (const v of [jpeg.large, jpeg.thumb]) {
      const hash = new Bun.CryptoHasher('sha256').update(v.bytes).digest('hex')
      expect(v.sha256).toBe(hash)
      expect(v.name).toBe(`${hash.slice(0, 32)}.webp`)
    }
    expect(jpeg.sha256).toBe(new Bun.CryptoHasher('sha256').update(file('photo.jpg')).digest('hex'))
  })

  test('the perceptual hash finds the same picture resized and recompressed, and tells another picture apart', async () => {
    const small = await pool.process(file('photo-small.jpg'))
    const other = await pool.process(file('other.jpg'))
    expect(jpeg.phash).toMatch(/^[0-9a-f]{16}$/)
    expect(hammingDistance(small.phash, jpeg.phash)).toBeLessThanOrEqual(6)
    expect(hammingDistance(small.phash, other.phash)).toBeGreaterThanOrEqual(16)
    expect(hammingDistance(jpeg.phash, jpeg.phash)).toBe(0)
  }, 60_000)

  test('PNG (also 16-bit), WebP and AVIF are accepted and never enlarged', async () => {
    const png = await pool.process(file('photo.png'))
    expect(png.source.format).toBe('png')
    expect([png.large.width, png.large.height, png.thumb.width, png.thumb.height]).toEqual([1000, 700, 320, 224])
    const png16 = await pool.process(file('photo16.png'))
    expect([png16.large.width, png16.large.height]).toEqual([1000, 700])
    expect(hammingDistance(png16.phash, png.phash)).toBeLessThanOrEqual(2)
    const webp = await pool.process(file('photo.webp'))
    expect([webp.source.format, webp.large.width, webp.large.height]).toEqual(['webp', 1600, 1200])
    const avif = await pool.process(file('photo.avif'))
    expect([avif.source.format, avif.large.width, avif.large.height]).toEqual(['avif', 800, 600])
  }, 60_000)

  test('HEIC (HEVC, as iPhones write it) is decoded, and its rotation property applied', async () => {
    const sharp = (await import('sharp')).default
    const colours = async (photo: ProcessedPhoto) => {
      const { data, info } = await sharp(photo.large.bytes).raw().toBuffer({ resolveWithObject: true })
      const at = (x: number, y: number) => {
        const [r, g, b] = data.subarray((y * info.width + x) * info.channels)
        return r! > 150 && g! > 150 && b! > 150 ? 'white' : r! > 150 ? 'red' : g! > 150 ? 'green' : b! > 150 ? 'blue' : 'other'
      }
      const e = 6
      return [at(e, e), at(info.width - e, e), at(e, info.height - e), at(info.width - e, info.height - e)]
    }
    const plain = await pool.process(heic('quadrants.heic'))
    expect(plain.source).toEqual({ format: 'heic', width: 96, height: 64 })
    expect([plain.large.width, plain.large.height]).toEqual([96, 64])
    expect(await colours(plain)).toEqual(['red', 'green', 'blue', 'white'])
    const turned = await pool.process(heic('quadrants-irot90.heic'))
    expect([turned.large.width, turned.large.height]).toEqual([64, 96])
    expect(await colours(turned)).toEqual(['green', 'white', 'red', 'blue']) // a quarter turn counter-clockwise
    expect(webpChunks(turned.large.bytes).filter((c) => !/^(VP8 |VP8L|VP8X|ALPH)$/.test(c))).toEqual([])
  }, 60_000)

  test('an HTML page hidden in a JPEG (a comment segment and after its end) comes out as new pixels only', async () => {
    const page = '<html><body><script>alert("polyglot")</script></body></html>'
    const jpg = file('other.jpg')
    const comment = new Uint8Array([0xff, 0xfe, (page.length + 2) >> 8, (page.length + 2) & 0xff, ...ascii(page)])
    const polyglot = new Uint8Array([...jpg.subarray(0, 2), ...comment, ...jpg.subarray(2), ...ascii(page)])
    expect(indexOf(polyglot, '<script>')).toBeGreaterThan(0)
    const out = await pool.process(polyglot)
    for (const v of [out.large, out.thumb]) {
      expect(indexOf(v.bytes, '<script')).toBe(-1)
      expect(indexOf(v.bytes, 'polyglot')).toBe(-1)
      expect(indexOf(v.bytes, '<html')).toBe(-1)
    }
    // And an HTML page that starts with the page and carries a JPEG after it is no image at all.
    const refused = await refusal(new Uint8Array([...ascii(page), ...jpg]))
    expect([refused.status, refused.code]).toEqual([415, 'unsupported-type'])
  }, 60_000)
})

/** A PNG that announces width × height and holds one tiny row (its header alone is what matters). */
const pngAnnouncing = (width: number, height: number) => rgbPng(width, height, new Uint8Array(1 + Math.min(width, 64) * 3))

/** A baseline JPEG frame header announcing width × height, then the end: a few dozen bytes. */
function jpegAnnouncing(width: number, height: number): Uint8Array {
  return new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0, 0xff, 0xd9])
}

describe('refused', () => {
  test('SVG, an animated GIF and a PDF: not accepted types (415), named in the message', async () => {
    const gif = file('animated.gif')
    const sharp = (await import('sharp')).default
    expect((await sharp(gif).metadata()).pages).toBe(2) // really an animation
    const cases: [Uint8Array, RegExp][] = [
      [ascii('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'), /SVG/],
      [ascii('\uFEFF  <svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), /SVG/],
      [gif, /GIF/],
      [ascii('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'), /PDF/],
      [ascii('just some text'), /not accepted/],
    ]
    for (const [bytes, named] of cases) {
      const r = await refusal(bytes)
      expect([r.status, r.code]).toEqual([415, 'unsupported-type'])
      expect(r.detail).toMatch(named)
    }
  })

  test('animations in accepted types: an animated WebP and an animated PNG (422)', async () => {
    const webp = await refusal(file('animated.webp'))
    expect([webp.status, webp.code]).toEqual([422, 'animated'])
    // acTL before the image data is what makes a PNG an animation.
    const png = file('photo.png')
    const actl = pngChunk('acTL', new Uint8Array([0, 0, 0, 2, 0, 0, 0, 0]))
    const apng = new Uint8Array([...png.subarray(0, 33), ...actl, ...png.subarray(33)])
    const r = await refusal(apng)
    expect([r.status, r.code]).toEqual([422, 'animated'])
  })

  test('decompression bombs are refused from their header, before any decoder runs: no image process starts', async () => {
    const fresh = new ImagePool()
    try {
      for (const bomb of [pngAnnouncing(50_000, 50_000), jpegAnnouncing(50_000, 50_000), pngAnnouncing(1, 200_000), jpegAnnouncing(60_000, 1)]) {
        expect(bomb.length).toBeLessThan(400)
        const r = await refusal(bomb, fresh)
        expect([r.status, r.code]).toEqual([422, 'too-many-pixels'])
        expect(r.detail).toMatch(/pixels/)
      }
      expect(fresh.pids).toEqual([])
      // The header is read the same way inside the image process, right before decoding.
      expect(() => sniffImage(pngAnnouncing(50_000, 50_000))).toThrow(ImageRefused)
      expect(sniffImage(pngAnnouncing(4000, 3000))).toEqual({ format: 'png', width: 4000, height: 3000 })
    } finally {
      await fresh.close()
    }
  })

  test('a HEIC whose header announces less than its picture holds is refused, not decoded at the hidden size', async () => {
    const lying = heic('announces-96x64-holds-1600x1200.heic')
    expect(sniffImage(lying)).toEqual({ format: 'heic', width: 96, height: 64 })
    const r = await refusal(lying)
    expect([r.status, r.code]).toEqual([422, 'undecodable'])
  })

  test('a header of thousands of empty segments is refused without reading them all, and no image process starts', async () => {
    const fresh = new ImagePool()
    try {
      const empties = new Uint8Array(100_000 * 4).map((_, i) => [0xff, 0xfe, 0x00, 0x02][i % 4]!)
      const jpg = file('other.jpg')
      const r = await refusal(new Uint8Array([...jpg.subarray(0, 2), ...empties, ...jpg.subarray(2)]), fresh)
      expect([r.status, r.code]).toEqual([422, 'undecodable'])
      expect(fresh.pids).toEqual([])
    } finally {
      await fresh.close()
    }
  })

  test('any bytes after an accepted signature: the header check answers a size within the limits or a refusal, nothing else', () => {
    const signatures = [
      [0xff, 0xd8, 0xff],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii('IHDR')],
      [...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8X')],
      [0, 0, 0, 24, ...ascii('ftypheic'), 0, 0, 0, 0, ...ascii('mif1heic')],
    ]
    fc.assert(
      fc.property(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 600 }), (signature, rest) => {
        try {
          const { width, height } = sniffImage(new Uint8Array([...signature, ...rest]))
          return width >= 1 && height >= 1 && width <= imageLimits.MAX_SIDE && height <= imageLimits.MAX_SIDE && width * height <= imageLimits.MAX_PIXELS
        } catch (e) {
          return e instanceof ImageRefused
        }
      }),
      { numRuns: 3000 },
    )
  })

  test('more than 15 MB: 413, before anything reads it', async () => {
    const big = new Uint8Array(imageLimits.MAX_UPLOAD_BYTES + 1)
    big.set(file('other.jpg'))
    const r = await refusal(big)
    expect([r.status, r.code]).toEqual([413, 'too-large'])
    expect(r.detail).toContain('15 MB')
  })

  test('truncated files whose header is whole are refused by the decoder, not shown half grey (422)', async () => {
    for (const [name, format] of [['photo.jpg', 'jpeg'], ['photo.png', 'png'], ['photo.webp', 'webp']] as const) {
      const whole = file(name)
      const cut = whole.subarray(0, Math.floor(whole.length * 0.6))
      expect(sniffImage(cut).format).toBe(format)
      const r = await refusal(cut)
      expect([r.status, r.code]).toEqual([422, 'undecodable'])
      expect(r.detail).toMatch(/truncated or damaged/)
    }
    const heicCut = await refusal(heic('quadrants.heic').subarray(0, 300))
    expect(heicCut.code).toBe('undecodable')
  }, 60_000)

  test('an empty file, and a file that is only a JPEG signature', async () => {
    for (const bytes of [new Uint8Array(), new Uint8Array([0xff, 0xd8, 0xff])]) expect((await refusal(bytes)).code).toBe('undecodable')
  })
})

describe('the pool', () => {
  test('an image process killed in the middle of a photo: that photo is refused (422), the next one gets a new process', async () => {
    const p = new ImagePool()
    try {
      await p.process(heic('quadrants.heic')) // started and ready
      const [first] = p.pids
      const pending = p.process(file('photo.jpg'))
      process.kill(first!, 'SIGKILL')
      const r = await pending.then(
        () => null,
        (e) => e,
      )
      expect(r).toBeInstanceOf(ImageRefused)
      expect(r.code).toBe('undecodable')
      const again = await p.process(heic('quadrants.heic'))
      expect(again.large.width).toBe(96)
      expect(p.pids).toHaveLength(1)
      expect(p.pids[0]).not.toBe(first)
    } finally {
      await p.close()
    }
  }, 60_000)

  test('an image library that cannot start: 503 with the reason kept for the log', async () => {
    const problems: string[] = []
    const p = new ImagePool({ command: [process.execPath, '-e', 'console.error("no libvips here"); process.exit(7)'], onProblem: (m) => problems.push(m) })
    try {
      const e = await p.process(heic('quadrants.heic')).then(
        () => null,
        (e) => e,
      )
      expect(e).toBeInstanceOf(ImagesUnavailable)
      expect(e.status).toBe(503)
      expect(e.reason).toContain('code 7')
      expect(e.reason).toContain('no libvips here')
    } finally {
      await p.close()
    }
  })

  test('photos beyond the queue are refused at once (503); an idle process exits and gives its memory back', async () => {
    const p = new ImagePool({ maxQueuedPerProcess: 1, idleExitMs: 200 })
    try {
      const jobs = [p.process(file('photo.jpg')), p.process(file('photo.jpg')), p.process(file('photo.jpg'))]
      const settled = await Promise.allSettled(jobs)
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
      expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(ImagesUnavailable)
      expect(p.pids).toHaveLength(1)
      const [pid] = p.pids
      const deadline = Date.now() + 20_000
      while (p.pids.length > 0 && Date.now() < deadline) await Bun.sleep(50)
      expect(p.pids).toEqual([])
      await Bun.sleep(0)
      let alive = true
      for (let i = 0; i < 200 && alive; i++, await Bun.sleep(50)) alive = Bun.spawnSync(['kill', '-0', String(pid)]).exitCode === 0
      expect(alive).toBe(false)
    } finally {
      await p.close()
    }
  }, 90_000)

  test('closing ends the processes and refuses what comes after (503)', async () => {
    const p = new ImagePool()
    await p.process(heic('quadrants.heic'))
    expect(p.pids).toHaveLength(1)
    await p.close()
    expect(p.pids).toEqual([])
    expect(await p.process(heic('quadrants.heic')).catch((e) => e)).toBeInstanceOf(ImagesUnavailable)
  }, 60_000)
})
