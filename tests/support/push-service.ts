// A push service's side of Web Push on loopback, for tests (issue 33): Chromium here cannot reach a real one. It
// implements what a push service checks and does with a message, and nothing of our code:
// - RFC 8030: a message is a POST to the subscription's endpoint; TTL is required, Urgency and Topic are optional and
//   checked; the answer is 201, or whatever the test asked of that endpoint (404, 410, 429 with Retry-After, 500…);
// - RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT ES256-signed by that key, the key the one the
//   server serves, its audience the endpoint's origin, its expiry in the future and within 24 hours;
// - RFC 8291 / RFC 8188: the body decrypted (aes128gcm) with the subscription's private key and auth secret, as the
//   browser would. Written by hand on WebCrypto, checked against the web-push library's own output in
//   tests/unit/push-service.test.ts. A real push service never decrypts (the encryption is end to end, to the
//   browser): that is the browser's work, done here so that tests prove every payload decrypts. `decryptEvery: n`
//   decrypts every n-th message only (the first always), for the bench, where the stand-in shares the server's cores
//   and should cost what a push service costs (docs/decisions/061-burst-cost.md); every message is still checked as a
//   push service checks it (VAPID signature, claims, headers, the body's size and aes128gcm header).
// Subscriptions are made here as a browser makes them: a P-256 key pair and a 16-byte auth secret.

const subtle = crypto.subtle
/** Bytes WebCrypto takes (a Uint8Array over a plain ArrayBuffer). */
type Bytes = Uint8Array<ArrayBuffer>
const utf8 = new TextEncoder()
const b64url = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('base64url')
const fromB64url = (text: string): Bytes => Uint8Array.from(Buffer.from(text, 'base64url'))
const concat = (...parts: Uint8Array[]): Bytes => Uint8Array.from(Buffer.concat(parts))

/** What the service answers one message: a status, and for 429/503 a Retry-After (seconds or an HTTP date). */
export type Answer = number | { status: number; retryAfter?: string | number }

/** A subscription as the browser holds it: what it gives the server (endpoint, keys) and what it keeps (private key). */
export type BrowserSubscription = {
  id: string
  endpoint: string
  keys: { p256dh: string; auth: string }
  privateKey: CryptoKey
  publicKey: Bytes
  authSecret: Bytes
}

/** A message that passed every check, decrypted, and what the service answered it. */
export type Received = {
  subscription: string
  at: number
  ttl: number
  urgency: string | null
  topic: string | null
  /** The decrypted payload; '' when this message was not decrypted (`decryptEvery` above 1, not its turn). */
  payload: string
  /** Whether the body was decrypted (every message unless `decryptEvery` says otherwise). */
  decrypted: boolean
  claims: { aud: string; exp: number; sub: string }
  bodyBytes: number
  answered: number
}

/** A message refused by the service's checks (a test expects none unless it provoked one). */
export type Refused = { subscription: string; status: number; reason: string }

export type PushService = {
  origin: string
  /**
   * A new subscription, as PushManager.subscribe makes one. `host` spells the endpoint's host (default 127.0.0.1, the
   * address the service listens on; a name must then resolve there through the sender's resolver).
   */
  subscribe: (options?: { host?: string }) => Promise<BrowserSubscription>
  /** The next messages to this subscription get these answers, in order; afterwards `always`'s, or 201. */
  answer: (subscription: BrowserSubscription, ...answers: Answer[]) => void
  /** Every later message to this subscription gets this answer (null: back to 201). */
  always: (subscription: BrowserSubscription, answer: Answer | null) => void
  /** Messages that passed the checks, in order of arrival, with what was answered. */
  received: Received[]
  refused: Refused[]
  /** The messages answered 2xx to one subscription. */
  delivered: (subscription: BrowserSubscription) => Received[]
  /** The most requests the service was answering at one moment. */
  maxInFlight: () => number
  stop: () => Promise<void>
}

/** A browser's P-256 key pair and 16-byte auth secret (PushManager.subscribe). */
export async function browserKeys(): Promise<{ privateKey: CryptoKey; publicKey: Bytes; authSecret: Bytes }> {
  const pair = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair
  return {
    privateKey: pair.privateKey,
    publicKey: new Uint8Array(await subtle.exportKey('raw', pair.publicKey)),
    authSecret: crypto.getRandomValues(new Uint8Array(16)),
  }
}

async function hkdf(salt: Bytes, ikm: Bytes, info: Bytes, bytes: number): Promise<Bytes> {
  const key = await subtle.importKey('raw', ikm, 'HKDF', false, ['deriveBits'])
  return new Uint8Array(await subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, key, bytes * 8))
}

