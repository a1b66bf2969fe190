// The push-service stand-in (tests/support/push-service.ts) is only worth what its checks are: its hand-written
// decryption and VAPID verification are held here to the web-push library's own output (and to http_ece's own
// decryption), and shown to refuse what a push service refuses.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createECDH } from 'node:crypto'
import webPush from 'web-push'
// http_ece is web-push's own encryption library: its decrypt is the reference the stand-in's is compared with.
// @ts-expect-error no types are published for it
import ece from 'http_ece'
import { decryptPush, startPushService, verifyVapid, type BrowserSubscription, type PushService } from '../support/push-service'

const vapid = webPush.generateVAPIDKeys()
const other = webPush.generateVAPIDKeys()
let service: PushService

beforeAll(async () => {
  service = await startPushService({ vapidPublicKey: () => vapid.publicKey })
})
afterAll(() => service.stop())

/** The request web-push makes for this message, as it would send it. */
function libraryRequest(sub: BrowserSubscription, payload: string, keys = vapid, options: webPush.RequestOptions = {}) {
  return webPush.generateRequestDetails(sub, payload, {
    vapidDetails: { subject: 'mailto:push@brokernet.example', publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: 120,
    urgency: 'high',
    topic: 'listing-42',
    ...options,
  })
}

const post = (details: ReturnType<typeof libraryRequest>) =>
  fetch(details.endpoint, { method: 'POST', headers: details.headers as Record<string, string>, body: Uint8Array.from(details.body as Buffer) })

describe('the stand-in against the web-push library', () => {
  test('decrypts what web-push encrypts, and agrees with http_ece, byte for byte', async () => {
    const sub = await service.subscribe()
    for (const payload of ['{"title":"Hello"}', 'ü€😀'.repeat(300), 'x'.repeat(3993)]) {
      const details = libraryRequest(sub, payload)
      const body = new Uint8Array(details.body as Buffer)
      expect(await decryptPush(body, sub)).toBe(payload)
      // The same body through the library's own decryption, with the browser's private key.
      const { d } = await crypto.subtle.exportKey('jwk', sub.privateKey)
      const receiver = createECDH('prime256v1')
      receiver.setPrivateKey(Buffer.from(d!, 'base64url'))
      const reference = ece.decrypt(Buffer.from(body), { version: 'aes128gcm', privateKey: receiver, authSecret: sub.keys.auth }) as Buffer
      expect(reference.toString()).toBe(payload)
    }
  })

  test('accepts a message web-push sends and records its headers, claims and payload', async () => {
    const sub = await service.subscribe()
    const res = await post(libraryRequest(sub, '{"title":"A match"}'))
    expect(res.status).toBe(201)
    const [got] = service.delivered(sub)
    expect(got).toMatchObject({ ttl: 120, urgency: 'high', topic: 'listing-42', payload: '{"title":"A match"}', answered: 201 })
    expect(got!.claims).toMatchObject({ aud: service.origin, sub: 'mailto:push@brokernet.example' })
  })

  test('refuses a message signed with another key, a tampered body, and a missing TTL', async () => {
    const sub = await service.subscribe()
    const refusedBefore = service.refused.length
    expect((await post(libraryRequest(sub, 'x', other))).status).toBe(401)

    const tampered = libraryRequest(sub, 'hello')
    const body = tampered.body as Buffer
    body[body.length - 1]! ^= 1
    expect((await post(tampered)).status).toBe(400)

    const noTtl = libraryRequest(sub, 'hello')
    delete (noTtl.headers as Record<string, unknown>).TTL
    expect((await post(noTtl)).status).toBe(400)

    expect(service.refused.slice(refusedBefore).map((r) => r.reason)).toEqual([
      'VAPID: k= is not the server public key the browser subscribed with',
      expect.stringContaining('decryption failed'),
      'TTL header missing or not whole seconds',
    ])
    expect(service.delivered(sub)).toEqual([])
  })

  test('a JWT is checked: its signature against k=, its audience, its expiry within 24 hours', async () => {
    const sub = await service.subscribe()
    const audience = new URL(sub.endpoint).origin
    const now = Math.floor(Date.now() / 1000)
    const header = (aud: string, exp: number, keys = vapid) =>
      webPush.getVapidHeaders(aud, 'mailto:push@brokernet.example', keys.publicKey, keys.privateKey, 'aes128gcm', exp).Authorization
    expect(await verifyVapid(header(audience, now + 3600), vapid.publicKey, audience, now)).toMatchObject({ aud: audience })
    await expect(verifyVapid(header('https://elsewhere.example', now + 3600), vapid.publicKey, audience, now)).rejects.toThrow('aud')
    // web-push refuses to sign an expiry past 24 hours; the check is of the claim as read, at a later "now".
    await expect(verifyVapid(header(audience, now + 60), vapid.publicKey, audience, now + 61)).rejects.toThrow('expired')
    await expect(verifyVapid(header(audience, now + 23 * 3600), vapid.publicKey, audience, now - 3600 - 60)).rejects.toThrow('24 hours')
    // A signature by another key, presented with ours as k=.
    const forged = header(audience, now + 3600, other).replace(/k=.*$/, `k=${vapid.publicKey}`)
    await expect(verifyVapid(forged, vapid.publicKey, audience, now)).rejects.toThrow('signature')
  })

  test('answers as the test asks: queued answers in order, then the standing one', async () => {
    const sub = await service.subscribe()
    service.answer(sub, { status: 429, retryAfter: 7 }, 500)
    service.always(sub, 410)
    const statuses: (number | string | null)[] = []
    for (let i = 0; i < 3; i++) {
      const res = await post(libraryRequest(sub, `m${i}`))
      statuses.push(res.status, res.headers.get('retry-after'))
    }
    expect(statuses).toEqual([429, '7', 500, null, 410, null])
    expect((await fetch(`${service.origin}/push/unknown`, { method: 'POST' })).status).toBe(404)
  })

  test('decrypting a sample (the bench): every message still checked as a push service checks it, every n-th decrypted', async () => {
    const sampling = await startPushService({ vapidPublicKey: () => vapid.publicKey, decryptEvery: 3 })
    try {
      const sub = await sampling.subscribe()
      // Six good messages: the 1st and the 4th are decrypted and must come out whole; the others are only checked.
      for (let i = 0; i < 6; i++) expect((await post(libraryRequest(sub, `m${i}`))).status).toBe(201)
      expect(sampling.delivered(sub).map((r) => [r.decrypted, r.payload])).toEqual([
        [true, 'm0'],
        [false, ''],
        [false, ''],
        [true, 'm3'],
        [false, ''],
        [false, ''],
      ])
      // Not decrypted is not unchecked: signed by another key (the 7th, its turn, but the signature is checked first),
      // or with a cut body (the 8th, not its turn).
      expect((await post(libraryRequest(sub, 'x', other))).status).toBe(401)
      const cut = libraryRequest(sub, 'hello')
      expect((await fetch(cut.endpoint, { method: 'POST', headers: cut.headers as Record<string, string>, body: Uint8Array.from((cut.body as Buffer).subarray(0, 60)) })).status).toBe(400)
      // The 10th is decrypted (its turn): a tampered body is refused as the browser would refuse it.
      expect((await post(libraryRequest(sub, 'y'))).status).toBe(201)
      const tampered = libraryRequest(sub, 'hello')
      ;(tampered.body as Buffer)[(tampered.body as Buffer).length - 1]! ^= 1
      expect((await post(tampered)).status).toBe(400)
      expect(sampling.refused.map((r) => r.reason)).toEqual([
        'VAPID: k= is not the server public key the browser subscribed with',
        expect.stringContaining('not an aes128gcm body'),
        expect.stringContaining('decryption failed'),
      ])
    } finally {
      await sampling.stop()
    }
  })
})
