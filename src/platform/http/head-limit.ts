import { Elysia } from 'elysia'
import { HttpError } from './errors'

/**
 * The largest request head the app reads: the request line (method and address) and every header, as sent. 16 KB is
 * what Bun and Node allow by default; an address full of filters, or a browser's cookies, is a small part of it.
 * Bun's own limit is set far above it (./transport.ts), so the refusal is this JSON 431, not Bun's empty one.
 */
export const MAX_HEAD_BYTES = 16 * 1024

/** The size of a request's head as the client sent it: `METHOD /path?query HTTP/1.1`, then one `name: value` line per header. */
export function headBytes(request: Request): number {
  const url = request.url
  // Bun's request.url is absolute; the request line holds what follows the host.
  const target = url.length - url.indexOf('/', url.indexOf('//') + 2)
  let bytes = request.method.length + target + 12
  request.headers.forEach((value, name) => {
    bytes += name.length + value.length + 4
  })
  return bytes
}

const tooLarge = () => new HttpError(431, `Request headers too large: the address and headers may be at most ${MAX_HEAD_BYTES / 1024} KB together`)

/** One limit for every request head (an address is part of it), answered with the API's JSON error before anything else. */
export const headLimit = new Elysia({ name: 'head-limit' }).onRequest(({ request }) => {
  if (headBytes(request) > MAX_HEAD_BYTES) throw tooLarge()
})
