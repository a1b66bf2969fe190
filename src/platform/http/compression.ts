import { Elysia, StatusMap } from 'elysia'
import { SECURITY_HEADERS, securityHeadersWith } from './security'
// node:zlib (and the node:stream it loads, ~10 ms of CPU) is required at the first answer worth compressing, not at
// start: a health check or a small JSON answer never needs it (issue 36, docs/decisions/004-lazy-start.md).
let zlib: typeof import('node:zlib') | undefined
const loadZlib = () => (zlib ??= require('node:zlib') as typeof import('node:zlib'))

/**
 * Pages and API answers compressed as the client asks (`Accept-Encoding`): brotli, else gzip, else as they are
 * (docs/decisions/040-phone-speed.md). The listings page is 215 KB of HTML; brotli makes it 14 KB, about a second less
 * on a phone's 1.6 Mbps. Scripts and CSS are compressed once, when they are built (./assets.ts), not here.
 *
 * Levels chosen by measuring each page's CPU time against its bytes (`bun run bench:phone -- --compression`): brotli 5
 * and gzip 6 cost a few milliseconds for the largest page; brotli 11 would take about a second.
 */
export const COMPRESSION = { minBytes: 1024, brotliQuality: 5, gzipLevel: 6 } as const

/** What a body of these types gains from compression: text and JSON. Not event streams (they must flow as written). */
const COMPRESSIBLE = /^(?:text\/(?:html|plain|csv|css|javascript|xml)|application\/(?:json|[\w.-]+\+json|javascript|xml))\s*(?:;|$)/i

export type Encoding = 'br' | 'gzip'

/**
 * The encoding to answer with, by the client's `Accept-Encoding` (RFC 9110 12.5.3): brotli when it is accepted, else
 * gzip; none when neither is (absent header, `identity`, `q=0`). Equal weights prefer brotli, which is smaller.
 */
export function negotiateEncoding(header: string | null): Encoding | null {
  const { br, gzip } = acceptedEncodings(header)
  if (br <= 0 && gzip <= 0) return null
  return br >= gzip ? 'br' : 'gzip'
}

/** The weight (q) the client gives brotli and gzip: 0 for one it does not accept. */
export function acceptedEncodings(header: string | null): Record<Encoding, number> {
  if (!header) return { br: 0, gzip: 0 }
  const q: Record<string, number> = {}
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    q[name] = weight === undefined ? 1 : Number(weight) || 0
  }
  const of = (name: Encoding) => q[name] ?? (name === 'gzip' ? q['x-gzip'] : undefined) ?? q['*'] ?? 0
  return { br: of('br'), gzip: of('gzip') }
}

export function compress(bytes: Uint8Array<ArrayBuffer>, encoding: Encoding): Uint8Array<ArrayBuffer> {
  const { brotliCompressSync, constants } = loadZlib()
  return encoding === 'br'
    ? new Uint8Array(brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
      }))
    : Bun.gzipSync(bytes, { level: COMPRESSION.gzipLevel })
}

/** Answers whose encoding was chosen where they were made (./kept-answer.ts): passed on untouched. */
const settled = new WeakSet<Response>()

/**
 * Marks an answer as sent as it is: its encoding (or none) already follows the client's `Accept-Encoding`, with `Vary`
 * said as this hook would say it. Reading a Response's body to look at it costs more than a small answer's whole
 * route (a stream is made for it), so the hook does not look.
 */
export function sentAsIs(response: Response): Response {
  settled.add(response)
  return response
}

export const withVary = (vary: string | null) =>
  !vary ? 'accept-encoding' : /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary) ? vary : `${vary}, accept-encoding`

const statusCode = (status: unknown) => (typeof status === 'number' ? status : ((StatusMap as Record<string, number>)[String(status)] ?? 200))

/** What `Response.json` says of the JSON it sends, and so every JSON answer, however it is made. */
const JSON_TYPE = 'application/json;charset=utf-8'

const isPlainJson = (v: unknown): v is object =>
  v !== null && typeof v === 'object' && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)

/**
 * The answer of every route, compressed when it is text or JSON of at least `minBytes` (smaller bodies gain less than
 * the header costs) and not encoded already. A handler's object is serialised here, as Elysia would, to be compressed.
 * `Vary: Accept-Encoding` goes on every answer whose encoding depended on that header, compressed or not, so that a
 * cache never hands one client's brotli to another. An answer that says `Vary: Accept-Encoding` itself has chosen its
 * encoding (the prebuilt copies of ./assets.ts) and is left alone; so are event streams (by type: they flow as
 * written) and HEAD answers' missing bodies (a HEAD runs the GET handler: its headers are the GET's).
 */
