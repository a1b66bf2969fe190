// The user's one event stream (GET /api/events, docs/decisions/009-live-events.md): `matches` for everyone, told of
// their own inbox only; `pending` for admins, as the approvals stream sends it.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventStreamReader } from '../support/events'
import { createUser, seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let mumbai: number
let asha: SignedIn // broker A: her requirements get matched
let ravi: SignedIn // broker B: posts the availabilities
let kiran: SignedIn // broker C: unrelated
let mumbaiAdmin: SignedIn

let kinds = 0
const kind = () => `Events Kind ${++kinds}`

async function post(as: SignedIn, body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', contact_value: '9876543210', ...body }))
  expect(res.status).toBe(201)
  return res.json()
}
const patch = async (as: SignedIn, id: number, body: unknown) => expect((await h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))).status).toBe(200)
const act = async (as: SignedIn, id: number, what: 'seen' | 'dismiss') => expect((await h.request(`/api/matches/${id}/${what}`, { method: 'POST', headers: as.browser })).status).toBe(204)
const inboxIds = async (as: SignedIn) => ((await (await h.request('/api/matches?unseen=1', { headers: as.bearer })).json()) as { matches: { id: number }[] }).matches.map((m) => m.id)

const open: Array<{ abort: AbortController; cancel: () => Promise<unknown> }> = []
async function connect(as: SignedIn) {
  const abort = new AbortController()
  const res = await h.request('/api/events', { headers: as.bearer, signal: abort.signal })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toStartWith('text/event-stream')
  const stream = eventStreamReader(res)
  open.push({ abort, cancel: stream.cancel })
  return stream
}
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.abort.abort()
    await s.cancel()
  }
})

beforeAll(async () => {
  mumbai = (await seedPlace(h.ctx.db, ['Mumbai'])).cities[0]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  kiran = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Kiran Rao' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
})

describe('GET /api/events', () => {
  test('needs a session', async () => {
    expect((await h.request('/api/events')).status).toBe(401)
  })

  test("a match announced to A arrives on A's stream with its inbox id, not on C's; seen and dismiss bring the count down", async () => {
    const type = kind()
    const wanted = await post(asha, { post_type: 'REQ', property_type: type, budget: 100_000 })
    await post(kiran, { post_type: 'REQ', property_type: `${type} Villa`, budget: 100_000 })
    const a = await connect(asha)
    const b = await connect(ravi)
    const c = await connect(kiran)
    // On connect: the count, nothing new.
    for (const s of [a, b, c]) expect(await s.expect('matches')).toEqual({ unseen: 0, new: [] })

    const t0 = performance.now()
    const offered = await post(ravi, { post_type: 'AVL', property_type: type, budget: 90_000 })
    const first = await a.expect('matches')
    const latency = performance.now() - t0
    const [entry] = await inboxIds(asha)
    expect(first).toEqual({ unseen: 1, new: [entry] })
    // How fast is a benchmark's figure, logged; asserted, it failed on a busy machine (issue 37).
    console.log(`[events] write → event on the stream (${h.inProcess ? 'in process' : 'binary'}): ${latency.toFixed(0)} ms`)
    // C has nothing to do with it; B wrote it and sees it as seen, so B's count does not move.
    expect(await c.next('matches', 600)).toBeNull()
    expect(await b.next('matches', 0)).toBeNull()

    const second = await post(ravi, { post_type: 'AVL', property_type: type, budget: 95_000 })
    const next = await a.expect('matches')
    expect(next.unseen).toBe(2)
    expect(next.new).toHaveLength(1)
    expect(next.new[0]).not.toBe(entry)

    await act(asha, entry!, 'seen')
    expect(await a.expect('matches')).toEqual({ unseen: 1, new: [] })
    await act(asha, next.new[0], 'dismiss')
    expect(await a.expect('matches')).toEqual({ unseen: 0, new: [] })
    expect(await c.next('matches', 300)).toBeNull()
    expect([offered.id, second.id, wanted.id]).toHaveLength(3)
  })

  test('a listing put on hold takes its unseen match out of the count, and back when active again', async () => {
    const type = kind()
    await post(asha, { post_type: 'REQ', property_type: type, budget: 50_000 })
    const a = await connect(asha)
    expect(await a.expect('matches')).toEqual({ unseen: 0, new: [] })
    const offered = await post(ravi, { post_type: 'AVL', property_type: type, budget: 50_000 })
    expect((await a.expect('matches')).unseen).toBe(1)
    await patch(ravi, offered.id, { status: 'ON_HOLD' })
    expect(await a.expect('matches')).toEqual({ unseen: 0, new: [] })
    await patch(ravi, offered.id, { status: 'ACTIVE' })
    expect(await a.expect('matches')).toEqual({ unseen: 1, new: [] })
    // An edit that leaves the count as it was sends nothing.
    await patch(ravi, offered.id, { details: 'Freshly painted' })
    expect(await a.next('matches', 500)).toBeNull()
  })

  test("an admin's stream carries the pending count of their scope too; a broker's does not", async () => {
    const admin = await connect(mumbaiAdmin)
    const broker = await connect(kiran)
    expect(await admin.expect('matches')).toEqual({ unseen: 0, new: [] })
    const before = (await admin.expect('pending')).total as number
    await broker.expect('matches')
    await createUser(h.ctx.db, { email: `pending-${Date.now()}@example.com`, cityId: mumbai, registrationStatus: 'PENDING', isActive: false })
    expect((await admin.expect('pending')).total).toBe(before + 1)
    expect(await broker.next('pending', 300)).toBeNull()
  })
})
