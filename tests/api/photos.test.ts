// Listing photos through the API (issue 34): real images made by sharp in a process of their own
// (tests/support/image-fixtures.ts) and the committed HEIC samples, uploaded as a phone would, then read back as
// stored. In process, against the binary (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { seededPng } from '../support/small-png'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource } from '../../db/open'
import { createApp } from '../../src/app'
import { createBackup } from '../../src/platform/backup/backup'
import { restoreBackup } from '../../src/platform/backup/restore'
import { createContext } from '../../src/platform/context'
import { createTestApp, ON_POSTGRES, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'
import { PLANTED } from '../support/image-fixtures'
import { sharedCluster } from '../support/postgres'

const root = new URL('../..', import.meta.url).pathname
let dir: string
const fixture = (name: string) => new Uint8Array(readFileSync(join(dir, name)))
const heic = (name: string) => new Uint8Array(readFileSync(join(root, 'tests/fixtures/images', name)))
const ascii = (s: string) => new TextEncoder().encode(s)
const contains = (hay: Uint8Array, needle: string) => Buffer.from(hay).indexOf(Buffer.from(needle, 'latin1')) >= 0

let h: TestApp
let asha: SignedIn // broker, Mumbai: owns the listings
let ravi: SignedIn // another broker
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brokernet-photos-'))
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), dir], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  h = await createTestApp()
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = [place.cities[0]!.id, place.cities[1]!.id]
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: pune, fullName: 'Ravi Kumar' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai, fullName: 'Mira Admin' })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune, fullName: 'Pia Admin' })
}, 180_000)

