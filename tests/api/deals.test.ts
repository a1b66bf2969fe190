// Co-broking (issue 35): a request on a listing ("I have a client for this"), its answers (accept, counter, decline,
// expiry after 72 hours), the deal it opens (thread, stages, a staged reveal, a close both confirm, a dispute shown to
// the city's admins, the listings closed or put on hold), who may see and act (another broker's is a 404), the audit
// trail, and each step on the other broker's event stream (with the time it takes, p99).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventStreamReader } from '../support/events'
import { seedPlace } from '../support/fixtures'
import { sendRequest } from '../../src/modules/deals/service'
import { dealPush } from '../../src/modules/deals/push'
import { MORNING_HOUR, runDealTimers } from '../../src/modules/deals/reminders'

/** Requests made with a past clock, straight through the service: no push (these brokers have no device). */
const noPush = dealPush(undefined)
const h = await createTestApp()
afterAll(() => h.close())

let owner: SignedIn // Mumbai broker with the availability
let requester: SignedIn // Mumbai broker with a client (a requirement)
let other: SignedIn // another Mumbai broker
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let master: SignedIn

type Req = { id: number; status: string; awaiting: string | null; split: { kind: string; requester_percent: number | null; owner_percent: number | null; flat_fee: number | null }; deal_id: number | null; decline_reason: string | null; expires_at: string; created_at: string }
type Deal = { id: number; stage: string; split: Req['split']; visit_at: string | null; owner_outcome: string | null; requester_outcome: string | null; lost_reason: string | null; messages: { kind: string; body: string; author_id: number | null }[] }

let kinds = 0
async function post(as: SignedIn, body: Record<string, unknown>): Promise<{ id: number; entry_id: string; status: string }> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', contact_value: '9876543210', property_type: `Deal kind ${++kinds}`, ...body }))
  expect(res.status, await res.clone().text()).toBe(201)
  return res.json()
}
const call = (as: SignedIn | null, path: string, method = 'GET', body?: unknown) =>
  h.request(path, body === undefined ? { method, headers: as?.browser ?? {} } : withJson(as!.browser, body, method))
const ask = async (as: SignedIn, listingId: number, body: Record<string, unknown> = {}) => call(as, `/api/listings/${listingId}/cobroke-requests`, 'POST', body)

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Owner Broker' })
  requester = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Requester Broker' })
  other = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Other Broker' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
})

