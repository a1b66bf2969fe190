// /metrics for push alerts (issue 33): messages queued, what each attempt came to (sent, retried, failed, gone),
// the send and delivery times, and the outbox's backlog. The sender runs in a thread of its own (the server's counters
// are fed from it); the messages go to the push-service stand-in on loopback, which answers each as the test asks. In
// process, against the binary (BROKERNET_BINARY) and on PostgreSQL (BROKERNET_TEST_DATABASE=postgres).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestApp, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { seedPlace } from '../support/fixtures'
import { startPushService, type BrowserSubscription, type PushService } from '../support/push-service'

const TOKEN = 'push-metrics-token-Hw71kQpZ'
let h: TestApp
let service: PushService
let cityId: number

beforeAll(async () => {
  h = await createTestApp({ PUSH_ALLOW_HOSTS: '127.0.0.1', METRICS_TOKEN: TOKEN })
  cityId = (await seedPlace(h.ctx.db, ['Surat'])).cities[0]!.id
  const reader = await signIn(h.ctx.db, 'BROKER', { cityId })
  service = await startPushService({ vapidPublicKey: async () => (await (await h.request('/api/notifications/key', { headers: reader.bearer })).json()).public_key })
})
afterAll(async () => {
  await service?.stop()
  await h?.close()
})

/** The samples of a scrape whose name starts with brokernet_push_, keyed `name{labels}` as written. */
async function pushSamples(): Promise<Map<string, number>> {
  const res = await h.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  const samples = new Map<string, number>()
  for (const m of (await res.text()).matchAll(/^(brokernet_push_\w+(?:\{[^}]*\})?) (\S+)$/gm)) samples.set(m[1]!, Number(m[2]))
  return samples
}

async function withDevice(): Promise<{ as: SignedIn; sub: BrowserSubscription }> {
  const as = await signIn(h.ctx.db, 'BROKER', { cityId })
  const sub = await service.subscribe()
  expect((await h.request('/api/notifications/devices', withJson(as.browser, { endpoint: sub.endpoint, keys: sub.keys }))).status).toBe(201)
  expect((await h.request('/api/notifications/settings', withJson(as.browser, { quiet_hours: null }, 'PUT'))).status).toBe(200)
  return { as, sub }
}

const post = async (as: SignedIn, body: Record<string, unknown>) =>
  expect((await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Metrics Flat', ...body }))).status).toBe(201)

test('queued, sent, retried, failed and gone are counted, with send and delivery times; the outbox gauges show the failure kept', async () => {
  const before = await pushSamples()
  expect(before.get('brokernet_push_outbox_pending')).toBe(0)
  expect(before.get('brokernet_push_outbox_failed')).toBe(0)

  // Four owners of a REQ, each with a device the stand-in answers differently; one AVL matches all four.
  const [ok, gone, refused, busy] = [await withDevice(), await withDevice(), await withDevice(), await withDevice()]
  service.answer(gone.sub, 410)
  service.answer(refused.sub, 400)
  service.answer(busy.sub, { status: 429, retryAfter: 1 })
  for (const owner of [ok, gone, refused, busy]) await post(owner.as, { post_type: 'REQ', budget: 50_000 })
  await post(await signIn(h.ctx.db, 'BROKER', { cityId }), { post_type: 'AVL', budget: 45_000 })

  const want = {
    'brokernet_push_messages_total{result="queued"}': 4,
    'brokernet_push_messages_total{result="sent"}': 2,
    'brokernet_push_messages_total{result="retried"}': 1,
    'brokernet_push_messages_total{result="failed"}': 1,
    'brokernet_push_messages_total{result="gone"}': 1,
    // Five requests answered (the 429 and its retry both), two of them accepted.
    brokernet_push_send_duration_seconds_count: 5,
    brokernet_push_delivery_delay_seconds_count: 2,
    brokernet_push_outbox_pending: 0,
    brokernet_push_outbox_failed: 1,
  }
  const seen = await eventually(
    'the counts of every outcome',
    async () => {
      const s = await pushSamples()
      const got = Object.fromEntries(Object.keys(want).map((k) => [k, s.get(k) ?? null]))
      return JSON.stringify(got) === JSON.stringify(want) ? s : undefined
    },
    30_000,
    100,
  )
  expect(service.delivered(ok.sub)).toHaveLength(1)
  expect(service.delivered(busy.sub)).toHaveLength(1)
  // The delivery of the retried one waited its Retry-After: at least a second from queueing to the push service.
  expect(seen.get('brokernet_push_delivery_delay_seconds_bucket{le="0.5"}')).toBeLessThanOrEqual(1)
  expect(seen.get('brokernet_push_delivery_delay_seconds_sum')).toBeGreaterThanOrEqual(1)
  expect(seen.get('brokernet_push_send_duration_seconds_sum')).toBeGreaterThan(0)
}, 60_000)
