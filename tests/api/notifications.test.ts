// Push alerts (issue 33), the features' side: the devices and settings API, and each kind of alert raised by what
// happens in the app, delivered to a push-service stand-in on loopback (tests/support/push-service.ts) that verifies
// every message's VAPID signature against the served key and decrypts it with the subscription's keys. Scope is
// judged again at the send, quiet hours hold and summarise, dead devices are removed, refusals retried. In process,
// against the binary (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openDataSource } from '../../db/open'
import { runExpiryReminders } from '../../src/modules/listings/reminders'
import { createContext } from '../../src/platform/context'
import { notificationsFeature } from '../../src/modules/notifications/plugin'
import { hhmmOf } from '../../src/modules/notifications/quiet'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { insertListing, seedPlace } from '../support/fixtures'
import { startPushService, type BrowserSubscription, type PushService, type Received } from '../support/push-service'

const h = await createTestApp({ PUSH_ALLOW_HOSTS: '127.0.0.1' })
let service: PushService
let mumbai: number
let pune: number

const CHROME_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  service = await startPushService({ vapidPublicKey: async () => (await (await h.request('/api/notifications/key', { headers: (await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })).bearer })).json()).public_key })
})
afterAll(async () => {
  await service.stop()
  await h.close()
})

/** A browser's subscription, sent as PushSubscription.toJSON() gives it. */
async function subscribeDevice(as: SignedIn, sub?: BrowserSubscription) {
  const s = sub ?? (await service.subscribe())
  const res = await h.request('/api/notifications/devices', withJson({ ...as.browser, 'user-agent': CHROME_ANDROID }, { endpoint: s.endpoint, keys: s.keys, expirationTime: null }))
  return { sub: s, res }
}

/** A user with one device and no quiet hours (so what is raised leaves at once, whatever the hour of the run). */
async function withDevice(role: 'BROKER' | 'MODULE_ADMIN' | 'MASTER_ADMIN', cityId: number | null) {
  const as = await signIn(h.ctx.db, role, { cityId })
  const { sub, res } = await subscribeDevice(as)
  expect(res.status).toBe(201)
  await putSettings(as, { quiet_hours: null })
  return { as, sub }
}

const putSettings = async (as: SignedIn, body: unknown) => {
  const res = await h.request('/api/notifications/settings', withJson(as.browser, body, 'PUT'))
  expect(res.status).toBe(200)
  return res.json()
}

let types = 0
const kind = () => `Push Kind ${++types}`
async function post(as: SignedIn, body: Record<string, unknown>): Promise<{ id: number; entry_id: string }> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'RENT', contact_value: '9876543210', ...body }))
  expect(res.status).toBe(201)
  return res.json()
}

/** Quiet hours from an hour ago to two hours ahead, in UTC: around now whatever the hour of the run. */
function aroundNow() {
  const now = new Date()
  const minutes = now.getUTCHours() * 60 + now.getUTCMinutes()
  return { from: hhmmOf((minutes + 1440 - 60) % 1440), to: hhmmOf((minutes + 120) % 1440) }
}

const payloadOf = (r: Received) => JSON.parse(r.payload) as { title: string; body: string; url: string; tag?: string }
const deliveredTo = (sub: BrowserSubscription) => service.delivered(sub).map(payloadOf)
const outboxRows = () => h.ctx.db.all<{ id: number; subject: string | null; status: string }>('select id, subject, status from push_outbox order by id')