export const compression = new Elysia({ name: 'compression' })
  // Two hooks: a handler's object is answered by a plain function, so that Elysia does not await it (it awaits a hook
  // declared async, every time it runs: issue 36); a Response must be read to be compressed, which is awaited.
  .mapResponse({ as: 'global' }, (c) => {
    const { request, responseValue, set } = c
    if (!isPlainJson(responseValue)) return
    const type = (set.headers['content-type'] as string | undefined) ?? JSON_TYPE
    if (type !== JSON_TYPE && !COMPRESSIBLE.test(type)) return
    const text = JSON.stringify(responseValue)
    const small = text.length < COMPRESSION.minBytes && Buffer.byteLength(text) < COMPRESSION.minBytes
    const error = (c as { error?: unknown }).error !== undefined
    // A 200 of a route answered in one piece here (issue 36): its headers are a native copy of the security headers'
    // (./security.ts) with the request's own added, and Elysia, finding nothing left in `set`, sends this Response as it is.
    if (!error && whole(set)) return encoded(request, set, text, !small, answerHeaders(set, type), 200)
    // Otherwise a small answer is left to Elysia, whose `Response.json` applies `set` in one native call; an error's
    // answer is made here (on that path Elysia sends an object left to it with no body), and Elysia adds `set` to it.
    if (small) return error ? new Response(text, { status: statusCode(set.status), headers: { 'content-type': type } }) : undefined
    return encoded(request, set, text, true, new Headers({ 'content-type': type }), statusCode(set.status))
  })
  .mapResponse({ as: 'global' }, async ({ request, responseValue, set }) => {
    // An async function (Elysia awaits only those; a promise returned otherwise would become the answer that the
    // request log and metrics read their status from).
    if (!(responseValue instanceof Response) || settled.has(responseValue)) return
    const type = responseValue.headers.get('content-type') ?? ''
    if (!COMPRESSIBLE.test(type) || responseValue.headers.has('content-encoding') || /accept-encoding/i.test(responseValue.headers.get('vary') ?? '')) return
    if (!responseValue.body || Number(responseValue.headers.get('content-length') ?? Infinity) < COMPRESSION.minBytes) return
    const bytes = new Uint8Array(await responseValue.arrayBuffer())
    return encoded(request, set, bytes, bytes.byteLength >= COMPRESSION.minBytes, new Headers(responseValue.headers), responseValue.status)
  })

export type Answering = { headers: Record<string, unknown>; status?: unknown; cookie?: Record<string, unknown> }

/**
 * The headers of an answer of this type made whole by its route (./kept-answer.ts), as this hook makes a JSON answer
 * whole (below), `set` emptied; null when it cannot be (another status, a cookie): Elysia then adds `set` to it.
 */
export const wholeAnswerHeaders = (set: Answering, type: string): Headers | null => (whole(set) ? answerHeaders(set, type) : null)

/** Whether an answer of this `set` can be made whole here: a 200 that sets no cookie (Elysia's cookie jar writes those). */
function whole(set: Answering): boolean {
  if ((set.status ?? 200) !== 200) return false
  if (set.cookie) for (const _ in set.cookie) return false
  return true
}

/**
 * The headers of an answer made whole here: the security headers and its content type, copied from a prebuilt
 * `Headers`, then whatever else the request set (its id, a Cache-Control). `set` is left empty: Elysia would otherwise
 * copy each of its headers into the answer again, one by one, by rebuilding it.
 */
function answerHeaders(set: Answering, type: string): Headers {
  const headers = securityHeadersWith(type)
  const own = set.headers
  for (const name in own) {
    const value = own[name]
    if (name === 'content-type' || SECURITY_HEADERS[name] === value) continue
    if (Array.isArray(value)) for (const v of value) headers.append(name, String(v))
    else headers.set(name, String(value))
  }
  set.headers = Object.create(null) as Record<string, unknown>
  set.cookie = undefined
  return headers
}

/** An answer's bytes, compressed when large enough and the client accepts an encoding; `Vary` said either way. */
function encoded(request: Request, set: { headers: Record<string, unknown> }, body: string | Uint8Array<ArrayBuffer>, large: boolean, headers: Headers, status: number): Response {
  if (large) {
    headers.set('vary', withVary(headers.get('vary') ?? (set.headers.vary as string | undefined) ?? null))
    const encoding = negotiateEncoding(request.headers.get('accept-encoding'))
    if (encoding) {
      headers.set('content-encoding', encoding)
      headers.delete('content-length')
      return new Response(compress(typeof body === 'string' ? new TextEncoder().encode(body) : body, encoding), { status, headers })
    }
  }
  // The body was read: answered as it is.
  return new Response(body, { status, headers })
}
