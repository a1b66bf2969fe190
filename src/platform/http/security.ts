import { Elysia } from 'elysia'

/** No inline script anywhere: islands' props are JSON data blocks, which CSP does not execute. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  // The ID card dialog previews a fetched PDF in a frame of its blob: URL.
  "frame-src 'self' blob:",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
})

/** Adds the security headers to every response: pages, API answers, assets, errors and redirects alike. */
export const securityHeaders = new Elysia({ name: 'security-headers' }).onRequest(({ set }) => {
  // A spread of one object copies its shape at once; Object.assign onto Elysia's prototype-less `set.headers` added the
  // six one by one (0.05 against 0.28 µs a request, issue 36). What earlier hooks set (the request id) is kept.
  set.headers = Object.assign({ ...SECURITY_HEADERS }, set.headers)
})

/** The security headers with each content type an answer made in one piece has had (a handful: JSON, HTML, text). */
const prebuilt = new Map<string, Headers>()

/**
 * A new `Headers` holding the security headers and this content type: a native copy of one built once (issue 36,
 * docs/decisions/069-request-cost.md). Bun reads a plain object of headers name by name, checking and copying each
 * (about 3 µs for these seven, more than the rest of a small answer); copying a `Headers` is one native call.
 */
export function securityHeadersWith(contentType: string): Headers {
  let headers = prebuilt.get(contentType)
  if (!headers) {
    headers = new Headers({ ...SECURITY_HEADERS, 'content-type': contentType })
    // A content type a handler made up per request (none does) would not fill the map.
    if (prebuilt.size < 32) prebuilt.set(contentType, headers)
  }
  return new Headers(headers)
}
