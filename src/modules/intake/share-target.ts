import { PASTE_PAGE_PATH } from '../../../islands/intake/intake-text'

// node:zlib is required at first use, not at start: loading it costs milliseconds of CPU before the first answer
// (issue 36, docs/decisions/004-lazy-start.md).
const zlib = () => require('node:zlib') as typeof import('node:zlib')

// "Share → Brokernet" (issue 33): Android's share sheet posts what was shared (a WhatsApp message, several selected
// messages) to the manifest's share_target. It is kept in a cookie for an hour, compressed, and the paste screen reads
// it into drafts: after the sign-in too, when the broker was signed out (the sign-in page comes back to the screen).

export const SHARED_COOKIE = 'brokernet_shared'
/** What the cookie may hold, encoded: inside the 4,096 bytes browsers keep of one, with its name and attributes. */
const MAX_ENCODED = 3800
const KEPT_SECONDS = 3600

/** The text of a share: the message, and its link or title when the message does not already carry them. */
export function sharedText(form: { title?: unknown; text?: unknown; url?: unknown }): string {
  const parts = [form.title, form.text, form.url].map((p) => (typeof p === 'string' ? p.trim() : '')).filter(Boolean)
  return parts.filter((p, i) => !parts.some((q, j) => j !== i && q.length > p.length && q.includes(p))).join('\n')
}

const encode = (text: string) => zlib().deflateRawSync(Buffer.from(text, 'utf8'), { level: 9 }).toString('base64url')

/** The cookie's value: the text, or as many of its first lines as fit (`truncated` then says so). */
export function encodeShared(text: string): { value: string; truncated: boolean } {
  let lines = text.split('\n')
  let value = encode(text)
  let truncated = false
  while (value.length > MAX_ENCODED && lines.length > 1) {
    lines = lines.slice(0, Math.max(1, Math.floor(lines.length * 0.8)))
    value = encode(lines.join('\n'))
    truncated = true
  }
  if (value.length > MAX_ENCODED) {
    // One very long line: cut by characters.
    let chars = [...lines[0]!]
    while (value.length > MAX_ENCODED) value = encode((chars = chars.slice(0, Math.floor(chars.length * 0.8))).join(''))
    truncated = true
  }
  return { value: `${truncated ? 't' : 'w'}.${value}`, truncated }
}

export function decodeShared(value: string | undefined): { text: string; truncated: boolean } | null {
  const m = /^([tw])\.([A-Za-z0-9_-]{1,4000})$/.exec(value ?? '')
  if (!m) return null
  try {
    const text = zlib().inflateRawSync(Buffer.from(m[2]!, 'base64url'), { maxOutputLength: 200_000 }).toString('utf8')
    return text.trim() ? { text, truncated: m[1] === 't' } : null
  } catch {
    return null
  }
}

const cookie = (value: string, maxAge: number, secure: boolean) =>
  `${SHARED_COOKIE}=${value}; Path=${PASTE_PAGE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`

/** The share kept, and the browser sent on to the paste screen (which asks for a sign-in first when needed). */
export function keepShared(form: Record<string, unknown>, secure: boolean): Response {
  const text = sharedText(form)
  if (!text) return new Response(null, { status: 303, headers: { location: PASTE_PAGE_PATH } })
  return new Response(null, { status: 303, headers: { location: `${PASTE_PAGE_PATH}?shared=1`, 'set-cookie': cookie(encodeShared(text).value, KEPT_SECONDS, secure) } })
}

/** The cookie that forgets a share once the paste screen has read it. */
export const forgetShared = (secure: boolean) => cookie('', 0, secure)