afterAll(async () => {
  await h?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

let listingCount = 0
async function newListing(as: SignedIn = asha): Promise<number> {
  const body = { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2BHK', contact_value: '9876543210', locality: `Andheri ${++listingCount}`, budget: 45_000, size: 850 }
  const res = await h.request('/api/listings', withJson(as.browser, body))
  expect(res.status).toBe(201)
  return (await res.json()).id
}

type Upload = { name: string; bytes: Uint8Array; type?: string }
function upload(as: SignedIn, listingId: number, files: Upload[]) {
  const fd = new FormData()
  for (const f of files) fd.append('photos', new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type ?? 'image/jpeg' }))
  return h.request(`/api/listings/${listingId}/photos`, { method: 'POST', headers: as.browser, body: fd })
}
type Photo = { id: number; position: number; url: string; width: number; height: number; thumb_url: string; thumb_width: number; thumb_height: number }
async function added(as: SignedIn, listingId: number, files: Upload[]): Promise<Photo[]> {
  const res = await upload(as, listingId, files)
  const body = await res.json()
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(body)}`)
  return body.photos
}
const photosOf = async (as: SignedIn, listingId: number) => h.request(`/api/listings/${listingId}/photos`, { headers: as.bearer })
const listing = async (as: SignedIn, id: number) => (await h.request(`/api/listings/${id}`, { headers: as.bearer })).json()
async function image(as: SignedIn, url: string) {
  const res = await h.request(url, { headers: as.bearer })
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) }
}
/** A WebP's chunk names: VP8/VP8L/VP8X/ALPH carry pixels; EXIF, XMP and ICCP would carry metadata. */
function webpChunks(b: Uint8Array): string[] {
  const text = (x: Uint8Array) => Buffer.from(x).toString('latin1')
  expect(text(b.subarray(0, 4)) + text(b.subarray(8, 12))).toBe('RIFFWEBP')
  const chunks: string[] = []
  for (let i = 12; i + 8 <= b.length; ) {
    const size = b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24)
    chunks.push(text(b.subarray(i, i + 4)))
    i += 8 + size + (size & 1)
  }
  return chunks
}
/** The WebP's size from its header (VP8X canvas, VP8L or VP8 frame). */
function webpSize(b: Uint8Array): [number, number] {
  const kind = Buffer.from(b.subarray(12, 16)).toString('latin1')
  if (kind === 'VP8X') return [1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16))]
  if (kind === 'VP8L') {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)
    return [(bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1]
  }
  return [(b[26]! | (b[27]! << 8)) & 0x3fff, (b[28]! | (b[29]! << 8)) & 0x3fff]
}
/**
 * A small real PNG no other test uploads: a file is named by its content and shared by every listing showing the same
 * picture, so a test about one listing's files needs a picture of its own.
 */
let unique = 0
function uniquePng(): Upload {
  const n = ++unique
  return { name: `unique-${n}.png`, bytes: seededPng(n), type: 'image/png' }
}

/** A baseline JPEG frame header announcing width × height, then the end: a few dozen bytes. */
const jpegAnnouncing = (width: number, height: number) =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0, 0xff, 0xd9])

describe('accepted photos', () => {
  test('a 12 MP phone JPEG: turned upright, 1,600 and 320 px WebP, no EXIF, GPS or serial anywhere, immutable content-hashed addresses', async () => {
    const id = await newListing()
    const original = fixture('photo.jpg')
    expect(contains(original, PLANTED.serial)).toBe(true) // the metadata is really there to strip
    const [photo] = await added(asha, id, [{ name: 'IMG_0001.JPG', bytes: original }])
    // Stored landscape with Orientation 6: upright it is portrait.
    expect(photo).toMatchObject({ position: 0, width: 1200, height: 1600, thumb_width: 240, thumb_height: 320 })
    expect(photo!.url).toMatch(/^\/photos\/[a-f0-9]{32}\.webp$/)
    for (const [url, size, budget] of [
      [photo!.url, [1200, 1600], 250 * 1024],
      [photo!.thumb_url, [240, 320], 20 * 1024],
    ] as const) {
      const { res, bytes } = await image(asha, url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/webp')
      expect(res.headers.get('cache-control')).toContain('immutable')
      expect(webpSize(bytes)).toEqual([...size])
      expect(bytes.length).toBeLessThanOrEqual(budget)
      expect(webpChunks(bytes).filter((c) => !['VP8 ', 'VP8L', 'VP8X', 'ALPH'].includes(c))).toEqual([])
      for (const planted of [...Object.values(PLANTED), 'Exif', 'GPS']) expect(contains(bytes, planted)).toBe(false)
      // The address is the content's hash.
      expect(url).toContain(new Bun.CryptoHasher('sha256').update(bytes).digest('hex').slice(0, 32))
    }
  }, 120_000)

  test('PNG, WebP, AVIF and an iPhone HEIC (turned by its irot box) are accepted, several in one request', async () => {
    const id = await newListing()
    const photos = await added(asha, id, [
      { name: 'a.png', bytes: fixture('photo.png'), type: 'image/png' },
      { name: 'b.webp', bytes: fixture('photo.webp'), type: 'image/webp' },
      { name: 'c.avif', bytes: fixture('photo.avif'), type: 'image/avif' },
      { name: 'd.heic', bytes: heic('quadrants-irot90.heic'), type: 'image/heic' },
    ])
    expect(photos.map((p) => [p.position, p.width, p.height])).toEqual([
      [0, 1000, 700],
      [1, 1600, 1200],
      [2, 800, 600],
      [3, ...(await heicUpright())],
    ])
    const { bytes } = await image(asha, photos[0]!.url)
    for (const planted of Object.values(PLANTED)) expect(contains(bytes, planted)).toBe(false)
  }, 120_000)

  test('a polyglot (an HTML page inside a JPEG) is re-encoded: nothing of the page is served', async () => {
    const id = await newListing()
    const page = '<html><body><script>alert("polyglot")</script></body></html>'
    const jpg = fixture('other.jpg')
    const comment = new Uint8Array([0xff, 0xfe, (page.length + 2) >> 8, (page.length + 2) & 0xff, ...ascii(page)])
    const polyglot = new Uint8Array([...jpg.subarray(0, 2), ...comment, ...jpg.subarray(2), ...ascii(page)])
    const [photo] = await added(asha, id, [{ name: 'x.jpg', bytes: polyglot }])
    for (const url of [photo!.url, photo!.thumb_url]) {
      const { res, bytes } = await image(asha, url)
      expect(res.headers.get('content-type')).toBe('image/webp')
      for (const s of ['<script', 'polyglot', '<html']) expect(contains(bytes, s)).toBe(false)
    }
  }, 60_000)
})

/** The turned HEIC's upright size, as the image pipeline's own test knows it: its stored sides swapped. */
async function heicUpright(): Promise<[number, number]> {
  const stored = heic('quadrants.heic')
  const id = await newListing()
  const [p] = await added(asha, id, [{ name: 'q.heic', bytes: stored, type: 'image/heic' }])
  return [p!.height, p!.width]
}

describe('refused photos: the right status, a detail, and nothing added', () => {
  test('SVG, GIF, PDF, text (415); an animation, bombs, a truncated JPEG (422); each named by its type', async () => {
    const id = await newListing()
    const jpg = fixture('other.jpg')
    const cases: [Upload, number, RegExp][] = [
      [{ name: 'photo.jpg', bytes: ascii('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') }, 415, /SVG/],
      [{ name: 'photo.jpg', bytes: fixture('animated.gif') }, 415, /GIF/],
      [{ name: 'photo.jpg', bytes: ascii('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n') }, 415, /PDF/],
      [{ name: 'photo.jpg', bytes: ascii('just some text') }, 415, /not accepted/],
      [{ name: 'photo.webp', bytes: fixture('animated.webp') }, 422, /anim/i],
      [{ name: 'bomb.jpg', bytes: jpegAnnouncing(50_000, 50_000) }, 422, /pixels|large|big/i],
      [{ name: 'strip.jpg', bytes: jpegAnnouncing(1, 60_000) }, 422, /./],
      [{ name: 'cut.jpg', bytes: jpg.subarray(0, Math.floor(jpg.length / 2)) }, 422, /./],
    ]
    for (const [file, status, said] of cases) {
      const res = await upload(asha, id, [file])
      const body = await res.json()
      expect([file.name, res.status]).toEqual([file.name, status])
      expect(typeof body.detail).toBe('string')
      expect(body.detail).toMatch(said)
    }
    expect((await (await photosOf(asha, id)).json()).photos).toEqual([])
  }, 120_000)

  test('over 15 MB: 413 (the file within the request’s 16 MB, and a request over it)', async () => {
    const id = await newListing()
    const big = new Uint8Array(15 * 1024 * 1024 + 10)
    big.set(fixture('other.jpg').subarray(0, 4))
    const res = await upload(asha, id, [{ name: 'big.jpg', bytes: big }])
    expect(res.status).toBe(413)
    expect((await res.json()).detail).toMatch(/15 MB/)
    const huge = await upload(asha, id, [{ name: 'huge.jpg', bytes: new Uint8Array(17 * 1024 * 1024) }])
    expect(huge.status).toBe(413)
    expect((await huge.json()).detail).toMatch(/16 MB/)
  }, 60_000)

  test('one bad file among good ones: the refusal names it, and none of them is added', async () => {
    const id = await newListing()
    const res = await upload(asha, id, [
      { name: 'good.jpg', bytes: fixture('other.jpg') },
      { name: 'drawing.svg', bytes: ascii('<svg xmlns="http://www.w3.org/2000/svg"></svg>') },
    ])
    expect(res.status).toBe(415)
    expect((await res.json()).detail).toMatch(/Photo 2 \(drawing\.svg\)/)
    expect((await (await photosOf(asha, id)).json()).photos).toEqual([])
  }, 60_000)

  test('an empty form, or a field that is no file: 422', async () => {
    const id = await newListing()
    const fd = new FormData()
    fd.append('photos', 'not a file')
    const res = await h.request(`/api/listings/${id}/photos`, { method: 'POST', headers: asha.browser, body: fd })
    expect(res.status).toBe(422)
  })
})

describe('limits', () => {
  test('at most 10 photos on a listing: the 11th is refused (409) saying how many more fit', async () => {
    const id = await newListing()
    const other = fixture('other.jpg')
    await added(asha, id, Array.from({ length: 8 }, (_, i) => ({ name: `${i}.jpg`, bytes: other })))
    const res = await upload(asha, id, [1, 2, 3].map((i) => ({ name: `${i}.jpg`, bytes: other })))
    expect(res.status).toBe(409)
    expect((await res.json()).detail).toMatch(/at most 10 photos: this one has 8, so 2 more/)
    expect(await added(asha, id, [1, 2].map((i) => ({ name: `${i}.jpg`, bytes: other })))).toHaveLength(10)
    // The same picture ten times is one pair of files.
    if (h.ctx.db.dialect === 'sqlite') expect(readdirSync(h.config.photosDir).filter((n) => n.endsWith('.webp')).length).toBeGreaterThan(0)
  }, 120_000)

  test('a broker’s quota (PHOTO_QUOTA): the photo past it is refused with a message saying what to do', async () => {
    const q = await createTestApp({ PHOTO_QUOTA: '2' })
    try {
      const place = await seedPlace(q.ctx.db, ['Delhi'])
      const broker = await signIn(q.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
      const post = async () =>
        (await (await q.request('/api/listings', withJson(broker.browser, { post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Shop', contact_value: '9876543210' }))).json()).id
      const send = (id: number, n: number) => {
        const fd = new FormData()
        for (let i = 0; i < n; i++) fd.append('photos', new File([fixture('other.jpg')], `${i}.jpg`))
        return q.request(`/api/listings/${id}/photos`, { method: 'POST', headers: broker.browser, body: fd })
      }
      const first = await post()
      expect((await send(first, 2)).status).toBe(201)
      const res = await send(await post(), 1)
      expect(res.status).toBe(409)
      expect((await res.json()).detail).toMatch(/allowance reached.*2 of the 2 photos.*Remove photos/)
    } finally {
      await q.close()
    }
  }, 120_000)
})

describe('who sees and who changes them', () => {
  let id: number
  let photo: Photo
  beforeAll(async () => {
    id = await newListing()
    ;[photo] = await added(asha, id, [uniquePng()])
  }, 60_000)

  test('another broker sees an ACTIVE listing’s photos but cannot change them (403); signed out is 401', async () => {
    expect((await photosOf(ravi, id)).status).toBe(200)
    expect((await image(ravi, photo.thumb_url)).res.status).toBe(200)
    expect((await upload(ravi, id, [{ name: 'x.jpg', bytes: fixture('other.jpg') }])).status).toBe(403)
    expect((await h.request(`/api/listings/${id}/photos/${photo.id}`, { method: 'DELETE', headers: ravi.browser })).status).toBe(403)
    expect((await h.request(photo.url)).status).toBe(401)
    // Another city's module admin does not see the listing at all: 404, as for the listing.
    expect((await photosOf(puneAdmin, id)).status).toBe(404)
    expect((await image(puneAdmin, photo.url)).res.status).toBe(404)
    expect((await image(mumbaiAdmin, photo.url)).res.status).toBe(200)
    // A name that is no photo's.
    expect((await image(asha, `/photos/${'0'.repeat(32)}.webp`)).res.status).toBe(404)
  }, 60_000)

  test('a SUSPENDED listing’s photos: 404 for another broker (list and files), its owner and admins still see them', async () => {
    const res = await h.request(`/api/listings/${id}`, withJson(asha.browser, { status: 'SUSPENDED' }, 'PATCH'))
    expect(res.status).toBe(200)
    expect((await photosOf(ravi, id)).status).toBe(404)
    expect((await image(ravi, photo.url)).res.status).toBe(404)
    expect((await image(ravi, photo.thumb_url)).res.status).toBe(404)
    expect((await image(asha, photo.url)).res.status).toBe(200)
    expect((await image(mumbaiAdmin, photo.url)).res.status).toBe(200)
    await h.request(`/api/listings/${id}`, withJson(asha.browser, { status: 'ACTIVE' }, 'PATCH'))
    expect((await image(ravi, photo.url)).res.status).toBe(200)
  }, 60_000)

  test('an admin of the listing’s city may change them', async () => {
    const more = await added(mumbaiAdmin, id, [{ name: 'y.png', bytes: fixture('photo.png'), type: 'image/png' }])
    expect(more).toHaveLength(2)
    expect((await h.request(`/api/listings/${id}/photos/${more[1]!.id}`, { method: 'DELETE', headers: mumbaiAdmin.browser })).status).toBe(204)
  }, 60_000)
})

describe('order, cover, removal', () => {
  test('the first photo is the listing’s cover (cards read it from the listing); reorder and choose a cover move it', async () => {
    const id = await newListing()
    expect((await listing(asha, id)).cover).toBeNull()
    const [a, b, c] = await added(asha, id, [uniquePng(), uniquePng(), uniquePng()])
    expect((await listing(asha, id)).cover).toEqual({ url: a!.thumb_url, width: a!.thumb_width, height: a!.thumb_height })
    // In the list too (a cached page follows the change).
    const inList = async () => ((await (await h.request('/api/listings/?page_size=100', { headers: ravi.bearer })).json()).listings as { id: number; cover: unknown }[]).find((l) => l.id === id)!.cover
    expect(await inList()).toMatchObject({ url: a!.thumb_url })

    const order = await h.request(`/api/listings/${id}/photos/order`, withJson(asha.browser, { ids: [c!.id, a!.id, b!.id] }, 'PUT'))
    expect(order.status).toBe(200)
    expect(((await order.json()).photos as Photo[]).map((p) => [p.id, p.position])).toEqual([
      [c!.id, 0],
      [a!.id, 1],
      [b!.id, 2],
    ])
    expect((await listing(asha, id)).cover.url).toBe(c!.thumb_url)
    expect(await inList()).toMatchObject({ url: c!.thumb_url })

    const cover = await h.request(`/api/listings/${id}/photos/${b!.id}/cover`, { method: 'POST', headers: asha.browser })
    expect(((await cover.json()).photos as Photo[]).map((p) => p.id)).toEqual([b!.id, c!.id, a!.id])
    expect((await listing(asha, id)).cover.url).toBe(b!.thumb_url)

    // An order that leaves one out, repeats one or names another listing's photo: 422, nothing changed.
    for (const ids of [[b!.id, c!.id], [b!.id, b!.id, c!.id], [b!.id, c!.id, 999_999]]) {
      const bad = await h.request(`/api/listings/${id}/photos/order`, withJson(asha.browser, { ids }, 'PUT'))
      expect(bad.status).toBe(422)
    }
    expect((await h.request(`/api/listings/${id}/photos/999999/cover`, { method: 'POST', headers: asha.browser })).status).toBe(404)

    // Removing the cover: the next one takes its place; removing the last leaves no cover.
    expect((await h.request(`/api/listings/${id}/photos/${b!.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    const left = (await (await photosOf(asha, id)).json()).photos as Photo[]
    expect(left.map((p) => [p.id, p.position])).toEqual([
      [c!.id, 0],
      [a!.id, 1],
    ])
    expect((await listing(asha, id)).cover.url).toBe(c!.thumb_url)
    expect((await image(asha, b!.url)).res.status).toBe(404)
    for (const p of left) await h.request(`/api/listings/${id}/photos/${p.id}`, { method: 'DELETE', headers: asha.browser })
    expect((await listing(asha, id)).cover).toBeNull()
  }, 120_000)
})

