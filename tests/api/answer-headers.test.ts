import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_BODY_BYTES } from '../../src/platform/http/body-limit'
import { SECURITY_HEADERS } from '../../src/platform/http/security'
import { createTestApp, jsonBody } from '../support/app'
import { signIn, type SignedIn } from '../support/auth'
import { decodedText } from '../support/encoding'
import { eventually } from '../support/eventually'
import { insertListing, insertUser, seedPlace } from '../support/fixtures'
import { rawRequest } from '../support/raw-http'

// Issue 36: a 200 JSON answer is made whole by the compression hook, its headers copied from prebuilt security headers
// with the request's own added (src/platform/http/compression.ts); others are still made by Elysia from `set`. Every
// kind must carry each security header once, with its value, its request id (the one its log line names), and what
// its route set itself (a cookie, a status, a Retry-After). In process and against the binary.
const h = await createTestApp({ LOG_LEVEL: 'info' })
afterAll(() => h.close())
const PASSWORD = 'Answer-Heads@2291'
let master: SignedIn

beforeAll(async () => {
  await insertUser(h.ctx.db, { email: 'heads@example.com', passwordHash: await Bun.password.hash(PASSWORD), fullName: 'Head Tester', role: 'BROKER', isActive: true, registrationStatus: 'APPROVED' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN')
  // Forty cities: their list is a JSON answer of several kilobytes (compressed when asked).
  await seedPlace(h.ctx.db, Array.from({ length: 40 }, (_, i) => `Header City ${i + 1}`))
})

/** Each security header exactly as set (a header added twice reads "a, a"), and a request id logged with that status. */
async function expectWhole(res: Response, status: number) {
  expect(res.status).toBe(status)
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect([name, res.headers.get(name)]).toEqual([name, value])
  const id = res.headers.get('x-request-id')
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  const line = await eventually(`the log line of ${id}`, () => h.logLines().find((l) => l.request_id === id), 20_000, 10)
  expect(line.status).toBe(status)
}

describe('the headers of every kind of answer', () => {
  test('a small 200 JSON answer (made whole): security headers, request id, JSON type, nothing twice', async () => {
    const res = await h.request('/api/health')
    await expectWhole(res, 200)
    expect(res.headers.get('content-type')).toBe('application/json;charset=utf-8')
    expect(res.headers.get('vary')).toBeNull()
    expect((await res.json()).status).toBe('ok')
  })

  test('a large 200 JSON answer, compressed and not: the same headers, Vary and the encoding', async () => {
    for (const encoding of [undefined, 'gzip', 'br']) {
      const res = await h.request('/api/geographic/cities', { headers: { ...master.bearer, ...(encoding ? { 'accept-encoding': encoding } : {}) } })
      await expectWhole(res, 200)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      expect(res.headers.get('vary')).toBe('accept-encoding')
      expect(res.headers.get('content-encoding')).toBe(encoding ?? null)
    }
  })

  test('a 200 that sets a cookie (sign-in) keeps its Set-Cookie; a 201 and errors keep their status', async () => {
    const login = await h.request('/api/auth/login', jsonBody({ email: 'heads@example.com', password: PASSWORD }))
    await expectWhole(login, 200)
    expect(login.headers.get('set-cookie')).toContain('brokernet_session=')

    const created = await h.request('/api/geographic/countries', { ...jsonBody({ name: 'Headerland', code: 'HL' }), headers: { ...master.bearer, 'content-type': 'application/json' } })
    await expectWhole(created, 201)

    await expectWhole(await h.request('/api/nothing-here'), 404)
    const wrong = await h.request('/api/auth/login', jsonBody({ email: 'heads@example.com' }))
    await expectWhole(wrong, 422)
  })

  test('a kept answer (a page of listings; cold, then warm from the cache; small and large; each encoding): the same headers', async () => {
    const cityId = (await seedPlace(h.ctx.db, ['Kept Answer Town'])).cities[0]!.id
    const broker = await signIn(h.ctx.db, 'BROKER', { cityId })
    const page = (perPage: number) => `/api/listings/?per_page=${perPage}&city_id=${cityId}`
    // Nothing listed yet: under the size worth compressing, so no Vary.
    for (const round of ['cold', 'warm']) {
      const res = await h.request(page(10), { headers: broker.bearer })
      await expectWhole(res, 200)
      expect([round, res.headers.get('content-type'), res.headers.get('vary'), res.headers.get('content-encoding')]).toEqual([round, 'application/json', null, null])
      expect((await res.json()).total).toBe(0)
    }
    for (let i = 0; i < 12; i++)
      await insertListing(h.ctx.db, {
        entryId: `AVL-KEPT-${i}`, postType: 'AVL', saleOrRent: 'RENT', propertyType: 'Flat', contactValue: '9876543210', contactName: 'Direct',
        status: 'ACTIVE', date: '2026-11-24', details: `A kept answer's listing ${i}, long enough that a page of them is worth compressing`, ownerUserId: broker.user.id, cityId,
      })
    for (const [n, encoding, rows] of [[10, undefined, 10], [25, 'gzip', 12], [50, 'br', 12]] as const)
      for (const round of ['cold', 'warm']) {
        const res = await h.request(page(n), { headers: { ...broker.bearer, ...(encoding ? { 'accept-encoding': encoding } : {}) } })
        await expectWhole(res, 200)
        expect([round, res.headers.get('content-type'), res.headers.get('vary'), res.headers.get('content-encoding')]).toEqual([round, 'application/json', 'accept-encoding', encoding ?? null])
        expect(JSON.parse(await decodedText(res)).listings).toHaveLength(rows)
      }
  })

  test('a declared body over the limit: the JSON 413 with the security headers, and logged (a thrown refusal)', async () => {
    const headers = { 'content-type': 'application/json', 'content-length': String(MAX_BODY_BYTES + 1) }
    // fetch declares the length of what it sends: over HTTP the head is written by hand (and no body follows).
    const res = h.baseUrl ? await rawRequest(h.baseUrl, 'POST', '/api/auth/login', headers) : await h.request('/api/auth/login', { method: 'POST', headers })
    await expectWhole(res, 413)
    expect((await res.json()).detail).toContain('Request body too large')
  })
})
