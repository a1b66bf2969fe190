// What a push message carries, and how long and how urgently the push service should keep it (RFC 8030). The payload
// is what the notification shows and no more (issue 33): a title, a line of text, the page it opens and a tag that
// replaces an earlier notification with the same one. Push services take at most 4,096 bytes of encrypted body; the
// limits below keep the JSON under 3.3 KB whatever the text (every character counted at 4 bytes).

/** A notification as the service worker shows it. `url` is a path of this site; `tag` groups notifications. */
export type PushMessage = { title: string; body: string; url: string; tag?: string }

export const URGENCIES = ['very-low', 'low', 'normal', 'high'] as const
export type Urgency = (typeof URGENCIES)[number]

/**
 * `ttl`: seconds the push service keeps the message for a device that is offline (0: now or never; at most four
 * weeks). `topic`: a later message with the same topic replaces this one while it is still undelivered.
 */
export type PushOptions = { ttl: number; urgency: Urgency; topic?: string }

export const MAX_TITLE = 120
export const MAX_BODY = 400
export const MAX_URL = 512
export const MAX_TTL = 2_419_200
/** An aes128gcm body of one record holds its header (86 bytes), the tag (16) and a padding byte besides the payload. */
export const MAX_PAYLOAD_BYTES = 4096 - 103

/** One line of text, at most `max` characters (an emoji is one), an ellipsis where it was cut. */
function line(text: string, max: number): string {
  // Control characters and runs of spaces are of no use in a notification (and would grow the JSON with escapes).
  const clean = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ').trim()
  const chars = [...clean]
  return chars.length <= max ? clean : chars.slice(0, max - 1).join('').trimEnd() + '…'
}

/**
 * The payload of `message` as JSON. Title and body are shortened to fit; a url that is not a path of this site, a tag
 * of other characters, or options out of range are the caller's mistake (an Error, never a silent change).
 */
export function pushPayload(message: PushMessage): string {
  const url = message.url
  if (!/^\/(?!\/)[\x21-\x7e]*$/.test(url) || url.length > MAX_URL || url.includes('\\'))
    throw new Error(`A push message's url must be a path of this site (/…, printable ASCII, at most ${MAX_URL} characters)`)
  if (message.tag !== undefined && !/^[\w.:-]{1,64}$/.test(message.tag)) throw new Error("A push message's tag must be 1–64 letters, digits or . _ : -")
  const payload = JSON.stringify({ title: line(message.title, MAX_TITLE), body: line(message.body, MAX_BODY), url, ...(message.tag ? { tag: message.tag } : {}) })
  // Cannot happen within the limits above; kept as the promise the push services hold us to.
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error('A push message must stay under 4 KB')
  return payload
}

/** The options checked: whole seconds within four weeks, a known urgency, a topic of at most 32 base64url characters. */
export function checkPushOptions(options: PushOptions): PushOptions {
  if (!Number.isInteger(options.ttl) || options.ttl < 0 || options.ttl > MAX_TTL) throw new Error(`A push message's ttl must be whole seconds from 0 to ${MAX_TTL}`)
  if (!URGENCIES.includes(options.urgency)) throw new Error(`A push message's urgency must be one of ${URGENCIES.join(', ')}`)
  if (options.topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(options.topic)) throw new Error("A push message's topic must be 1–32 base64url characters")
  return options
}
