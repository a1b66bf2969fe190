// Co-broking's push alerts (issue 35 on issue 33's): each request, answer and deal step reaches the other broker's
// devices (and only theirs), through the push-service stand-in that verifies and decrypts every message; the
// "Co-broking" switch is honoured; a push never carries a name, a message's text or a revealed value; the morning of a
// site visit a broker with co-broking alerts on a device gets a push, the other a mail. And the figure the issue asks:
// a request → the other broker's event on their stream, and → the push at the stand-in (logged, not asserted).
// In process, against the binary (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { dealPush } from '../../src/modules/deals/push'
import { MORNING_HOUR, runDealTimers } from '../../src/modules/deals/reminders'
import { notificationsFeature } from '../../src/modules/notifications/plugin'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventStreamReader } from '../support/events'
import { eventually } from '../support/eventually'
import { seedPlace } from '../support/fixtures'
import { startPushService, type BrowserSubscription, type PushService, type Received } from '../support/push-service'

const h = await createTestApp({ PUSH_ALLOW_HOSTS: '127.0.0.1' })
let service: PushService
let mumbai: number
let owner: SignedIn
let requester: SignedIn
let ownerDevice: BrowserSubscription
let requesterDevice: BrowserSubscription

const SECRET = { owner_name: 'Zqdealowner', owner_phone: '+91 70000 31337', address: 'Zqdealaddress Tower C', bottom_price: 27182818, note: 'Zqdealnote' }
const SECRET_MARKERS = ['Zqdealowner', '70000 31337', '7000031337', 'Zqdealaddress', '27182818', 'Zqdealnote']
const MESSAGE = 'Zqdealmessage my client visits Sunday'

type Payload = { title: string; body: string; url: string; tag?: string }
const payloadOf = (r: Received) => JSON.parse(r.payload) as Payload
const deliveredTo = (sub: BrowserSubscription) => service.delivered(sub).map(payloadOf)

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai'])
  mumbai = place.cities[0]!.id
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Zqownername Broker' })
  requester = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Zqrequestername Broker' })
  service = await startPushService({ vapidPublicKey: async () => (await (await h.request('/api/notifications/key', { headers: owner.bearer })).json()).public_key })
  ownerDevice = await withDevice(owner)
  requesterDevice = await withDevice(requester)
})
afterAll(async () => {
  await service.stop()
  await h.close()
})

/** One device, no quiet hours (alerts leave at once, whatever the hour of the run). */
async function withDevice(as: SignedIn): Promise<BrowserSubscription> {
  const sub = await service.subscribe()
  const res = await h.request('/api/notifications/devices', withJson(as.browser, { endpoint: sub.endpoint, keys: sub.keys, expirationTime: null }))
  expect(res.status, await res.clone().text()).toBe(201)
  await settings(as, { quiet_hours: null })
  return sub
}
const settings = async (as: SignedIn, body: unknown) => expect((await h.request('/api/notifications/settings', withJson(as.browser, body, 'PUT'))).status).toBe(200)

let kinds = 0
async function post(as: SignedIn, body: Record<string, unknown>): Promise<{ id: number; entry_id: string }> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', contact_value: '9876543210', property_type: `Push deal kind ${++kinds}`, ...body }))
  expect(res.status, await res.clone().text()).toBe(201)
  return res.json()
}
const call = async (as: SignedIn, path: string, body?: unknown) => {
  const res = await h.request(path, body === undefined ? { method: 'POST', headers: as.browser } : withJson(as.browser, body))
  expect(res.status, await res.clone().text()).toBeLessThan(300)
  return res.json()
}

/** Waits for `sub` to have received `n` alerts in all, and answers the newest. */
async function nth(sub: BrowserSubscription, n: number, what: string): Promise<Payload> {
  const got = await eventually(what, () => deliveredTo(sub).length >= n && deliveredTo(sub), 30_000)
  return got[n - 1]!
}