/** The stored files by name: DATA_DIR/photos on SQLite, `photo_files` on PostgreSQL. */
async function storedNames(): Promise<Set<string>> {
  if (h.ctx.db.dialect === 'postgres') return new Set((await h.ctx.db.all<{ name: string }>('select name from photo_files')).map((r) => r.name))
  return new Set(existsSync(h.config.photosDir) ? readdirSync(h.config.photosDir) : [])
}
const nameOf = (url: string) => url.split('/').at(-1)!

describe('duplicate control', () => {
  test('a photo already on another ACTIVE listing (resized and recompressed) is a same_photo reason; not once that listing is suspended', async () => {
    const first = await newListing()
    const res = await upload(asha, first, [{ name: 'IMG_1.JPG', bytes: fixture('photo.jpg') }])
    expect(res.status).toBe(201)
    const mine = await newListing(ravi)
    const again = await upload(ravi, mine, [{ name: 'small.jpg', bytes: fixture('photo-small.jpg') }])
    const body = await again.json()
    expect(again.status).toBe(201)
    const hit = (body.duplicates as { listing: { id: number }; own: boolean; similarity: number; reasons: string[] }[]).find((d) => d.listing.id === first)
    expect(hit).toMatchObject({ own: false, reasons: ['same_photo'] })
    expect(hit!.similarity).toBeGreaterThanOrEqual(0.9)
    // Another picture is no duplicate of it.
    const other = await newListing(ravi)
    const unrelated = await (await upload(ravi, other, [{ name: 'h.heic', bytes: heic('quadrants.heic'), type: 'image/heic' }])).json()
    expect(unrelated.duplicates.map((d: { listing: { id: number } }) => d.listing.id)).not.toContain(first)
    // Suspended: off the network, and out of ravi's sight.
    await h.request(`/api/listings/${first}`, withJson(asha.browser, { status: 'SUSPENDED' }, 'PATCH'))
    const later = await (await upload(ravi, await newListing(ravi), [{ name: 'small.jpg', bytes: fixture('photo-small.jpg') }])).json()
    expect(later.duplicates.map((d: { listing: { id: number } }) => d.listing.id)).not.toContain(first)
  }, 120_000)
})

