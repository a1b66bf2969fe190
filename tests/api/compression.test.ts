import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { brotliDecompressSync } from 'node:zlib'
import { assetUrls } from '../../generated/assets'
import { COMPRESSION, negotiateEncoding } from '../../src/platform/http/compression'
import { createTestApp } from '../support/app'
import { signIn, type SignedIn } from '../support/auth'
import { insertListing, seedPlace, type Place } from '../support/fixtures'

// Issue 32: pages and API answers compressed as the client asks (brotli, gzip or none), with Vary; small bodies and
// event streams as they are; HEAD as GET without the body. In process and against the binary (requests there are sent
// without Accept-Encoding unless a test names one, and answers read as sent).
const h = await createTestApp()
afterAll(() => h.close())
let place: Place
let broker: SignedIn

beforeAll(async () => {
  // Forty cities: the city list is a JSON answer (a handler's array, serialised by the app) of several kilobytes.
  place = await seedPlace(h.ctx.db, Array.from({ length: 40 }, (_, i) => `Compression City ${i + 1}`))
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
  const now = Date.now()
  for (let i = 0; i < 30; i++)
    await insertListing(h.ctx.db, {
      entryId: `CMP-${String(i).padStart(4, '0')}`,
      postType: i % 2 ? 'REQ' : 'AVL',
      date: '2026-11-01',
      contactName: `Contact ${i}`,
      contactValue: '+910000000000',
      saleOrRent: 'SALE',
      propertyType: '2 BHK',
      budget: 1_000_000 + i,
      location: 'West',
      locality: `Locality ${i}`,
      details: 'A listing long enough to make the page and the list worth compressing. '.repeat(3),
      status: 'ACTIVE',
      ownerUserId: broker.user.id,
      cityId: place.cities[0]!.id,
      createdAt: new Date(now - i),
      updatedAt: new Date(now - i),
    })
})

const get = (path: string, encoding?: string, extra: Record<string, string> = {}, method = 'GET') =>
  h.request(path, { method, headers: { ...extra, ...(encoding === undefined ? {} : { 'accept-encoding': encoding }) } })
const bytes = async (res: Response): Promise<Uint8Array<ArrayBuffer>> => new Uint8Array(await res.arrayBuffer())
const decoded = (body: Uint8Array<ArrayBuffer>, encoding: string | null): Uint8Array =>
  encoding === 'br' ? new Uint8Array(brotliDecompressSync(body)) : encoding === 'gzip' ? Bun.gunzipSync(body) : body
/** Headers that must not change with the encoding. */
const kept = (res: Response) =>
  Object.fromEntries(['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options'].map((k) => [k, res.headers.get(k)]))

describe('negotiation', () => {
  test.each([
    [null, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', null],
    ['BR , GZip', 'br'],
  ] as const)('Accept-Encoding %p answers %p', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected)
  })
})

describe('pages', () => {
  test('a page is brotli when brotli is accepted, gzip when only gzip is, as it is otherwise; the same page each time', async () => {
    const plain = await get('/dashboard/listings', undefined, broker.browser)
    expect(plain.status).toBe(200)
    const html = await bytes(plain)
    expect(new TextDecoder().decode(html)).toContain('CMP-0029')
    expect(html.byteLength).toBeGreaterThan(COMPRESSION.minBytes)
    expect(plain.headers.get('content-encoding')).toBeNull()
    // The answer depended on Accept-Encoding: caches are told so even when it was not compressed.
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i)

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
      ['br;q=0, gzip;q=0', null],
    ] as const) {
      const res = await get('/dashboard/listings', accept, broker.browser)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
      expect(kept(res)).toEqual(kept(plain))
      const body = await bytes(res)
      if (encoding) expect(body.byteLength).toBeLessThan(html.byteLength / 4)
      // The request id differs per request; everything else of the page is the same.
      const text = (b: Uint8Array) => new TextDecoder().decode(b).replace(/data-request-id="[^"]*"/g, '')
      expect(text(decoded(body, encoding))).toBe(text(html))
    }
  })

  test('a page refused keeps its status when compressed', async () => {
    // A broker on an admin's page: the shell with the 'Access Denied' card, 403.
    const res = await get('/dashboard/audit', 'br', broker.browser)
    expect(res.status).toBe(403)
    expect(res.headers.get('content-encoding')).toBe('br')
    expect(new TextDecoder().decode(decoded(await bytes(res), 'br'))).toContain('Access Denied')
  })

  test('HEAD answers the headers GET would, compressed alike, and no body', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const got = await get('/login', accept)
      const body = await bytes(got)
      const head = await get('/login', accept, {}, 'HEAD')
      expect(head.status).toBe(200)
      expect(head.headers.get('content-encoding')).toBe(got.headers.get('content-encoding'))
      expect(head.headers.get('vary')).toBe(got.headers.get('vary'))
      expect(kept(head)).toEqual(kept(got))
      expect((await bytes(head)).byteLength).toBe(0)
      const length = head.headers.get('content-length')
      if (length !== null) expect(Number(length)).toBe(body.byteLength)
      // No validator was sent before compression and none is now (a page is `no-cache` and rendered per request).
      expect(head.headers.get('etag')).toBeNull()
      expect(got.headers.get('etag')).toBeNull()
    }
  })
})

