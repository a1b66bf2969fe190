// "N new since your last visit" on the broker dashboard (issue 17's hotsheet): opening the dashboard records a visit;
// one ends after 30 minutes without a dashboard request, and the next counts the news of others since its end. The
// 30 minutes are simulated by moving the visit's row back in time in the test's real database, not by sleeping.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { recordVisit, VISIT_GAP_MS } from '../../src/modules/dashboard/visits'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { insertListing, seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let city: number
let asha: SignedIn
let bo: SignedIn

type Visit = { since: string | null; new_count: number }
type Row = { since_at: number; last_at: number }
const MINUTE = 60_000

const post = async (as: SignedIn, details: string) => {
  const res = await h.request('/api/listings', withJson(as.browser, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Flat', details, budget: 50_000 }))
  expect(res.status).toBe(201)
  return (await res.json()) as { id: number; entry_id: string }
}
const dashboard = async (as: SignedIn) => {
  const res = await h.request('/dashboard', { headers: as.browser })
  expect(res.status).toBe(200)
  return res.text()
}
const visitApi = async (as: SignedIn) => (await (await h.request('/api/dashboard/visit', { headers: as.bearer })).json()) as Visit
const visitRow = async (as: SignedIn) => {
  const row = await h.ctx.db.get<Row>('select since_at, last_at from user_visits where user_id = ?', [as.user.id])
  return row && { since_at: Number(row.since_at), last_at: Number(row.last_at) }
}
/** The visit as if it had happened `minutes` earlier: both its moments moved back. */
const ageVisit = (as: SignedIn, minutes: number) =>
  h.ctx.db.run('update user_visits set since_at = since_at - ?, last_at = last_at - ? where user_id = ?', [minutes * MINUTE, minutes * MINUTE, as.user.id])
const linkOf = (html: string) => /<a class="link font-semibold" href="([^"]+)">([^<]+)<\/a>/.exec(html)

beforeAll(async () => {
  city = (await seedPlace(h.ctx.db, ['Mumbai'])).cities[0]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Asha Visitor' })
  bo = await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Bo Other' })
})

describe('visits of the dashboard', () => {
  test('a first visit counts from now: nothing is new', async () => {
    const before = Date.now()
    const html = await dashboard(asha)
    const row = (await visitRow(asha))!
    expect(row.since_at).toBe(row.last_at)
    expect(row.since_at).toBeGreaterThanOrEqual(before)
    expect(html).toContain('Nothing new since your last visit')
    expect(await visitApi(asha)).toEqual({ since: new Date(row.since_at).toISOString(), new_count: 0 })
  })

  test("after a visit ends, others' news since its end count (not one's own, not what one may not see); reloading keeps the count", async () => {
    // The first visit was 40 minutes ago and lasted until 31 minutes ago.
    await ageVisit(asha, 40)
    await h.ctx.db.run('update user_visits set last_at = last_at + ? where user_id = ?', [9 * MINUTE, asha.user.id])
    const previous = (await visitRow(asha))!
    const longAgo = new Date(Date.now() - 3 * 60 * MINUTE)
    const bos = (entryId: string, values: Partial<Parameters<typeof insertListing>[1]>) =>
      insertListing(h.ctx.db, { entryId, postType: 'AVL', saleOrRent: 'SALE', contactValue: '9876500001', contactName: 'Owner', propertyType: 'Shop', status: 'ACTIVE', date: '2026-01-01', ownerUserId: bo.user.id, cityId: city, ...values })
    const old = await bos('AVL-MUM-900001', { createdAt: longAgo, updatedAt: longAgo })
    const repriced = await bos('AVL-MUM-900002', { budget: 1_000_000, createdAt: longAgo, updatedAt: longAgo })
    await bos('AVL-MUM-900003', { status: 'SUSPENDED' })
    const fresh = await post(bo, 'Posted while Asha was away')
    expect((await h.request(`/api/listings/${repriced}`, withJson(bo.browser, { budget: 900_000 }, 'PATCH'))).status).toBe(200)
    const mine = await post(asha, 'Her own, not news to her')

    const html = await dashboard(asha)
    const row = (await visitRow(asha))!
    expect(row.since_at).toBe(previous.last_at)
    const since = new Date(previous.last_at).toISOString()
    const link = linkOf(html)!
    expect(link[2]).toBe('2 new since your last visit')
    expect(link[1]).toBe(`/dashboard/listings?changed_since=${encodeURIComponent(since)}`)
    expect(await visitApi(asha)).toEqual({ since, new_count: 2 })

    // A reload within 30 minutes is the same visit: only its last moment moves.
    await h.ctx.db.run('update user_visits set last_at = last_at - ? where user_id = ?', [29 * MINUTE, asha.user.id])
    expect(linkOf(await dashboard(asha))![2]).toBe('2 new since your last visit')
    const reloaded = (await visitRow(asha))!
    expect(reloaded.since_at).toBe(previous.last_at)
    expect(reloaded.last_at).toBeGreaterThan(row.last_at - 29 * MINUTE)

    // The link's filter lists them (and her own news, marked as hers in the table).
    const listed = (await (await h.request(`/api/listings/?changed_since=${encodeURIComponent(since)}`, { headers: asha.bearer })).json()) as { listings: { id: number }[]; total: number }
    expect(listed.listings.map((l) => l.id).sort((a, b) => a - b)).toEqual([repriced, fresh.id, mine.id].sort((a, b) => a - b))
    expect(listed.listings.map((l) => l.id)).not.toContain(old)
    const page = await (await h.request(link[1]!.replaceAll('&amp;', '&'), { headers: asha.browser })).text()
    expect(page).toContain(fresh.entry_id)
    expect(page).not.toContain('AVL-MUM-900001')
    expect(page).toContain(`data-changed-since="${since}"`)
  })

  test('a visit ends after 30 minutes without a dashboard request (the rule itself, at chosen moments)', async () => {
    const carol = await signIn(h.ctx.db, 'BROKER', { cityId: city })
    const t0 = Date.now()
    expect(await recordVisit(h.ctx.db, carol.user.id, t0)).toBe(t0)
    expect(await recordVisit(h.ctx.db, carol.user.id, t0 + 20 * MINUTE)).toBe(t0)
    // 30 minutes less a millisecond after the last request: still the same visit.
    expect(await recordVisit(h.ctx.db, carol.user.id, t0 + 20 * MINUTE + VISIT_GAP_MS - 1)).toBe(t0)
    const last = t0 + 20 * MINUTE + VISIT_GAP_MS - 1
    expect(await recordVisit(h.ctx.db, carol.user.id, last + VISIT_GAP_MS)).toBe(last)
    expect(await visitRow(carol)).toEqual({ since_at: last, last_at: last + VISIT_GAP_MS })
  })

  test('the listings page is no visit; the API only reads, and answers nothing new before a first visit', async () => {
    const dan = await signIn(h.ctx.db, 'BROKER', { cityId: city })
    expect((await h.request('/dashboard/listings', { headers: dan.browser })).status).toBe(200)
    expect(await visitRow(dan)).toBeUndefined()
    expect(await visitApi(dan)).toEqual({ since: null, new_count: 0 })
    expect(await visitRow(dan)).toBeUndefined()
    expect((await h.request('/api/dashboard/visit')).status).toBe(401)
  })

  test('a changed_since in the URL that is no date and time is ignored by the page', async () => {
    const page = await (await h.request('/dashboard/listings?changed_since=yesterday', { headers: asha.browser })).text()
    expect(page).not.toContain('data-changed-since')
  })
})
