// `bun run bench:phone --photos` (issue 34's speed): before the pages are measured, each listing of the demo broker's
// first listings page gets a cover photo, and one of the broker's own listings a public link (/l/<token>) with three
// photos. The photos are made-up 12 MP phone JPEGs (4032 × 3024, about 4 MB: tests/support/image-fixtures.ts' scene,
// each with its own seed, so no two are the same file), uploaded through the API like a phone's, and kept in
// TMPDIR/bench-phone-photos between runs (making one takes a second or two).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scene } from '../tests/support/image-fixtures'

const COVERS = 25
const PUBLIC_PHOTOS = 3
const cacheDir = join(tmpdir(), 'bench-phone-photos')

/** The `i`th made-up phone photo (JPEG, quality 92, about 4 MB). */
async function photo(i: number): Promise<Uint8Array> {
  const file = join(cacheDir, `photo-${i}.jpg`)
  if (existsSync(file)) return readFileSync(file)
  const sharp = (await import('sharp')).default
  mkdirSync(cacheDir, { recursive: true })
  const bytes = await sharp(scene(4032, 3024, i + 2), { raw: { width: 4032, height: 3024, channels: 3 } }).jpeg({ quality: 92 }).toBuffer()
  writeFileSync(file, bytes)
  return bytes
}

type Row = { id: number; entry_id: string; owner_user_id: number; cover: unknown }

async function api<T>(base: string, token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(base + path, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } })
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function signIn(base: string, email: string): Promise<{ token: string; user: { id: number } }> {
  const res = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'Demo@12345' }) })
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`)
  return (await res.json()) as { token: string; user: { id: number } }
}

/** The listings of the first listings page as the broker's phone gets it (the island's props of /dashboard/listings). */
async function firstPage(base: string, cookie: string, headers: Record<string, string>): Promise<Row[]> {
  const html = await (await fetch(`${base}/dashboard/listings`, { headers: { ...headers, cookie } })).text()
  const key = /data-island="BrokerListings" data-island-key="(\d+)"/.exec(html)?.[1]
  const props = key && new RegExp(`<script type="application/json" id="island-props-${key}">([\\s\\S]*?)</script>`).exec(html)?.[1]
  if (!props) throw new Error('bench:phone --photos: no listings island on /dashboard/listings')
  return (JSON.parse(props) as { initial: { listings: Row[] } }).initial.listings
}

async function upload(base: string, token: string, listingId: number, photos: Uint8Array[]) {
  const form = new FormData()
  photos.forEach((bytes, i) => form.append('photos', new File([new Uint8Array(bytes)], `IMG_${listingId}_${i}.jpg`, { type: 'image/jpeg' })))
  await api(base, token, `/api/listings/${listingId}/photos`, { method: 'POST', body: form })
}

/**
 * Gives the first listings page its covers (the broker's own listings as the broker, the others as their city's
 * module admin) and returns the public page's path. `banner`: the server's start-up output (the demo users' names).
 */
export async function addPhotos(base: string, banner: string, cookie: (token: string) => string, headers: Record<string, string>, log: (s: string) => void): Promise<string> {
  const started = performance.now()
  const [broker, admin] = [/e\.g\. (\S+) \(broker\)/.exec(banner)?.[1], /(\S+) \(module admin\)/.exec(banner)?.[1]]
  if (!broker || !admin) throw new Error(`no demo broker or module admin in the banner:\n${banner}`)
  const { token: brokerToken, user: me } = await signIn(base, broker)
  const adminToken = (await signIn(base, admin)).token
  const rows = (await firstPage(base, cookie(brokerToken), headers)).slice(0, COVERS)
  const own = rows.find((r) => r.owner_user_id === me.id)
  if (!own) throw new Error('bench:phone --photos: none of the first page is the broker’s own listing (for the public page)')
  let n = 0
  for (const r of rows) {
    const count = r === own ? PUBLIC_PHOTOS : 1
    const photos = await Promise.all(Array.from({ length: count }, () => photo(n++)))
    await upload(base, r.owner_user_id === me.id ? brokerToken : adminToken, r.id, photos)
  }
  const link = await api<{ url: string }>(base, brokerToken, `/api/listings/${own.id}/share-link`, { method: 'POST' })
  log(`  photos: ${rows.length} covers and ${PUBLIC_PHOTOS} photos on ${own.entry_id} uploaded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return new URL(link.url).pathname
}