describe('the API', () => {
  test('the public key is the one the stand-in verifies with; signed out is a 401', async () => {
    const me = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const res = await h.request('/api/notifications/key', { headers: me.bearer })
    expect(res.status).toBe(200)
    const { public_key } = await res.json()
    expect(Buffer.from(public_key, 'base64url')).toHaveLength(65)
    expect((await h.request('/api/notifications/key')).status).toBe(401)
  })

  test('a device is subscribed, listed by its browser and last use, and removed; anyone else’s is a 404', async () => {
    const me = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const other = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const { res } = await subscribeDevice(me)
    expect(res.status).toBe(201)
    const device = await res.json()
    expect(device).toMatchObject({ device: 'Chrome on Android' })
    const list = await (await h.request('/api/notifications/devices', { headers: me.bearer })).json()
    expect(list).toEqual({ devices: [device], limit: 10 })
    expect((await h.request(`/api/notifications/devices/${device.id}`, { method: 'DELETE', headers: other.browser })).status).toBe(404)
    expect((await h.request(`/api/notifications/devices/${device.id}`, { method: 'DELETE', headers: me.browser })).status).toBe(204)
    expect((await (await h.request('/api/notifications/devices', { headers: me.bearer })).json()).devices).toEqual([])
  })

  test('refusals name the field: an endpoint that is not public https, keys that are not keys; the eleventh device is a 409', async () => {
    const me = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const sub = await service.subscribe()
    const refused = async (body: unknown) => {
      const res = await h.request('/api/notifications/devices', withJson(me.browser, body))
      return [res.status, ((await res.json()).detail as { loc: string[] }[])[0]!.loc.join('.')]
    }
    expect(await refused({ endpoint: 'http://10.0.0.8/push/x', keys: sub.keys })).toEqual([422, 'body.endpoint'])
    expect(await refused({ endpoint: 'https://169.254.169.254/latest', keys: sub.keys })).toEqual([422, 'body.endpoint'])
    expect(await refused({ endpoint: 'https://localhost/push', keys: sub.keys })).toEqual([422, 'body.endpoint'])
    expect(await refused({ endpoint: sub.endpoint, keys: { ...sub.keys, p256dh: 'AAAA' } })).toEqual([422, 'body.keys.p256dh'])
    expect(await refused({ endpoint: sub.endpoint, keys: { ...sub.keys, auth: 'short' } })).toEqual([422, 'body.keys.auth'])
    expect(await refused({ endpoint: sub.endpoint })).toEqual([422, 'body.keys'])
    for (let i = 0; i < 10; i++) expect((await subscribeDevice(me)).res.status).toBe(201)
    const eleventh = (await subscribeDevice(me)).res
    expect(eleventh.status).toBe(409)
    expect((await eleventh.json()).detail).toContain('10 devices')
  })

  test('settings: every kind and 22:00–07:00 in the installation’s zone by default; partial changes; bad zones and hours are 422', async () => {
    const me = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const fresh = await (await h.request('/api/notifications/settings', { headers: me.bearer })).json()
    expect(fresh).toEqual({ kinds: { match: true, saved_search: true, expiring: true, registration: true, deal: true }, quiet_hours: { from: '22:00', to: '07:00' }, time_zone: 'UTC', held: 0 })
    const changed = await putSettings(me, { kinds: { saved_search: false }, time_zone: 'Asia/Kolkata' })
    expect(changed).toEqual({ ...fresh, kinds: { ...fresh.kinds, saved_search: false }, time_zone: 'Asia/Kolkata' })
    expect(await putSettings(me, { quiet_hours: { from: '23:30', to: '06:15' } })).toMatchObject({ quiet_hours: { from: '23:30', to: '06:15' }, kinds: { saved_search: false } })
    const bad = async (body: unknown) => {
      const res = await h.request('/api/notifications/settings', withJson(me.browser, body, 'PUT'))
      return [res.status, JSON.stringify((await res.json()).detail)]
    }
    expect(await bad({ time_zone: 'Mars/Olympus' })).toEqual([422, expect.stringContaining('time_zone')])
    expect(await bad({ quiet_hours: { from: '24:00', to: '07:00' } })).toEqual([422, expect.stringContaining('HH:MM')])
    expect(await bad({ quiet_hours: { from: '07:00', to: '07:00' } })).toEqual([422, expect.stringContaining('quiet_hours')])
    expect(await bad({ kinds: { match: 'yes' } })).toEqual([422, expect.stringContaining('match')])
  })

  test('deactivation, and any sign-out everywhere, removes every device of the user', async () => {
    const { as, sub } = await withDevice('BROKER', mumbai)
    const admin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
    expect((await h.ctx.db.all('select id from push_subscriptions where endpoint = ?', [sub.endpoint])).length).toBe(1)
    const res = await h.request(`/api/users/${as.user.id}/activation`, withJson(admin.browser, { is_active: false, reason: 'left the firm' }, 'PATCH'))
    expect(res.status).toBe(200)
    expect(await h.ctx.db.all('select id from push_subscriptions where user_id = ?', [as.user.id])).toEqual([])
  })
})