describe('each step reaches the other broker as a push', () => {
  test('request, counter, accept, message, stage, reveal, confirmations: to the other broker only, in words without names, texts or private values', async () => {
    const avl = await post(owner, { post_type: 'AVL', private: SECRET })
    const req = await post(requester, { post_type: 'REQ' })
    const [o0, r0] = [deliveredTo(ownerDevice).length, deliveredTo(requesterDevice).length]

    const sent = await call(requester, `/api/listings/${avl.id}/cobroke-requests`, { requester_listing_id: req.id, message: MESSAGE })
    expect(await nth(ownerDevice, o0 + 1, 'the request at the owner')).toEqual({ title: 'Co-broke request', body: `A broker has a client for your ${avl.entry_id}`, url: '/dashboard/deals', tag: `deal-cobroke_request-${sent.id}` })

    await call(owner, `/api/cobroke-requests/${sent.id}/counter`, { requester_percent: 40 })
    expect(await nth(requesterDevice, r0 + 1, 'the counter at the requester')).toMatchObject({ title: 'Counter-offer', body: `Your co-broke request for ${avl.entry_id} was countered with another split`, url: '/dashboard/deals' })

    const deal = await call(requester, `/api/cobroke-requests/${sent.id}/accept`)
    const opened = await nth(ownerDevice, o0 + 2, 'the accepted counter at the owner')
    expect(opened).toEqual({ title: 'Counter-offer accepted', body: `Your counter-offer for ${avl.entry_id} was accepted: a deal is open`, url: `/dashboard/deals/${deal.id}`, tag: `deal-deal-${deal.id}` })

    await call(requester, `/api/deals/${deal.id}/messages`, { body: MESSAGE })
    expect(await nth(ownerDevice, o0 + 3, 'the message at the owner')).toMatchObject({ title: 'New message in a deal', body: `A new message in your deal for ${avl.entry_id}`, url: `/dashboard/deals/${deal.id}` })

    await call(owner, `/api/deals/${deal.id}/stage`, { stage: 'NEGOTIATING' })
    expect(await nth(requesterDevice, r0 + 2, 'the stage at the requester')).toMatchObject({ title: 'Deal moved', body: `Your deal for ${avl.entry_id} moved to Negotiating` })

    await call(owner, `/api/deals/${deal.id}/reveal`, { fields: ['owner_name', 'owner_phone', 'address'] })
    expect(await nth(requesterDevice, r0 + 3, 'the reveal at the requester')).toMatchObject({ title: 'Details revealed', body: `The other broker revealed details in your deal for ${avl.entry_id}` })

    await call(requester, `/api/deals/${deal.id}/close`, { outcome: 'WON' })
    expect(await nth(ownerDevice, o0 + 4, 'the requester’s confirmation at the owner')).toMatchObject({ title: 'Deal outcome confirmed', body: `The other broker confirmed won for your deal for ${avl.entry_id}: confirm yours` })
    await call(owner, `/api/deals/${deal.id}/close`, { outcome: 'WON' })
    expect(await nth(requesterDevice, r0 + 4, 'the close at the requester')).toMatchObject({ title: 'Deal closed', body: `Your deal for ${avl.entry_id} is closed won` })

    // Nothing more came to either (each step went to the other broker alone), and no payload names anyone or quotes
    // the message or a private value.
    await h.mailIdle()
    expect(deliveredTo(ownerDevice)).toHaveLength(o0 + 4)
    expect(deliveredTo(requesterDevice)).toHaveLength(r0 + 4)
    const all = [...deliveredTo(ownerDevice), ...deliveredTo(requesterDevice)].map((p) => JSON.stringify(p)).join('\n')
    for (const m of [...SECRET_MARKERS, 'Zqdealmessage', 'Zqownername', 'Zqrequestername']) expect(all).not.toContain(m)
  }, 120_000)

  test('declined: the requester hears of it; a broker who turned co-broking alerts off hears nothing', async () => {
    const avl = await post(owner, { post_type: 'AVL' })
    const [o0, r0] = [deliveredTo(ownerDevice).length, deliveredTo(requesterDevice).length]
    const sent = await call(requester, `/api/listings/${avl.id}/cobroke-requests`, {})
    await nth(ownerDevice, o0 + 1, 'the request at the owner')
    await call(owner, `/api/cobroke-requests/${sent.id}/decline`, { reason: 'Already promised to another broker' })
    const declined = await nth(requesterDevice, r0 + 1, 'the decline at the requester')
    expect(declined).toMatchObject({ title: 'Co-broke declined', body: `Your co-broke request for ${avl.entry_id} was declined` })
    expect(JSON.stringify(declined)).not.toContain('Already promised')

    const quiet = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai })
    const quietDevice = await withDevice(quiet)
    await settings(quiet, { kinds: { deal: false } })
    const theirs = await post(quiet, { post_type: 'AVL' })
    const asked = await call(owner, `/api/listings/${theirs.id}/cobroke-requests`, {})
    // Then a step the owner hears of: raised after the request, so once it has arrived the request's would have too.
    await call(quiet, `/api/cobroke-requests/${asked.id}/decline`, { reason: 'No' })
    await nth(ownerDevice, o0 + 2, 'the decline at the owner')
    expect(deliveredTo(quietDevice)).toEqual([])
    expect(await h.ctx.db.all("select id from push_held where user_id = ? and kind = 'deal'", [quiet.user.id])).toEqual([])
  }, 60_000)
})

