// The keys a browser's PushSubscription carries (RFC 8291): `p256dh`, its P-256 public key as an uncompressed point (65
// bytes: 0x04, x, y), and `auth`, a 16-byte secret, both base64url. A payload is encrypted to them; keys that are not
// what they claim would make every send fail, so they are refused when the subscription is made.

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/

/** The bytes of a base64url text (padding tolerated), or null when it is not base64url. */
export function base64urlBytes(text: unknown): Uint8Array<ArrayBuffer> | null {
  if (typeof text !== 'string' || !BASE64URL.test(text)) return null
  return Uint8Array.from(Buffer.from(text.replace(/=+$/, ''), 'base64url'))
}

/** Why `p256dh` is not a P-256 public key as an uncompressed point, or null when it is one (on the curve). */
export async function p256dhProblem(p256dh: unknown): Promise<string | null> {
  const bytes = base64urlBytes(p256dh)
  if (!bytes) return 'The p256dh key must be base64url text'
  if (bytes.length !== 65 || bytes[0] !== 0x04) return 'The p256dh key must be an uncompressed P-256 public key (65 bytes)'
  try {
    // WebCrypto refuses a point that is not on the curve.
    await crypto.subtle.importKey('raw', bytes, { name: 'ECDH', namedCurve: 'P-256' }, false, [])
    return null
  } catch {
    return 'The p256dh key is not a point on the P-256 curve'
  }
}

/** Why `auth` is not a 16-byte authentication secret in base64url, or null when it is one. */
export function authProblem(auth: unknown): string | null {
  const bytes = base64urlBytes(auth)
  if (!bytes) return 'The auth secret must be base64url text'
  if (bytes.length !== 16) return 'The auth secret must be 16 bytes'
  return null
}
