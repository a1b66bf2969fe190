// Localities offered to a city's module admin once several listings use them (issue 30): GET /api/localities/offers,
// POST /api/localities. An accepted one is known to the WhatsApp parser with its zone at once.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { insertRow } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

type Offers = { city_id: number; offer_at: number; offers: { name: string; listings: number; zone: string | null; spellings: string[] }[]; more: number; detail?: unknown }

let mohali: number
let other: number
let broker: SignedIn
let admin: SignedIn
let otherAdmin: SignedIn
let master: SignedIn

beforeAll(async () => {
  const now = Date.now()
  const c = await insertRow(h.ctx.db, 'countries', { name: 'India', code: 'IN', createdAt: now, updatedAt: now })
  const s = await insertRow(h.ctx.db, 'states', { name: 'Punjab', code: 'IN-PB', countryId: c.id, createdAt: now, updatedAt: now })
  mohali = (await insertRow(h.ctx.db, 'cities', { name: 'Mohali', stateId: s.id, createdAt: now, updatedAt: now })).id
  other = (await insertRow(h.ctx.db, 'cities', { name: 'Zirakpur', stateId: s.id, createdAt: now, updatedAt: now })).id
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: mohali, fullName: 'Offer Broker', phone: '+919999900090' })
  admin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mohali, fullName: 'Mohali Admin' })
  otherAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: other, fullName: 'Zirakpur Admin' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Offer Master' })
  // Sector 82 in three spellings on three listings, one of them withdrawn; Phase 4 on two; Aerocity on three.
  const post = async (locality: string, n: number, location: string | null = null) => {
    const res = await h.request('/api/listings', withJson(broker.bearer, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '+91 99999 00090', property_type: 'Plot', locality, location, budget: 10_000_000 + n, details: `${locality} plot ${n}`, confirm_duplicate: true }))
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: number }).id
  }
  await post('Sector 82', 1, 'South')
  await post('SECTOR-82', 2, 'South')
  await post('sector 82', 3)
  const withdrawn = await post('Sector 82', 4)
  await post('Phase 4', 5)
  await post('Phase 4', 6)
  for (let n = 7; n < 10; n++) await post('Aerocity', n, 'Outskirts')
  expect((await h.request(`/api/listings/${withdrawn}`, withJson(broker.bearer, { status: 'CLOSED' }, 'PATCH'))).status).toBe(200)
})

const offers = async (as: SignedIn, query = '') => {
  const res = await h.request(`/api/localities/offers${query}`, { headers: as.bearer })
  return { status: res.status, body: (await res.json()) as Offers }
}
const decide = async (as: SignedIn, body: Record<string, unknown>) => {
  const res = await h.request('/api/localities/', withJson(as.bearer, body))
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('localities offered to the module admin', () => {
  test('a locality used by three ACTIVE listings, its spellings together, is offered; one used by two is not', async () => {
    const { status, body } = await offers(admin)
    expect(status).toBe(200)
    expect(body.offer_at).toBe(3)
    expect(body.offers).toEqual([
      { name: 'Aerocity', listings: 3, zone: 'Outskirts', spellings: ['Aerocity'] },
      { name: 'Sector 82', listings: 3, zone: 'South', spellings: ['SECTOR-82', 'Sector 82', 'sector 82'] },
    ])
  })

  test('only admins decide, each for their own city; a master admin names the city', async () => {
    expect((await offers(broker)).status).toBe(403)
    expect((await decide(broker, { name: 'Sector 82', decision: 'ACCEPT' })).status).toBe(403)
    expect((await offers(admin, `?city_id=${other}`)).status).toBe(403)
    expect((await decide(otherAdmin, { name: 'Sector 82', decision: 'ACCEPT', city_id: mohali })).status).toBe(403)
    expect((await offers(otherAdmin)).body.offers).toEqual([])
    expect((await offers(master)).status).toBe(422)
    expect((await offers(master, '?city_id=999999')).status).toBe(404)
    expect((await offers(master, `?city_id=${mohali}`)).body.offers.map((o) => o.name)).toEqual(['Aerocity', 'Sector 82'])
    for (const bad of [{}, { name: '', decision: 'ACCEPT' }, { name: 'X', decision: 'MAYBE' }, { name: 'X'.repeat(101), decision: 'ACCEPT' }, { name: 'Sector 9', decision: 'ACCEPT', zone: 'Nowhere' }, { name: '---', decision: 'ACCEPT' }])
      expect((await decide(admin, bad)).status).toBe(422)
  })

  test('accepted, a locality is no longer offered and the parser knows it with its zone at once; dismissed, it is not offered again', async () => {
    // Before: as its listings spell it and zone it, most of them first.
    const before = await h.request('/api/listings/parse', withJson(broker.bearer, { text: 'Plot for sale sec-82, 300 gaj, demand 4.2' }))
    expect(((await before.json()) as { drafts: { locality: string; location: string | null }[] }).drafts[0]!.location).toBe('South')
    expect((await decide(admin, { name: 'Sector 82', decision: 'ACCEPT', zone: 'West' })).body).toEqual({ city_id: mohali, name: 'Sector 82', zone: 'West', status: 'ACCEPTED' })
    const after = await h.request('/api/listings/parse', withJson(broker.bearer, { text: 'Plot for sale sec-82, 300 gaj, demand 4.2' }))
    expect(((await after.json()) as { drafts: { locality: string; location: string | null }[] }).drafts[0]).toMatchObject({ locality: 'Sector 82', location: 'West' })
    expect((await decide(admin, { name: 'aerocity', decision: 'DISMISS', zone: 'North' })).body).toEqual({ city_id: mohali, name: 'aerocity', zone: null, status: 'DISMISSED' })
    expect((await offers(admin)).body.offers).toEqual([])
    // A decision is changed by deciding again (case and punctuation aside).
    expect((await decide(master, { name: 'SECTOR-82', decision: 'DISMISS', city_id: mohali })).body.status).toBe('DISMISSED')
    expect((await offers(admin)).body.offers).toEqual([])
  })
})