describe('alerts, delivered to the stand-in', () => {
  test('a new match on one of my listings: encrypted, signed, urgent, opening the matches screen; the author hears nothing', async () => {
    const { as: asha, sub: ashaSub } = await withDevice('BROKER', mumbai)
    const { as: ravi, sub: raviSub } = await withDevice('BROKER', mumbai)
    const type = kind()
    const mine = await post(asha, { post_type: 'REQ', property_type: type, budget: 50_000 })
    const posted = Date.now()
    const theirs = await post(ravi, { post_type: 'AVL', property_type: type, budget: 45_000, locality: 'Andheri West' })
    const [alert] = await eventually('the match alert', () => service.delivered(ashaSub).length > 0 && service.delivered(ashaSub))
    expect(payloadOf(alert!)).toEqual({ title: `New match for ${mine.entry_id}`, body: `${theirs.entry_id}: AVL RENT ${type}, Andheri West`, url: '/dashboard/matches', tag: `match-listing-${theirs.id}` })
    expect(alert!.urgency).toBe('high')
    // A day, counted down from the queueing (the first message of a process also waits for its sender thread to start:
    // over a second on a loaded machine, seen on PostgreSQL).
    expect(alert!.ttl).toBeLessThanOrEqual(86_400)
    expect(alert!.ttl).toBeGreaterThanOrEqual(86_400 - Math.ceil((alert!.at - posted) / 1000))
    // Nothing about the contact or the price: the notification needs neither.
    expect(alert!.payload).not.toContain('9876543210')
    expect(deliveredTo(raviSub)).toEqual([])
    // Deleted once the push service took it (the 201 is recorded just after the stand-in has counted it).
    await eventually('the outbox empty', async () => (await outboxRows()).length === 0)
  })

  test('a kind turned off is dropped: no message queued', async () => {
    const { as: asha, sub } = await withDevice('BROKER', mumbai)
    const ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    await putSettings(asha, { kinds: { match: false } })
    const type = kind()
    await post(asha, { post_type: 'REQ', property_type: type })
    await post(ravi, { post_type: 'AVL', property_type: type })
    await eventually('the inbox entry', async () => (await h.ctx.db.all('select id from listing_matches where user_id = ?', [asha.user.id])).length === 1)
    expect(await h.ctx.db.all('select id from push_held where user_id = ?', [asha.user.id])).toEqual([])
    expect(await outboxRows()).toEqual([])
    expect(deliveredTo(sub)).toEqual([])
  })

  test('an INSTANT saved search: a listing it lets through, posted by someone else, opens that listing', async () => {
    const { as: ravi, sub } = await withDevice('BROKER', mumbai)
    const asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const type = kind()
    const saved = await h.request('/api/saved-searches', withJson(ravi.browser, { name: 'Rentals of my kind', filters: { property_type: type }, alert: 'INSTANT' }))
    expect(saved.status).toBe(201)
    await post(ravi, { post_type: 'AVL', property_type: type })
    const listing = await post(asha, { post_type: 'AVL', property_type: type, locality: 'Bandra' })
    const [alert] = await eventually('the saved-search alert', () => deliveredTo(sub).length > 0 && deliveredTo(sub))
    expect(alert).toEqual({ title: 'Saved search: Rentals of my kind', body: `${listing.entry_id}: AVL RENT ${type}, Bandra`, url: `/dashboard/listings?search=${listing.entry_id}`, tag: `saved_search-listing-${listing.id}` })
    expect(deliveredTo(sub)).toHaveLength(1)
  })

  test('my listing ending within 3 days: one alert per listing, with the reminder mail', async () => {
    const { as: owner, sub } = await withDevice('BROKER', mumbai)
    const now = Date.now()
    const id = await insertListing(h.ctx.db, { entryId: `PUSH-END-${now}`, postType: 'AVL', saleOrRent: 'RENT', propertyType: kind(), contactValue: '9876543210', contactName: 'Owner', status: 'ACTIVE', date: '2026-11-01', ownerUserId: owner.user.id, cityId: mumbai, expiresAt: now + 2 * 86_400_000 })
    const pushes = notificationsFeature(h.ctx)
    try {
      expect(await runExpiryReminders({ ...h.ctx, push: pushes.raise }, now)).toEqual({ users: 1, listings: 1 })
      const [alert] = await eventually('the expiry alert', () => deliveredTo(sub).length > 0 && deliveredTo(sub))
      expect(alert).toMatchObject({ title: expect.stringContaining(`PUSH-END-${now} ends`), url: `/dashboard/listings?search=PUSH-END-${now}`, tag: `expiring-listing-${id}` })
      // Claimed once: a second run (another process) reminds of nothing.
      expect(await runExpiryReminders({ ...h.ctx, push: pushes.raise }, now)).toEqual({ users: 0, listings: 0 })
    } finally {
      await pushes.sender.close()
    }
  })

  test('a registration pending in an admin’s scope: the city’s module admin and the master admins, not another city’s admin', async () => {
    const { sub: cityAdmin } = await withDevice('MODULE_ADMIN', mumbai)
    const { sub: master } = await withDevice('MASTER_ADMIN', null)
    const { sub: elsewhere } = await withDevice('MODULE_ADMIN', pune)
    const fd = new FormData()
    for (const [k, v] of Object.entries({ email: `pending-${Date.now()}@example.com`, password: 'Strong@123', full_name: 'Nisha Patel', city_id: String(mumbai) })) fd.set(k, v)
    expect((await h.request('/api/auth/register', { method: 'POST', body: fd })).status).toBe(201)
    const expected = { title: 'Registration to review', body: 'A broker in Mumbai is waiting for approval', url: '/dashboard/approvals' }
    await eventually('both admins alerted', () => deliveredTo(cityAdmin).length === 1 && deliveredTo(master).length === 1)
    expect(deliveredTo(cityAdmin)[0]).toMatchObject(expected)
    expect(deliveredTo(master)[0]).toMatchObject(expected)
    expect(deliveredTo(elsewhere)).toEqual([])
  })
})