describe('API answers', () => {
  test('JSON written by a handler (a Response) and JSON of a returned array are both compressed, and read back the same', async () => {
    for (const path of ['/api/listings?per_page=25', `/api/geographic/cities?state_id=${place.state.id}`]) {
      const plain = await get(path, undefined, broker.bearer)
      expect(plain.status).toBe(200)
      const json = await plain.json()
      const res = await get(path, 'br, gzip', broker.bearer)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      expect(res.headers.get('content-encoding')).toBe('br')
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
      expect(JSON.parse(new TextDecoder().decode(decoded(await bytes(res), 'br')))).toEqual(json)
      const gz = await get(path, 'gzip', broker.bearer)
      expect(gz.headers.get('content-encoding')).toBe('gzip')
      expect(JSON.parse(new TextDecoder().decode(decoded(await bytes(gz), 'gzip')))).toEqual(json)
    }
  })

  test('a body under the threshold is sent as it is, with no Vary', async () => {
    const res = await get('/api/health', 'br, gzip')
    expect(res.status).toBe(200)
    const body = await bytes(res)
    expect(body.byteLength).toBeLessThan(COMPRESSION.minBytes)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBeNull()
    expect(JSON.parse(new TextDecoder().decode(body)).status).toBeDefined()
  })

  test('an error answer keeps its status and JSON', async () => {
    const res = await get('/api/listings/999999', 'br', broker.bearer)
    expect(res.status).toBe(404)
    const body = decoded(await bytes(res), res.headers.get('content-encoding'))
    expect(JSON.parse(new TextDecoder().decode(body)).detail).toBeString()
  })

  test('the event stream is never compressed: its events flow as written', async () => {
    const controller = new AbortController()
    const res = await h.request('/api/events', { headers: { ...broker.browser, 'accept-encoding': 'br, gzip' }, signal: controller.signal })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    expect(res.headers.get('content-encoding')).toBeNull()
    const reader = res.body!.getReader()
    const first = await reader.read()
    // Plain text: an SSE line (a comment or a field), not compressed bytes.
    expect(new TextDecoder().decode(first.value)).toMatch(/^(:|event:|data:|retry:|id:)/m)
    await reader.cancel()
    controller.abort()
  })
})

describe('assets', () => {
  test('scripts and CSS come as their prebuilt brotli or gzip copy, as the client asks', async () => {
    for (const url of [assetUrls.css, assetUrls.client]) {
      const raw = await bytes(await get(url))
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        [undefined, null],
      ] as const) {
        const res = await get(url, accept)
        expect(res.headers.get('content-encoding')).toBe(encoding)
        expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
        expect(res.headers.get('cache-control')).toContain('immutable')
        const body = await bytes(res)
        if (encoding) expect(body.byteLength).toBeLessThan(raw.byteLength / 3)
        expect(decoded(body, encoding)).toEqual(raw)
      }
    }
  })
})