describe('the site visit reminder', () => {
  test('a push to the broker who takes co-broking alerts, a mail to the one who does not; once', async () => {
    const tz = h.ctx.config.timeZone
    const day = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
    const hour = (at: number) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(at))
    let visit = Date.now() + 2 * 86_400_000
    while (hour(visit) !== 12) visit += 3_600_000
    visit -= visit % 60_000
    const morning = visit - 3 * 3_600_000 // 09:00
    expect([day(morning), hour(morning) >= MORNING_HOUR]).toEqual([day(visit), true])

    // The requester turns co-broking alerts off: the reminder is a mail for them.
    const avl = await post(owner, { post_type: 'AVL' })
    const o0 = deliveredTo(ownerDevice).length
    const sent = await call(requester, `/api/listings/${avl.id}/cobroke-requests`, {})
    await nth(ownerDevice, o0 + 1, 'the request at the owner')
    const deal = await call(owner, `/api/cobroke-requests/${sent.id}/accept`)
    await settings(requester, { kinds: { deal: false } })
    await call(requester, `/api/deals/${deal.id}/stage`, { stage: 'SITE_VISIT', visit_at: new Date(visit).toISOString() })
    await nth(ownerDevice, o0 + 2, 'the stage at the owner')
    const mails = () => h.ctx.db.all<{ to_address: string }>("select to_address from mail_outbox where subject like 'Site visit today%'")
    const before = (await mails()).map((m) => m.to_address)

    const pushes = notificationsFeature(h.ctx)
    try {
      expect(await runDealTimers({ ...h.ctx, push: dealPush(pushes.raise) }, morning)).toBe(1)
      expect(await runDealTimers({ ...h.ctx, push: dealPush(pushes.raise) }, morning + 600_000)).toBe(0)
      const reminder = await nth(ownerDevice, o0 + 3, 'the visit reminder at the owner')
      expect(reminder).toMatchObject({ title: 'Site visit today', url: `/dashboard/deals/${deal.id}`, tag: `deal-deal-${deal.id}` })
      expect(reminder.body).toStartWith(`The site visit of your deal for ${avl.entry_id} is today, `)
      // One mail, to the requester; none to the owner, whose phone had the push.
      expect((await mails()).slice(before.length).map((m) => m.to_address)).toEqual([requester.user.email])
    } finally {
      await pushes.sender.close()
      await settings(requester, { kinds: { deal: true } })
    }
  }, 60_000)
})

describe('figures', () => {
  test('a co-broke request → the other broker’s event, and → the push at the stand-in (logged)', async () => {
    const N = 30
    const avls = []
    for (let i = 0; i < N; i++) avls.push(await post(owner, { post_type: 'AVL' }))
    const abort = new AbortController()
    const res = await h.request('/api/events', { headers: owner.bearer, signal: abort.signal })
    expect(res.status).toBe(200)
    const stream = eventStreamReader(res)
    const toEvent: number[] = []
    const toPush: number[] = []
    try {
      await stream.expect('matches') // connected
      for (const avl of avls) {
        const before = deliveredTo(ownerDevice).length
        const t0 = performance.now()
        const sent = await call(requester, `/api/listings/${avl.id}/cobroke-requests`, {})
        for (;;) {
          const e = (await stream.expect('deal')) as { kind: string; id: number }
          if (e.kind === 'request' && e.id === sent.id) break
        }
        toEvent.push(performance.now() - t0)
        await nth(ownerDevice, before + 1, 'the request push')
        toPush.push(performance.now() - t0)
      }
    } finally {
      stream.cancel()
      abort.abort()
    }
    const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * q) - 1)]!.toFixed(1)
    const mode = `${process.env.BROKERNET_BINARY ? 'binary' : 'in process'}, ${process.env.BROKERNET_TEST_DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite'}`
    console.info(`[figure] co-broke request → other broker's event (${mode}): p50 ${at(toEvent, 0.5)} ms, p99 ${at(toEvent, 0.99)} ms, max ${at(toEvent, 1)} ms over ${N}`)
    console.info(`[figure] co-broke request → push at the stand-in (${mode}): p50 ${at(toPush, 0.5)} ms, p99 ${at(toPush, 0.99)} ms, max ${at(toPush, 1)} ms over ${N}`)
    expect(toEvent).toHaveLength(N)
  }, 180_000)
})