describe('requests', () => {
  test('on another’s active listing, naming one’s own listing of the other type; 50/50 by default; one open request per listing', async () => {
    const avl = await post(owner, { post_type: 'AVL' })
    const req = await post(requester, { post_type: 'REQ' })
    const alsoAvl = await post(requester, { post_type: 'AVL' })
    expect((await ask(owner, avl.id)).status).toBe(409) // their own
    expect((await ask(requester, avl.id, { requester_listing_id: alsoAvl.id })).status).toBe(422) // an AVL for an AVL
    expect((await ask(requester, avl.id, { requester_listing_id: avl.id })).status).toBe(422) // not theirs
    expect((await ask(requester, avl.id, { requester_percent: 101 })).status).toBe(422)
    expect((await ask(requester, avl.id, { requester_percent: 40, flat_fee: 1000 })).status).toBe(422)
    const hidden = await post(owner, { post_type: 'AVL', visibility: 'ONLY_ME' })
    expect((await ask(requester, hidden.id)).status).toBe(404)
    expect((await ask(requester, 999_999)).status).toBe(404)

    const res = await ask(requester, avl.id, { requester_listing_id: req.id, message: 'My client is ready to visit' })
    expect(res.status).toBe(201)
    const sent = (await res.json()) as Req
    expect(sent).toMatchObject({ status: 'PENDING', awaiting: 'OWNER', split: { kind: 'PERCENT', requester_percent: 50, owner_percent: 50, flat_fee: null }, deal_id: null })
    expect(Date.parse(sent.expires_at) - Date.parse(sent.created_at)).toBe(72 * 3_600_000)
    expect((await ask(requester, avl.id)).status).toBe(409)
    // Both parties list it; nobody else finds it.
    for (const as of [owner, requester]) expect(((await (await call(as, '/api/cobroke-requests')).json()) as Req[]).map((r) => r.id)).toContain(sent.id)
    expect(((await (await call(other, '/api/cobroke-requests')).json()) as Req[]).map((r) => r.id)).not.toContain(sent.id)
    expect((await call(other, `/api/cobroke-requests/${sent.id}`)).status).toBe(404)
    expect((await call(puneAdmin, `/api/cobroke-requests/${sent.id}`)).status).toBe(404)
    expect((await call(mumbaiAdmin, `/api/cobroke-requests/${sent.id}`)).status).toBe(200)
    expect((await call(null, `/api/cobroke-requests/${sent.id}`)).status).toBe(401)
  })

  test('counter, then the requester accepts: the counter’s split is locked in the deal; only whose turn it is may answer', async () => {
    const avl = await post(owner, { post_type: 'AVL' })
    const sent = (await (await ask(requester, avl.id, { requester_percent: 60 })).json()) as Req
    expect((await call(requester, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).status).toBe(409) // the owner answers
    expect((await call(other, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).status).toBe(404)
    expect((await call(mumbaiAdmin, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).status).toBe(403)
    const countered = (await (await call(owner, `/api/cobroke-requests/${sent.id}/counter`, 'POST', { requester_percent: 40 })).json()) as Req
    expect(countered).toMatchObject({ status: 'COUNTERED', awaiting: 'REQUESTER', split: { requester_percent: 40, owner_percent: 60 } })
    expect((await call(owner, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).status).toBe(409) // the requester answers now
    const res = await call(requester, `/api/cobroke-requests/${sent.id}/accept`, 'POST')
    expect(res.status).toBe(200)
    const deal = (await res.json()) as Deal
    expect(deal).toMatchObject({ stage: 'INTERESTED', split: { kind: 'PERCENT', requester_percent: 40, owner_percent: 60 } })
    expect(deal.messages.at(-1)!.body).toContain('accepted the co-broke: split 40/60, locked')
    expect((await call(owner, `/api/cobroke-requests/${sent.id}/counter`, 'POST', { requester_percent: 30 })).status).toBe(409)
    const audit = await h.ctx.db.all<{ action: string }>("select action from audit_events where entity_type = 'cobroke_request' and entity_id = ? order by id", [String(sent.id)])
    expect(audit.map((a) => a.action)).toEqual(['cobroke.request', 'cobroke.counter', 'cobroke.accept'])
  })

  test('a flat fee; a decline says why; unanswered for 72 hours, a request expires', async () => {
    const avl = await post(owner, { post_type: 'AVL' })
    const sent = (await (await ask(requester, avl.id, { flat_fee: 25000 })).json()) as Req
    expect(sent.split).toEqual({ kind: 'FLAT', requester_percent: null, owner_percent: null, flat_fee: 25000 })
    expect((await call(owner, `/api/cobroke-requests/${sent.id}/decline`, 'POST', { reason: '' })).status).toBe(422)
    const declined = (await (await call(owner, `/api/cobroke-requests/${sent.id}/decline`, 'POST', { reason: 'Owner wants no co-broking' })).json()) as Req
    expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'Owner wants no co-broking', awaiting: null })

    const old = await post(owner, { post_type: 'AVL' })
    const party = { id: requester.user.id, role: 'BROKER' as const, cityId: requester.user.cityId, fullName: requester.user.fullName }
    const stale = await sendRequest(h.ctx, noPush, party, old.id, {}, Date.now() - 73 * 3_600_000)
    expect((await (await call(requester, `/api/cobroke-requests/${stale.id}`)).json()).status).toBe('PENDING')
    const listed = ((await (await call(owner, '/api/cobroke-requests')).json()) as Req[]).find((r) => r.id === stale.id)!
    expect(listed.status).toBe('EXPIRED')
    expect((await call(owner, `/api/cobroke-requests/${stale.id}/accept`, 'POST')).status).toBe(409)
    // Expired, it no longer blocks a new one.
    expect((await ask(requester, old.id)).status).toBe(201)
  })
})

describe('deals', () => {
  async function openDeal(ownerListing: Record<string, unknown> = {}, requesterListing: Record<string, unknown> | null = { post_type: 'REQ' }) {
    const avl = await post(owner, { post_type: 'AVL', ...ownerListing })
    const req = requesterListing ? await post(requester, requesterListing) : null
    const sent = (await (await ask(requester, avl.id, req ? { requester_listing_id: req.id } : {})).json()) as Req
    const deal = (await (await call(owner, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).json()) as Deal
    return { avl, req, deal }
  }

  test('the thread, stages, a staged reveal; who sees the deal (its brokers, its city’s admins) and who acts in it (its brokers)', async () => {
    const { avl, deal } = await openDeal()
    expect((await call(owner, `/api/listings/${avl.id}/private`, 'PUT', { owner_phone: '+91 90000 11111', owner_name: 'Mr Shah' })).status).toBe(200)
    const path = `/api/deals/${deal.id}`
    expect((await call(requester, `${path}/messages`, 'POST', { body: 'Can we visit Saturday?' })).status).toBe(200)
    expect((await call(owner, `${path}/stage`, 'POST', { stage: 'SITE_VISIT' })).status).toBe(422)
    expect((await call(owner, `${path}/stage`, 'POST', { stage: 'SITE_VISIT', visit_at: new Date(Date.now() - 60_000).toISOString() })).status).toBe(422)
    const visitAt = new Date(Date.now() + 2 * 86_400_000).toISOString()
    const visiting = (await (await call(owner, `${path}/stage`, 'POST', { stage: 'SITE_VISIT', visit_at: visitAt })).json()) as Deal
    expect(visiting).toMatchObject({ stage: 'SITE_VISIT', visit_at: visitAt })
    // Before the reveal the requester's view holds no private value; after it, the phone the owner chose to show.
    expect(JSON.stringify(await (await call(requester, path)).json())).not.toContain('90000 11111')
    const revealed = (await (await call(owner, `${path}/reveal`, 'POST', { fields: ['owner_phone'] })).json()) as Deal
    expect(revealed.messages.at(-1)).toMatchObject({ kind: 'REVEAL', author_id: owner.user.id })
    const seen = JSON.stringify(await (await call(requester, path)).json())
    expect(seen).toContain('+91 90000 11111')
    expect(seen).not.toContain('Mr Shah')
    expect((await call(other, `${path}/reveal`, 'POST', { fields: ['owner_phone'] })).status).toBe(404)
    const trail = JSON.stringify(await h.ctx.db.all("select after from audit_events where entity_type = 'deal' and entity_id = ?", [String(deal.id)]))
    expect(trail).not.toContain('90000')
    expect((await call(owner, `${path}/stage`, 'POST', { stage: 'NEGOTIATING' })).status).toBe(200)

    for (const as of [owner, requester, mumbaiAdmin, master]) expect((await call(as, path)).status).toBe(200)
    for (const as of [other, puneAdmin]) expect((await call(as, path)).status).toBe(404)
    expect((await call(other, `${path}/messages`, 'POST', { body: 'hello' })).status).toBe(404)
    expect((await call(mumbaiAdmin, `${path}/messages`, 'POST', { body: 'hello' })).status).toBe(403)
    expect(((await (await call(other, '/api/deals')).json()) as Deal[]).map((d) => d.id)).not.toContain(deal.id)
    expect(((await (await call(puneAdmin, '/api/deals')).json()) as Deal[]).map((d) => d.id)).not.toContain(deal.id)
    expect(((await (await call(mumbaiAdmin, '/api/deals')).json()) as Deal[]).map((d) => d.id)).toContain(deal.id)
  })

  test('closed only when both confirm: a disagreement is DISPUTED (shown to the city’s admins, the thread kept); agreed WON closes the SALE listing and puts the RENT one ON_HOLD', async () => {
    const { avl, req, deal } = await openDeal({ sale_or_rent: 'SALE' }, { post_type: 'REQ', sale_or_rent: 'RENT' })
    const path = `/api/deals/${deal.id}`
    expect((await call(owner, `${path}/close`, 'POST', { outcome: 'LOST' })).status).toBe(422) // LOST needs a reason
    const waiting = (await (await call(owner, `${path}/close`, 'POST', { outcome: 'WON' })).json()) as Deal
    expect(waiting).toMatchObject({ stage: 'INTERESTED', owner_outcome: 'WON', requester_outcome: null })
    expect((await (await call(owner, `/api/listings/${avl.id}`)).json()).status).toBe('ACTIVE')
    const disputed = (await (await call(requester, `${path}/close`, 'POST', { outcome: 'LOST', reason: 'Client bought elsewhere' })).json()) as Deal
    expect(disputed).toMatchObject({ stage: 'DISPUTED', owner_outcome: 'WON', requester_outcome: 'LOST' })
    expect(((await (await call(mumbaiAdmin, '/api/deals?stage=DISPUTED')).json()) as Deal[]).map((d) => d.id)).toContain(deal.id)
    expect(((await (await call(puneAdmin, '/api/deals?stage=DISPUTED')).json()) as Deal[]).map((d) => d.id)).not.toContain(deal.id)
    const threadLength = disputed.messages.length
    expect((await call(owner, `${path}/stage`, 'POST', { stage: 'NEGOTIATING' })).status).toBe(409)

    const closed = (await (await call(requester, `${path}/close`, 'POST', { outcome: 'WON' })).json()) as Deal
    expect(closed).toMatchObject({ stage: 'CLOSED_WON', owner_outcome: 'WON', requester_outcome: 'WON' })
    expect(closed.messages.length).toBeGreaterThan(threadLength) // nothing taken away, the steps added
    expect((await (await call(owner, `/api/listings/${avl.id}`)).json()).status).toBe('CLOSED')
    expect((await (await call(requester, `/api/listings/${req!.id}`)).json()).status).toBe('ON_HOLD')
    expect((await call(owner, `${path}/close`, 'POST', { outcome: 'LOST', reason: 'x' })).status).toBe(409)
    const audit = await h.ctx.db.all<{ action: string }>("select action from audit_events where entity_type = 'deal' and entity_id = ? order by id", [String(deal.id)])
    expect(audit.map((a) => a.action)).toEqual(['deal.confirm', 'deal.dispute', 'deal.close'])
    // The listings were changed in their brokers' names.
    const listingAudit = await h.ctx.db.all<{ actor_user_id: number }>("select actor_user_id from audit_events where entity_type = 'listing' and entity_id = ? and action = 'listing.update'", [String(avl.id)])
    expect(listingAudit.map((a) => Number(a.actor_user_id))).toEqual([owner.user.id])
  })

  test('closed lost by both: the listings stay as they were', async () => {
    const { avl, deal } = await openDeal({}, null)
    await call(owner, `/api/deals/${deal.id}/close`, 'POST', { outcome: 'LOST', reason: 'Owner withdrew' })
    const closed = (await (await call(requester, `/api/deals/${deal.id}/close`, 'POST', { outcome: 'LOST', reason: 'Owner withdrew' })).json()) as Deal
    expect(closed).toMatchObject({ stage: 'CLOSED_LOST', lost_reason: 'Owner withdrew' })
    expect((await (await call(owner, `/api/listings/${avl.id}`)).json()).status).toBe('ACTIVE')
  })
})

describe('a broker’s record', () => {
  test('verified since, deals closed, median time to answer, share answered; 404 for someone not a broker', async () => {
    const place = await seedPlace(h.ctx.db, ['Thane'])
    const x = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Record Owner' })
    const y = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Record Asker' })
    const record = async () => (await (await call(other, `/api/brokers/${x.user.id}/record`)).json()) as Record<string, unknown>
    expect(await record()).toMatchObject({ full_name: 'Record Owner', verified_since: x.user.createdAt.toISOString(), deals_closed: 0, requests_received: 0, median_answer_minutes: null, answered_share: null })
    const listings = [await post(x, { post_type: 'AVL' }), await post(x, { post_type: 'AVL' }), await post(x, { post_type: 'AVL' })]
    const asker = { id: y.user.id, role: 'BROKER' as const, cityId: y.user.cityId, fullName: y.user.fullName }
    // Answered after 30 minutes (accepted), after 90 minutes (declined), never (expired).
    const now = Date.now()
    const r1 = await sendRequest(h.ctx, noPush, asker, listings[0]!.id, {}, now - 30 * 60_000)
    const r2 = await sendRequest(h.ctx, noPush, asker, listings[1]!.id, {}, now - 90 * 60_000)
    await sendRequest(h.ctx, noPush, asker, listings[2]!.id, {}, now - 73 * 3_600_000)
    const deal = (await (await call(x, `/api/cobroke-requests/${r1.id}/accept`, 'POST')).json()) as Deal
    expect((await call(x, `/api/cobroke-requests/${r2.id}/decline`, 'POST', { reason: 'Sold' })).status).toBe(200)
    await call(x, `/api/deals/${deal.id}/close`, 'POST', { outcome: 'WON' })
    await call(y, `/api/deals/${deal.id}/close`, 'POST', { outcome: 'WON' })
    const after = await record()
    expect(after).toMatchObject({ deals_closed: 1, requests_received: 3, answered_share: 0.67 })
    expect(after.median_answer_minutes).toBeGreaterThanOrEqual(60)
    expect(after.median_answer_minutes).toBeLessThanOrEqual(61)
    expect((await call(other, `/api/brokers/${mumbaiAdmin.user.id}/record`)).status).toBe(404)
    expect((await call(null, `/api/brokers/${x.user.id}/record`)).status).toBe(401)
  })
})

describe('timers', () => {
  test('the morning of a site visit both brokers are reminded, by mail and in the thread, once; a request unanswered for 72 hours expires on its own', async () => {
    const tz = h.ctx.config.timeZone
    const day = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
    const hour = (at: number) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hourCycle: 'h23' }).format(at))
    // A visit at noon (local) two or three days ahead; the morning before it, and the night before that.
    let visit = Date.now() + 2 * 86_400_000
    while (hour(visit) !== 12) visit += 3_600_000
    visit -= visit % 60_000
    const night = visit - 7 * 3_600_000 // 05:00
    const morning = visit - 3 * 3_600_000 // 09:00
    expect([day(night), day(morning), hour(night) < MORNING_HOUR, hour(morning) >= MORNING_HOUR]).toEqual([day(visit), day(visit), true, true])

    const avl = await post(owner, { post_type: 'AVL' })
    const sent = (await (await ask(requester, avl.id)).json()) as Req
    const deal = (await (await call(owner, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).json()) as Deal
    expect((await call(requester, `/api/deals/${deal.id}/stage`, 'POST', { stage: 'SITE_VISIT', visit_at: new Date(visit).toISOString() })).status).toBe(200)
    const outbox = () => h.ctx.db.all<{ to_address: string; subject: string }>("select to_address, subject from mail_outbox where subject like 'Site visit today%' order by id")
    const before = (await outbox()).length
    expect(await runDealTimers(h.ctx, night)).toBe(0)
    expect(await runDealTimers(h.ctx, morning)).toBe(1)
    expect(await runDealTimers(h.ctx, morning + 600_000)).toBe(0)
    const mails = (await outbox()).slice(before)
    expect(mails.map((m) => m.to_address).sort()).toEqual([owner.user.email, requester.user.email].sort())
    const thread = ((await (await call(owner, `/api/deals/${deal.id}`)).json()) as Deal).messages
    expect(thread.at(-1)!.body).toStartWith('Reminder: the site visit is today')

    const other = await post(owner, { post_type: 'AVL' })
    const party = { id: requester.user.id, role: 'BROKER' as const, cityId: requester.user.cityId, fullName: requester.user.fullName }
    const stale = await sendRequest(h.ctx, noPush, party, other.id, {}, Date.now() - 73 * 3_600_000)
    await runDealTimers(h.ctx)
    expect((await h.ctx.db.get<{ status: string }>('select status from cobroke_requests where id = ?', [stale.id]))!.status).toBe('EXPIRED')
  })
})

describe('live', () => {
  test('each step reaches the other broker’s event stream; request → event p99 measured', async () => {
    const abort = new AbortController()
    const res = await h.request('/api/events', { headers: owner.bearer, signal: abort.signal })
    expect(res.status).toBe(200)
    const stream = eventStreamReader(res)
    try {
      await stream.expect('matches') // connected
      const times: number[] = []
      const avl = await post(owner, { post_type: 'AVL' })
      let t0 = performance.now()
      const sent = (await (await ask(requester, avl.id)).json()) as Req
      expect(await stream.expect('deal')).toEqual({ kind: 'request', id: sent.id, status: 'PENDING' })
      times.push(performance.now() - t0)
      const deal = (await (await call(owner, `/api/cobroke-requests/${sent.id}/accept`, 'POST')).json()) as Deal
      // The owner's own steps (the accept) reach their stream too, whenever the stream gets them: each wait for a
      // message's event passes over those rather than guessing when they have all arrived (a quiet spell proved too
      // short against the binary on a loaded machine).
      const nextMessage = async () => {
        for (;;) {
          const e = (await stream.expect('deal')) as { kind: string; id: number }
          if (e.kind === 'message') return e
        }
      }
      for (let i = 0; i < 40; i++) {
        t0 = performance.now()
        expect((await call(requester, `/api/deals/${deal.id}/messages`, 'POST', { body: `Message ${i}` })).status).toBe(200)
        expect(await nextMessage()).toMatchObject({ kind: 'message', id: deal.id })
        times.push(performance.now() - t0)
      }
      times.sort((a, b) => a - b)
      const p99 = times[Math.ceil(times.length * 0.99) - 1]!
      console.info(`[figure] co-broke step → other broker's event: p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms over ${times.length}`)
      expect(p99).toBeLessThan(1000 * (process.env.BROKERNET_BINARY ? 2 : 1) * 5) // the 1 s, with room for a loaded shared machine
    } finally {
      stream.cancel()
      abort.abort()
    }
  }, 120_000)
})
