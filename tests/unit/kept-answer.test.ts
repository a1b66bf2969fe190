import { describe, expect, test } from 'bun:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { KeptAnswer } from '../../src/platform/http/kept-answer'

// A kept answer's bytes are made once, from the text (src/platform/http/kept-answer.ts, decision 080): they must be
// the text's UTF-8 as TextEncoder writes it, for listings whose details are not ASCII (₹, Devanagari, an emoji).
/** A request's `set` as Elysia hands it to a route: nothing set yet. */
const answering = () => ({ headers: {} as Record<string, unknown> })
const request = (encoding?: string) => new Request('http://localhost/api/listings', encoding ? { headers: { 'accept-encoding': encoding } } : {})

describe('KeptAnswer', () => {
  const listing = (i: number) => JSON.stringify({ id: i, details: `2 BHK, ₹ ${i} लाख, near the station 🚉 — call`, contact_name: 'Zoë' })
  const text = `{"listings":[${Array.from({ length: 40 }, (_, i) => listing(i)).join(',')}],"total":40}`
  const utf8 = new TextEncoder().encode(text)

  test('sends the UTF-8 bytes of its text, and counts them (not the text’s UTF-16 length)', async () => {
    const answer = new KeptAnswer(text)
    expect(answer.size).toBe(utf8.byteLength)
    expect(answer.size).toBeGreaterThan(text.length)
    const response = await answer.response(request(), answering())
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(utf8)
    // Served again from the same bytes.
    expect(await (await answer.response(request(), answering())).text()).toBe(text)
  })

  test('its compressed copies hold the same bytes', async () => {
    const answer = new KeptAnswer(text)
    const br = await answer.response(request('br'), answering())
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())))).toEqual(utf8)
    const gzip = await answer.response(request('gzip'), answering())
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(new Uint8Array(gunzipSync(new Uint8Array(await gzip.arrayBuffer())))).toEqual(utf8)
  })

  test('a small answer goes as it is, with its exact length', async () => {
    const small = new KeptAnswer('{"zone":"West ₹"}')
    expect(small.size).toBe(new TextEncoder().encode('{"zone":"West ₹"}').byteLength)
    const response = await small.response(request('br'), answering())
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(await response.text()).toBe('{"zone":"West ₹"}')
  })
})