/**
 * RFC 8291's decryption of an aes128gcm body (RFC 8188) by the user agent: header (salt, record size, key id = the
 * server's ephemeral public key), the shared secret with the subscription's private key, the auth secret mixed in,
 * then each record's AES-128-GCM with its nonce, and the padding removed. Throws on anything that does not hold.
 */
export async function decryptPush(body: Bytes, subscription: Pick<BrowserSubscription, 'privateKey' | 'publicKey' | 'authSecret'>): Promise<string> {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header')
  const salt = body.subarray(0, 16)
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0)
  const idlen = body[20]!
  if (idlen !== 65) throw new Error(`key id of ${idlen} bytes: RFC 8291 puts the 65-byte application server key there`)
  const serverKey = body.subarray(21, 21 + idlen)
  if (rs < 18) throw new Error(`record size ${rs} is below RFC 8188's minimum`)
  const serverPublic = await subtle.importKey('raw', serverKey, { name: 'ECDH', namedCurve: 'P-256' }, false, [])
  const shared = new Uint8Array(await subtle.deriveBits({ name: 'ECDH', public: serverPublic }, subscription.privateKey, 256))
  const keyInfo = concat(utf8.encode('WebPush: info\0'), subscription.publicKey, serverKey)
  const ikm = await hkdf(subscription.authSecret, shared, keyInfo, 32)
  const cek = await subtle.importKey('raw', await hkdf(salt, ikm, utf8.encode('Content-Encoding: aes128gcm\0'), 16), 'AES-GCM', false, ['decrypt'])
  const nonceBase = await hkdf(salt, ikm, utf8.encode('Content-Encoding: nonce\0'), 12)
  const ciphertext = body.subarray(21 + idlen)
  if (ciphertext.length === 0) throw new Error('no record')
  const parts: Uint8Array[] = []
  for (let at = 0, seq = 0; at < ciphertext.length; at += rs, seq++) {
    const record = ciphertext.subarray(at, at + rs)
    const last = at + rs >= ciphertext.length
    const nonce = Uint8Array.from(nonceBase)
    // The record's sequence number, XORed into the nonce's last 48 bits (big-endian).
    for (let i = 0, s = seq; i < 6; i++, s = Math.floor(s / 256)) nonce[11 - i]! ^= s % 256
    const plain = new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: nonce, tagLength: 128 }, cek, record))
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    if (end < 0 || plain[end] !== (last ? 2 : 1)) throw new Error(`record ${seq} has no ${last ? 'last-record (0x02)' : 'record (0x01)'} delimiter`)
    parts.push(plain.subarray(0, end))
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(concat(...parts))
}

/** The server's public key as a WebCrypto key, imported once per key (the signature is still checked every message). */
const verifyingKeys = new Map<string, Promise<CryptoKey>>()
function verifyingKey(key: string): Promise<CryptoKey> {
  let found = verifyingKeys.get(key)
  if (!found) {
    found = subtle.importKey('raw', fromB64url(key), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
    found.catch(() => verifyingKeys.delete(key))
    verifyingKeys.set(key, found)
  }
  return found
}

/**
 * What a push service can check of an aes128gcm body without the keys (RFC 8188's header as RFC 8291 fills it):
 * throws when it does not hold.
 */
export function checkPushBody(body: Bytes): void {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header')
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0)
  if (body[20] !== 65) throw new Error(`key id of ${body[20]} bytes: RFC 8291 puts the 65-byte application server key there`)
  if (rs < 18) throw new Error(`record size ${rs} is below RFC 8188's minimum`)
  // A record holds at least its delimiter and the 16-byte tag.
  if (body.length < 21 + 65 + 17) throw new Error('no record')
}

/**
 * RFC 8292: the `vapid` Authorization header checked, its claims returned. `expectedKey` is the server's public key
 * as it serves it (base64url); `audience` the endpoint's origin.
 */
export async function verifyVapid(authorization: string | null, expectedKey: string, audience: string, nowSeconds = Math.floor(Date.now() / 1000)) {
  const m = /^vapid\s+(.*)$/i.exec(authorization ?? '')
  if (!m) throw new Error('no vapid Authorization header')
  const params = Object.fromEntries(m[1]!.split(',').map((p) => p.trim().split('=') as [string, string]).map(([k, v]) => [k.trim(), v?.trim() ?? '']))
  const token = params.t
  const key = params.k
  if (!token || !key) throw new Error('vapid header without t= and k=')
  if (key !== expectedKey) throw new Error('k= is not the server public key the browser subscribed with')
  const [h, p, s, extra] = token.split('.')
  if (!h || !p || !s || extra !== undefined) throw new Error('t= is not a JWS compact serialisation')
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; typ?: string }
  if (header.alg !== 'ES256') throw new Error(`JWT alg ${header.alg}, not ES256`)
  const publicKey = await verifyingKey(key)
  const valid = await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, fromB64url(s), utf8.encode(`${h}.${p}`))
  if (!valid) throw new Error('JWT signature does not verify with k=')
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string }
  if (claims.aud !== audience) throw new Error(`JWT aud ${claims.aud}, not the endpoint's origin ${audience}`)
  if (!Number.isInteger(claims.exp) || claims.exp <= nowSeconds) throw new Error('JWT expired')
  if (claims.exp > nowSeconds + 24 * 3600) throw new Error('JWT exp more than 24 hours ahead')
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new Error(`JWT sub ${claims.sub} is neither mailto: nor https:`)
  return claims
}