describe('deletion', () => {
  test('a deleted listing’s photos go with it, rows and files; a file another listing shares stays', async () => {
    const one = await newListing()
    const two = await newListing()
    const picture = uniquePng()
    const [shared] = await added(asha, one, [picture])
    const own = (await added(asha, one, [uniquePng()]))[1]
    await added(asha, two, [picture])
    const before = await storedNames()
    for (const p of [shared!, own!]) for (const u of [p.url, p.thumb_url]) expect(before.has(nameOf(u))).toBe(true)

    expect((await h.request(`/api/listings/${one}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
    expect(Number((await h.ctx.db.get<{ n: number }>('select count(*) as n from listing_photos where listing_id = ?', [one]))!.n)).toBe(0)
    // Removed once committed: looked at until it happens.
    const deadline = Date.now() + 20_000
    const gone = async () => {
      const names = await storedNames()
      return !names.has(nameOf(own!.url)) && !names.has(nameOf(own!.thumb_url))
    }
    while (!(await gone()) && Date.now() < deadline) await Bun.sleep(20)
    const after = await storedNames()
    expect(after.has(nameOf(own!.url))).toBe(false)
    expect(after.has(nameOf(own!.thumb_url))).toBe(false)
    expect(after.has(nameOf(shared!.url))).toBe(true)
    expect((await image(asha, shared!.url)).res.status).toBe(200)
  }, 120_000)
})

describe('backup and restore', () => {
  test('a backup holds the photos; the restored installation serves them to the same session', async () => {
    const id = await newListing()
    const [p] = await added(asha, id, [uniquePng()])
    const served = (await image(asha, p!.url)).bytes
    const target = mkdtempSync(join(tmpdir(), 'brokernet-photo-backup-'))
    const restoredDir = mkdtempSync(join(tmpdir(), 'brokernet-photo-restore-'))
    try {
      const { file } = await createBackup(h.config, target)
      const databaseUrl = ON_POSTGRES ? await (await sharedCluster()).createDatabase() : undefined
      const config = { ...h.config, dataDir: restoredDir, databasePath: join(restoredDir, 'brokernet.db'), documentsDir: join(restoredDir, 'documents'), photosDir: join(restoredDir, 'photos'), databaseUrl }
      await restoreBackup(config, file)
      const source = databaseUrl ? await openDataSource(config) : sqliteSource(openDatabase(config.databasePath))
      const ctx = createContext(source, config)
      try {
        const app = createApp(ctx)
        const res = await app.handle(new Request(`http://localhost${p!.url}`, { headers: asha.bearer }))
        expect(res.status).toBe(200)
        expect(new Uint8Array(await res.arrayBuffer())).toEqual(served)
        const list = await app.handle(new Request(`http://localhost/api/listings/${id}/photos`, { headers: asha.bearer }))
        expect((await list.json()).photos.map((x: Photo) => x.url)).toEqual([p!.url])
      } finally {
        await ctx.features.stop()
        await ctx.mail.close()
        await source.close()
      }
    } finally {
      rmSync(target, { recursive: true, force: true })
      rmSync(restoredDir, { recursive: true, force: true })
    }
  }, 180_000)
})

describe('a retried upload (issue 34): the Idempotency-Key stores a photo once', () => {
  const send = (listingId: number, files: Upload[], key?: string) => {
    const fd = new FormData()
    for (const f of files) fd.append('photos', new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type ?? 'image/jpeg' }))
    return h.request(`/api/listings/${listingId}/photos`, { method: 'POST', headers: { ...asha.browser, ...(key ? { 'idempotency-key': key } : {}) }, body: fd })
  }
  const stored = async (id: number) => ((await (await photosOf(asha, id)).json()).photos as Photo[]).length

  test('the same key again (the first had arrived, its answer lost): the photos as stored, none added; another key adds', async () => {
    const id = await newListing()
    const first = await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0001')
    expect(first.status).toBe(201)
    const again = await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0001')
    expect(again.status).toBe(201)
    expect((await again.json()).photos).toEqual((await first.json()).photos)
    expect(await stored(id)).toBe(1)
    // Without a key, or with another, it is a new photo (the same picture may be added twice on purpose).
    expect((await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0002')).status).toBe(201)
    expect(await stored(id)).toBe(2)
    // The key is the listing's: the same key on another listing is another upload.
    const other = await newListing()
    expect((await send(other, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0001')).status).toBe(201)
    expect(await stored(other)).toBe(1)
    // A replay at the listing's 10 is not refused for the limit.
    for (let i = 0; i < 8; i++) expect((await send(id, [{ name: 'a.jpg', bytes: fixture('photo.png'), type: 'image/png' }])).status).toBe(201)
    expect(await stored(id)).toBe(10)
    expect((await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0002')).status).toBe(201)
    expect((await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-0003')).status).toBe(409)
  }, 180_000)

  test('two attempts at once with one key store one photo; several files under one key; a malformed key 422', async () => {
    const id = await newListing()
    const both = await Promise.all([0, 1].map(() => send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], 'photo-key-race')))
    expect(both.map((r) => r.status)).toEqual([201, 201])
    expect(await stored(id)).toBe(1)
    const two = [
      { name: 'b.png', bytes: fixture('photo.png'), type: 'image/png' },
      { name: 'c.jpg', bytes: fixture('photo-small.jpg') },
    ]
    expect((await send(id, two, 'photo-key-pair')).status).toBe(201)
    expect((await send(id, two, 'photo-key-pair')).status).toBe(201)
    expect(await stored(id)).toBe(3)
    for (const bad of ['short', 'has space here', 'x'.repeat(101), 'key/with/slashes']) {
      const res = await send(id, [{ name: 'a.jpg', bytes: fixture('other.jpg') }], bad)
      expect(res.status).toBe(422)
    }
    expect(await stored(id)).toBe(3)
  }, 180_000)
})