describe('sending', () => {
  test('scope at send time: an alert held back by the push service (429) is dropped once its listing is no longer the recipient’s to see', async () => {
    const { as: asha, sub } = await withDevice('BROKER', mumbai)
    const ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    service.answer(sub, { status: 429, retryAfter: 1 })
    const type = kind()
    await post(asha, { post_type: 'REQ', property_type: type })
    const theirs = await post(ravi, { post_type: 'AVL', property_type: type })
    await eventually('the 429', () => service.received.some((r) => r.subscription === sub.id && r.answered === 429))
    // Deleted by its owner while the alert waits for its retry.
    expect((await h.request(`/api/listings/${theirs.id}`, { method: 'DELETE', headers: ravi.browser })).status).toBe(204)
    await eventually('the retry withheld, its row gone', async () => (await h.ctx.db.all('select id from push_outbox where subject = ?', [`listing:${theirs.id}`])).length === 0, 30_000)
    expect(deliveredTo(sub)).toEqual([])
  })

  test('scope at send time: a registration decided before its alert could leave is not told', async () => {
    const { as: admin, sub } = await withDevice('MODULE_ADMIN', mumbai)
    // Only this admin's device is held back; the master admins' (other tests') go as usual.
    service.answer(sub, { status: 429, retryAfter: 1 })
    const email = `decided-${Date.now()}@example.com`
    const fd = new FormData()
    for (const [k, v] of Object.entries({ email, password: 'Strong@123', full_name: 'Quick Decision', city_id: String(mumbai) })) fd.set(k, v)
    expect((await h.request('/api/auth/register', { method: 'POST', body: fd })).status).toBe(201)
    await eventually('the 429', () => service.received.some((r) => r.subscription === sub.id && r.answered === 429))
    const user = (await h.ctx.db.get<{ id: number }>('select id from users where email = ?', [email]))!
    expect((await h.request(`/api/users/${user.id}/approve`, { method: 'POST', headers: admin.browser })).status).toBe(200)
    await eventually('the retry withheld', async () => (await h.ctx.db.all('select id from push_outbox where subject = ?', [`registration:${user.id}`])).length === 0, 30_000)
    expect(deliveredTo(sub)).toEqual([])
  })

  test('a 429 with Retry-After is tried again and delivered once; a 410 removes the device', async () => {
    const { as: asha, sub } = await withDevice('BROKER', mumbai)
    const ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    service.answer(sub, { status: 503, retryAfter: 1 })
    const type = kind()
    await post(asha, { post_type: 'REQ', property_type: type })
    await post(ravi, { post_type: 'AVL', property_type: type })
    await eventually('delivered after the retry', () => deliveredTo(sub).length === 1, 30_000)
    expect(service.received.filter((r) => r.subscription === sub.id).map((r) => r.answered)).toEqual([503, 201])
    service.always(sub, 410)
    await post(ravi, { post_type: 'AVL', property_type: type })
    await eventually('the device removed', async () => (await (await h.request('/api/notifications/devices', { headers: asha.bearer })).json()).devices.length === 0)
    expect(await h.ctx.db.all('select id from push_outbox where subscription_id not in (select id from push_subscriptions)')).toEqual([])
  })

  test('quiet hours: held, then one summary at their end counting only what may still be seen', async () => {
    const { as: asha, sub } = await withDevice('BROKER', mumbai)
    const ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    await putSettings(asha, { time_zone: 'UTC', quiet_hours: aroundNow() })
    const [a, b] = [kind(), kind()]
    await post(asha, { post_type: 'REQ', property_type: a })
    await post(asha, { post_type: 'REQ', property_type: b })
    await post(ravi, { post_type: 'AVL', property_type: a })
    const gone = await post(ravi, { post_type: 'AVL', property_type: b })
    await eventually('both held', async () => (await (await h.request('/api/notifications/settings', { headers: asha.bearer })).json()).held === 2)
    expect(deliveredTo(sub)).toEqual([])
    const held = await h.ctx.db.all<{ release_at: number }>('select release_at from push_held where user_id = ?', [asha.user.id])
    // Released at the window's end: within two hours from now, on the minute.
    expect(Number(held[0]!.release_at)).toBeGreaterThan(Date.now() + 60 * 60_000)
    expect(Number(held[0]!.release_at)).toBeLessThanOrEqual(Date.now() + 120 * 60_000)
    expect(Number(held[0]!.release_at) % 60_000).toBe(0)
    // One of the two listings is deleted before the end: the summary no longer counts it.
    expect((await h.request(`/api/listings/${gone.id}`, { method: 'DELETE', headers: ravi.browser })).status).toBe(204)
    const pushes = notificationsFeature(h.ctx)
    try {
      expect(await pushes.alerts.release(Date.now())).toBe(0)
      expect(await pushes.alerts.release(Number(held[0]!.release_at))).toBe(1)
      await eventually('the summary', () => deliveredTo(sub).length === 1)
      expect(deliveredTo(sub)[0]).toEqual({ title: 'During your quiet hours', body: '1 new match', url: '/dashboard/matches', tag: 'summary' })
      // Taken once: released again, nothing more.
      expect(await pushes.alerts.release(Number(held[0]!.release_at))).toBe(0)
    } finally {
      await pushes.sender.close()
    }
  })
})

