// Keeping the network true (issue 35): reports of a listing by brokers. One broker's reports count once; three
// brokers' take it off the network until its broker answers (still available: back, the reports answered so and shown
// to admins; or closed).
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

let owner: SignedIn
let reporters: SignedIn[]
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let kinds = 0

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Owner Broker' })
  reporters = [await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Reporter A' }), await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Reporter B' }), await signIn(h.ctx.db, 'BROKER', { cityId: pune, fullName: 'Reporter C' })]
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
})

const post = async () => {
  const res = await h.request('/api/listings', withJson(owner.browser, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: `Report kind ${++kinds}` }))
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: number }).id
}
const report = (as: SignedIn, id: number, reason = 'SOLD_OR_RENTED') => h.request(`/api/listings/${id}/reports`, withJson(as.browser, { reason }))
const seen = async (as: SignedIn, id: number) => (await h.request(`/api/listings/${id}`, { headers: as.bearer })).status

test('three brokers’ reports take a listing off the network; one broker’s count once; its broker answers still available and it is back', async () => {
  const id = await post()
  const [a, b, c] = reporters as [SignedIn, SignedIn, SignedIn]
  expect((await report(owner, id)).status).toBe(409) // one's own
  expect((await report(a, id, 'NOT_A_REASON')).status).toBe(422)
  expect(await (await report(a, id)).json()).toEqual({ reported_by: 1, off_network: false })
  expect((await report(a, id, 'FAKE')).status).toBe(409) // counts once
  expect(await (await report(b, id, 'NO_RESPONSE')).json()).toEqual({ reported_by: 2, off_network: false })
  expect(await (await report(c, id, 'WRONG_DETAILS')).json()).toEqual({ reported_by: 3, off_network: true })
  // Off the network: other brokers no longer see it; its broker and the city's admin do, with the reports.
  expect(await seen(a, id)).toBe(404)
  expect(await seen(owner, id)).toBe(200)
  // The listing says so to its broker and admins (My Listings' card, row and details): when the reports took it off.
  const offAt = ((await (await h.request(`/api/listings/${id}`, { headers: owner.bearer })).json()) as { reported_off_at: string | null }).reported_off_at
  expect(offAt).not.toBeNull()
  expect(Date.parse(offAt!)).toBeGreaterThan(Date.now() - 60_000)
  const asAdmin = (await (await h.request(`/api/listings/${id}`, { headers: mumbaiAdmin.bearer })).json()) as { reported_off_at: string | null; status: string; moderation: unknown }
  expect(asAdmin).toMatchObject({ reported_off_at: offAt, status: 'SUSPENDED', moderation: null })
  const myList = (await (await h.request('/api/listings/my', { headers: owner.bearer })).json()) as { id: number; reported_off_at: string | null }[]
  expect(myList.find((l) => l.id === id)?.reported_off_at).toBe(offAt)
  const mine = await (await h.request(`/api/listings/${id}/reports`, { headers: owner.bearer })).json()
  expect(mine.off_network).toBe(true)
  expect(mine.reports.map((r: { reason: string; reporter_name: string | null }) => [r.reason, r.reporter_name])).toEqual([
    ['SOLD_OR_RENTED', null],
    ['NO_RESPONSE', null],
    ['WRONG_DETAILS', null],
  ])
  const theirs = await (await h.request(`/api/listings/${id}/reports`, { headers: mumbaiAdmin.bearer })).json()
  expect(theirs.reports.map((r: { reporter_name: string }) => r.reporter_name)).toEqual(['Reporter A', 'Reporter B', 'Reporter C'])
  expect((await h.request(`/api/listings/${id}/reports`, { headers: puneAdmin.bearer })).status).toBe(404)
  // Its status is the answer's to set, not a PATCH's.
  expect((await h.request(`/api/listings/${id}`, withJson(owner.browser, { status: 'ACTIVE' }, 'PATCH'))).status).toBe(409)
  expect((await h.request(`/api/listings/${id}/reports/answer`, withJson(a.browser, { answer: 'STILL_AVAILABLE' }))).status).toBe(404)

  const back = await h.request(`/api/listings/${id}/reports/answer`, withJson(owner.browser, { answer: 'STILL_AVAILABLE' }))
  expect(back.status).toBe(200)
  expect(await back.json()).toMatchObject({ status: 'ACTIVE', reported_off_at: null })
  expect(await seen(a, id)).toBe(200)
  expect((await h.request(`/api/listings/${id}/reports/answer`, withJson(owner.browser, { answer: 'STILL_AVAILABLE' }))).status).toBe(409)
  // The reports were cleared: the same brokers may report it again, and it counts from one.
  expect(await (await report(a, id)).json()).toEqual({ reported_by: 1, off_network: false })

  // Admins see the brokers whose reports were answered "still available"; a module admin those of their city's listings.
  const listed = (await (await h.request('/api/listing-reports/reporters', { headers: mumbaiAdmin.bearer })).json()) as { full_name: string; answered_still_available: number }[]
  expect(listed.map((r) => [r.full_name, r.answered_still_available]).sort()).toEqual([
    ['Reporter A', 1],
    ['Reporter B', 1],
    ['Reporter C', 1],
  ])
  expect(await (await h.request('/api/listing-reports/reporters', { headers: puneAdmin.bearer })).json()).toEqual([])
  expect((await h.request('/api/listing-reports/reporters', { headers: a.bearer })).status).toBe(403)
  const audit = await h.ctx.db.all<{ action: string }>("select action from audit_events where entity_type = 'listing' and entity_id = ? order by id", [String(id)])
  expect(audit.map((x) => x.action)).toEqual(['listing.create', 'listing.report', 'listing.report', 'listing.report', 'listing.reported_off', 'listing.reports_answered', 'listing.report'])
})

test('answered closed: the listing is closed', async () => {
  const id = await post()
  for (const r of reporters) expect((await report(r, id)).status).toBe(201)
  const closed = await h.request(`/api/listings/${id}/reports/answer`, withJson(owner.browser, { answer: 'CLOSED' }))
  expect(closed.status).toBe(200)
  expect((await closed.json()).status).toBe('CLOSED')
  expect((await report(reporters[0]!, id)).status).toBe(409) // no longer on the network
})