const URGENCY = new Set(['very-low', 'low', 'normal', 'high'])

/** Starts the service on 127.0.0.1 (a free port). `vapidPublicKey`: the key the server serves, asked for at each message. */
export async function startPushService(options: { vapidPublicKey: () => string | Promise<string>; decryptEvery?: number }): Promise<PushService> {
  const decryptEvery = Math.max(1, Math.floor(options.decryptEvery ?? 1))
  let taken = 0
  const subscriptions = new Map<string, { sub: BrowserSubscription; queue: Answer[]; always: Answer | null }>()
  const received: Received[] = []
  const refused: Refused[] = []
  let messages = 0
  let inFlight = 0
  let maxInFlight = 0

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      try {
        return await answer(request)
      } finally {
        inFlight--
      }
    },
  })

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const id = /^\/push\/([\w-]+)$/.exec(url.pathname)?.[1]
    const entry = id ? subscriptions.get(id) : undefined
    if (request.method !== 'POST' || !entry) return new Response('no such subscription', { status: 404 })
    const refuse = (status: number, reason: string) => {
      refused.push({ subscription: entry.sub.id, status, reason })
      return new Response(reason, { status })
    }
    const at = Date.now()
    // Counted on arrival, whatever the checks say: the n-th message to the service is decrypted when n % decryptEvery is 0.
    const decrypted = taken++ % decryptEvery === 0
    let claims: Received['claims']
    try {
      claims = await verifyVapid(request.headers.get('authorization'), await options.vapidPublicKey(), new URL(entry.sub.endpoint).origin)
    } catch (e) {
      return refuse(401, `VAPID: ${(e as Error).message}`)
    }
    const ttlText = request.headers.get('ttl')
    if (ttlText === null || !/^\d+$/.test(ttlText)) return refuse(400, 'TTL header missing or not whole seconds')
    const urgency = request.headers.get('urgency')
    if (urgency !== null && !URGENCY.has(urgency)) return refuse(400, `Urgency ${urgency} is not one of RFC 8030's`)
    const topic = request.headers.get('topic')
    if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) return refuse(400, 'Topic must be at most 32 base64url characters')
    if (request.headers.get('content-encoding') !== 'aes128gcm') return refuse(415, 'Content-Encoding must be aes128gcm')
    const body = new Uint8Array(await request.arrayBuffer())
    if (body.length > 4096) return refuse(413, `body of ${body.length} bytes, over 4096`)
    let payload = ''
    try {
      if (decrypted) payload = await decryptPush(body, entry.sub)
      else checkPushBody(body)
    } catch (e) {
      return refuse(400, `${decrypted ? 'decryption failed' : 'not an aes128gcm body'}: ${(e as Error).message}`)
    }
    const next = entry.queue.shift() ?? entry.always ?? 201
    const { status, retryAfter } = typeof next === 'number' ? { status: next, retryAfter: undefined } : next
    received.push({ subscription: entry.sub.id, at, ttl: Number(ttlText), urgency, topic, payload, decrypted, claims, bodyBytes: body.length, answered: status })
    const headers: Record<string, string> = status === 201 ? { location: `${url.origin}/message/${++messages}` } : {}
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter)
    return new Response(status === 201 ? null : `answered ${status}`, { status, headers })
  }
  const origin = `http://127.0.0.1:${server.port}`

  return {
    origin,
    received,
    refused,
    async subscribe({ host } = {}) {
      const keys = await browserKeys()
      const id = b64url(crypto.getRandomValues(new Uint8Array(12)))
      const endpoint = `http://${host ?? '127.0.0.1'}:${server.port}/push/${id}`
      const sub: BrowserSubscription = { id, endpoint, keys: { p256dh: b64url(keys.publicKey), auth: b64url(keys.authSecret) }, ...keys }
      subscriptions.set(id, { sub, queue: [], always: null })
      return sub
    },
    answer(sub, ...answers) {
      subscriptions.get(sub.id)!.queue.push(...answers)
    },
    always(sub, answer) {
      subscriptions.get(sub.id)!.always = answer
    },
    delivered: (sub) => received.filter((r) => r.subscription === sub.id && r.answered >= 200 && r.answered < 300),
    maxInFlight: () => maxInFlight,
    stop: async () => {
      await server.stop(true)
    },
  }
}