describe('two instances on one database (two PostgreSQL pools; two SQLite connections)', () => {
  test('alerts raised in both and senders in both: each delivered once; held alerts released by both at once: one summary each', async () => {
    const source = await openDataSource(h.config, { migrate: false })
    const a = notificationsFeature(h.ctx)
    const b = notificationsFeature(createContext(source, h.config))
    const onPostgres = h.ctx.db.dialect === 'postgres'
    try {
      const author = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
      const listing = await post(author, { post_type: 'AVL', property_type: kind() })
      const users = await Promise.all(Array.from({ length: 24 }, () => withDevice('BROKER', mumbai)))
      const alert = (u: (typeof users)[number]) => ({ userId: u.as.user.id, title: 'Two instances', body: 'once each', url: '/dashboard/matches', subject: { listing: listing.id } })
      // On PostgreSQL: half raised through each instance, in transactions of a few alerts at the same time, both senders
      // awake. Two SQLite connections in one test process cannot hold transactions at once (one waits for the other's
      // lock in the same thread: real WORKERS are processes), so there the alerts are raised through one, and both
      // senders then claim from the file at the same time.
      const chunks = [0, 1, 2, 3, 4, 5]
      if (onPostgres) {
        a.sender.resume()
        b.sender.resume()
        await Promise.all(
          chunks.map((chunk) => {
            const [db, raise] = chunk % 2 ? [h.ctx.db, a.raise] : [source.db, b.raise]
            return db.tx((tx) => raise(tx, 'match', users.slice(chunk * 4, chunk * 4 + 4).map(alert)))
          }),
        )
      } else {
        for (const chunk of chunks) await h.ctx.db.tx((tx) => a.raise(tx, 'match', users.slice(chunk * 4, chunk * 4 + 4).map(alert)))
        b.sender.resume()
      }
      await eventually('every device alerted', () => users.every((u) => deliveredTo(u.sub).length >= 1), 20_000)
      await Promise.all([a.sender.idle(), b.sender.idle()])
      expect(users.map((u) => deliveredTo(u.sub).length)).toEqual(users.map(() => 1))

      // Quiet hours for the first ten, then both instances release at the window's end at the same moment.
      const quiet = users.slice(0, 10)
      for (const u of quiet) await putSettings(u.as, { time_zone: 'UTC', quiet_hours: aroundNow() })
      await h.ctx.db.tx((tx) => a.raise(tx, 'match', quiet.map(alert)))
      const releaseAt = Number((await h.ctx.db.get<{ at: number }>('select max(release_at) as at from push_held'))!.at)
      expect(releaseAt).toBeGreaterThan(Date.now())
      const sequentially = async () => {
        const first = await a.alerts.release(releaseAt)
        await a.sender.idle()
        return [first, await b.alerts.release(releaseAt)]
      }
      const [fromA, fromB] = onPostgres ? await Promise.all([a.alerts.release(releaseAt), b.alerts.release(releaseAt)]) : await sequentially()
      expect(fromA! + fromB!).toBe(10)
      await eventually('one summary each', () => quiet.every((u) => deliveredTo(u.sub).length === 2), 20_000)
      await Promise.all([a.sender.idle(), b.sender.idle()])
      expect(quiet.map((u) => deliveredTo(u.sub)[1]!.title)).toEqual(quiet.map(() => 'During your quiet hours'))
      expect(users.slice(10).map((u) => deliveredTo(u.sub).length)).toEqual(users.slice(10).map(() => 1))
    } finally {
      await a.sender.close()
      await b.sender.close()
      await source.close()
    }
  }, 60_000)
})
