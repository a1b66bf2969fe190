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

/**
 * The share kept, and the browser sent on to the paste screen (which asks for a sign-in first when needed). Photos
 * (issue 34) are kept by the service worker in the browser, which posts the text with `kept_photos`, their number: the
 * screen's address carries it (`photos=`), so it survives the sign-in too. Photos that reach the server (no worker in
 * control yet) are not kept here, nobody being signed in to own them: the address says how many (`dropped=`).
 */
export function keepShared(form: Record<string, unknown>, secure: boolean): Response {
  const text = sharedText(form)
  const kept = Math.min(10, Math.max(0, Number.parseInt(String(form.kept_photos ?? ''), 10) || 0))
  const dropped = [form.photos].flat().filter((f) => f instanceof Blob && f.size > 0).length
  if (!text && !kept && !dropped) return new Response(null, { status: 303, headers: { location: PASTE_PAGE_PATH } })
  const query = new URLSearchParams({ shared: '1', ...(kept ? { photos: String(kept) } : {}), ...(dropped ? { dropped: String(dropped) } : {}) })
  const headers: Record<string, string> = { location: `${PASTE_PAGE_PATH}?${query}` }
  if (text) headers['set-cookie'] = cookie(encodeShared(text).value, KEPT_SECONDS, secure)
  return new Response(null, { status: 303, headers })
}

/** What the paste screen's address says of photos shared with the text: kept by the worker, or lost on the way. */
export function sharedPhotos(query: Record<string, string | undefined>): { kept: number; dropped: number } {
  const n = (v: string | undefined) => Math.min(10, Math.max(0, Number.parseInt(v ?? '', 10) || 0))
  return query.shared === '1' ? { kept: n(query.photos), dropped: n(query.dropped) } : { kept: 0, dropped: 0 }
}

/** The cookie that forgets a share once the paste screen has read it. */
export const forgetShared = (secure: boolean) => cookie('', 0, secure)
