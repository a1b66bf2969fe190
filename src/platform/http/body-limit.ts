import { Elysia } from 'elysia'
import { HttpError } from './errors'

/** The largest request body the app reads: an identity document of 10 MB (admin upload) plus its form fields. */
export const MAX_BODY_BYTES = 11 * 1024 * 1024

/**
 * The one route allowed more: listing photos (issue 34), a phone photo of up to 15 MB with the multipart's framing.
 * Several photos may go in one request within it; the screens send one per request.
 */
export const PHOTO_BODY_BYTES = 16 * 1024 * 1024
const PHOTO_UPLOAD = /^\/api\/listings\/\d+\/photos\/?$/

/** The limit of this request's body. */
export const bodyLimitOf = (request: Request): number =>
  request.method === 'POST' && PHOTO_UPLOAD.test(new URL(request.url).pathname) ? PHOTO_BODY_BYTES : MAX_BODY_BYTES

/**
 * Bun's own limit, set out of the way: over it Bun answers a bare 413 with no JSON before the app sees the request.
 * The app's limit above is what applies; nothing is read past it.
 */
export const TRANSPORT_BODY_LIMIT = Number.MAX_SAFE_INTEGER

const tooLarge = (limit: number) => new HttpError(413, `Request body too large: the limit is ${limit / 1024 / 1024} MB`)

/**
 * Whether a body sent without a declared length (chunked) stays within the limit, read from a copy of the stream
 * and stopped as soon as it does not: the original is then parsed as usual. At most the limit is ever buffered.
 */
async function withinLimit(request: Request, limit: number): Promise<boolean> {
  const reader = request.clone().body!.getReader()
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return true
    bytes += value.byteLength
    if (bytes > limit) {
      void reader.cancel()
      return false
    }
  }
}

/**
 * One limit for every request body, always answered with the API's JSON error (the server is started with a
 * transport limit far above it, so Bun never answers a bare 413 of its own):
 * - a declared length over the limit is refused before anything is read;
 * - a body without a declared length is counted as it is read, before any route parses it.
 */
export const bodyLimit = new Elysia({ name: 'body-limit' })
  // Thrown, not answered from the hook: Elysia awaits a request hook whose text could answer (the word "return"),
  // on every request; a thrown refusal goes the errors' way, logged and with the security headers (issue 36).
  .onRequest(({ request }) => {
    const length = request.headers.get('content-length')
    if (length !== null) {
      const limit = bodyLimitOf(request)
      if (Number(length) > limit) throw tooLarge(limit)
    }
  })
  .onParse({ as: 'global' }, async ({ request }) => {
    const limit = bodyLimitOf(request)
    if (request.body && !request.headers.has('content-length') && !(await withinLimit(request, limit))) throw tooLarge(limit)
  })
