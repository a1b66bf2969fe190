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

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
}

/** Adds the security headers to every response: pages, API answers, assets, errors and redirects alike. */
export const securityHeaders = new Elysia({ name: 'security-headers' }).onRequest(({ set }) => {
  Object.assign(set.headers, SECURITY_HEADERS)
})
