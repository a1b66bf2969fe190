// Duplicate control (issue 17): POST /api/listings/duplicates finds the ACTIVE listings a draft would repeat, by the
// same contact with similar details or by the same locality with a size within 5 % and a budget within 10 %; a
// near-copy of one's own is refused (409) unless confirmed, of another broker's allowed and marked for admins.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { similarity } from '../../src/modules/listings/duplicates'
import { contactKey } from '../../src/shared/contact-key'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let mumbai: number
let pune: number
let asha: SignedIn // broker, Mumbai
let kiran: SignedIn // broker, Mumbai
let puneAdmin: SignedIn
let master: SignedIn
let original: { id: number; entry_id: string }

const flat = {
  post_type: 'AVL',
  sale_or_rent: 'RENT',
  contact_value: '98765 43210',
  property_type: '2 BHK',
  locality: 'Andheri West',
  details: 'Sea facing 2 BHK with covered parking and a gym',
  size: 1000,
  budget: 50_000,
}
const post = async (as: SignedIn, body: Record<string, unknown>) => {
  const res = await h.request('/api/listings', withJson(as.browser, body))
  return { status: res.status, body: await res.json() }
}
const check = async (as: SignedIn, draft: Record<string, unknown>) => {
  const res = await h.request('/api/listings/duplicates', withJson(as.browser, draft))
  return { status: res.status, body: await res.json() }
}
const found = async (as: SignedIn, draft: Record<string, unknown>) => {
  const { status, body } = await check(as, draft)
  expect(status).toBe(200)
  return body.duplicates as { listing: { id: number; entry_id: string }; own: boolean; similarity: number; reasons: string[] }[]
}

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Dup' })
  kiran = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Kiran Dup' })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune, fullName: 'Pune Admin' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Dup Master' })
  const created = await post(asha, flat)
  expect(created.status).toBe(201)
  original = created.body
})

describe('the measures', () => {
  test('contacts compare without spaces and punctuation; details by the overlap of their words', () => {
    expect(contactKey('+91 (98765) 43-210')).toBe('919876543210')
    expect(contactKey('98765.43210')).toBe(contactKey('98765 43210'))
    expect(similarity('Sea facing 2 BHK with parking', 'sea-facing 2BHK, with parking')).toBeCloseTo(4 / 7)
    expect(similarity('Sea facing flat', 'sea facing FLAT')).toBe(1)
    expect(similarity('', 'anything')).toBe(0)
  })
})

describe('POST /api/listings/duplicates', () => {
  test('the same contact, written otherwise, with similar details', async () => {
    const d = await found(kiran, { ...flat, contact_value: '98765-43210', details: 'Sea facing 2 BHK with covered parking, gym', locality: null, size: null })
    expect(d.map((x) => x.listing.id)).toEqual([original.id])
    expect(d[0]!.reasons).toEqual(['same_contact', 'similar_details'])
    expect(d[0]!.similarity).toBeGreaterThanOrEqual(0.6)
    expect(d[0]!.own).toBe(false)
    expect((await found(asha, { ...flat, contact_value: '98765-43210' }))[0]!.own).toBe(true)
  })

  test('the same contact with other details is not a duplicate', async () => {
    expect(await found(kiran, { ...flat, details: 'Ground floor shop on the high street', locality: null })).toEqual([])
  })

  test('the same locality (any case) with a size within 5 % and a budget within 10 %, whatever the contact', async () => {
    const other = { ...flat, contact_value: 'someone@example.com', details: 'Different words entirely', locality: 'andheri west' }
    const d = await found(kiran, { ...other, size: 1049, budget: 54_900 })
    expect(d.map((x) => x.listing.id)).toEqual([original.id])
    expect(d[0]!.reasons).toEqual(['same_locality', 'size_within_5_percent', 'budget_within_10_percent'])
    expect(await found(kiran, { ...other, size: 1060, budget: 50_000 })).toEqual([])
    expect(await found(kiran, { ...other, size: 1000, budget: 56_000 })).toEqual([])
    expect(await found(kiran, { ...other, locality: 'Andheri East' })).toEqual([])
  })

  test('a listing found both ways is one duplicate with both reasons, and its details compared once (the same overlap)', async () => {
    const details = 'Sea facing 2 BHK with covered parking, gym'
    const d = await found(kiran, { ...flat, contact_value: '98765-43210', details })
    expect(d.map((x) => x.listing.id)).toEqual([original.id])
    expect(d[0]!.reasons).toEqual(['same_contact', 'similar_details', 'same_locality', 'size_within_5_percent', 'budget_within_10_percent'])
    expect(d[0]!.similarity).toBe(Math.round(similarity(details, flat.details) * 100) / 100)
  })

  test('only the same post type, deal and city, ACTIVE', async () => {
    expect(await found(kiran, { ...flat, post_type: 'REQ' })).toEqual([])
    expect(await found(kiran, { ...flat, sale_or_rent: 'SALE' })).toEqual([])
    expect(await found(master, { ...flat, city_id: pune })).toEqual([])
    expect((await found(master, { ...flat, city_id: mumbai })).length).toBe(1)
    // A module admin's drafts go to their own city.
    expect(await found(puneAdmin, { ...flat, city_id: mumbai })).toEqual([])
    const held = await post(asha, { ...flat, locality: 'Powai', details: 'Lake view 3 BHK', size: 1500, budget: 90_000 })
    expect((await found(kiran, { ...flat, locality: 'Powai', details: 'Lake view 3 BHK', size: 1500, budget: 90_000 })).map((x) => x.listing.id)).toContain(held.body.id)
    await h.request(`/api/listings/${held.body.id}`, withJson(asha.browser, { status: 'ON_HOLD' }, 'PATCH'))
    expect(await found(kiran, { ...flat, locality: 'Powai', details: 'Lake view 3 BHK', size: 1500, budget: 90_000 })).toEqual([])
  })

  test('bad drafts: 422 with a detail, never a 500', async () => {
    expect((await check(kiran, { sale_or_rent: 'RENT' })).status).toBe(422)
    expect((await check(kiran, { ...flat, size: -1 })).status).toBe(422)
    const noCity = await check(master, flat)
    expect(noCity.status).toBe(422)
    expect(JSON.stringify(noCity.body)).toContain('City is required')
    expect((await h.request('/api/listings/duplicates', withJson({}, flat))).status).toBe(401)
  })
})

describe('posting a near-copy', () => {
  test("of one's own ACTIVE listing: 409 naming it, unless confirmed", async () => {
    const refused = await post(asha, { ...flat, details: 'Sea facing 2 BHK with covered parking and gym' })
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toContain('duplicate listing')
    expect(refused.body.detail).toContain(original.entry_id)
    expect(refused.body.detail).toContain('posted by you today')
    const confirmed = await post(asha, { ...flat, details: 'Sea facing 2 BHK with covered parking and gym', confirm_duplicate: true })
    expect(confirmed.status).toBe(201)
    await h.request(`/api/listings/${confirmed.body.id}`, withJson(asha.browser, {}, 'DELETE'))
  })

  test("of another broker's: allowed, and listed for admins under Possible duplicates", async () => {
    const before = await (await h.request('/api/listings/?possible_duplicates=true', { headers: master.bearer })).json()
    const copy = await post(kiran, { ...flat, contact_value: '91234 56789', details: 'Co-listed: sea facing 2 BHK, parking and gym' })
    expect(copy.status).toBe(201)
    const plain = await post(kiran, { ...flat, contact_value: '91234 56789', locality: 'Colaba', details: 'Studio near the sea' })
    expect(plain.status).toBe(201)
    const after = await (await h.request('/api/listings/?possible_duplicates=true', { headers: master.bearer })).json()
    // false narrows nothing.
    const all = await (await h.request('/api/listings/', { headers: master.bearer })).json()
    expect((await (await h.request('/api/listings/?possible_duplicates=false', { headers: master.bearer })).json()).total).toBe(all.total)
    expect(after.total).toBe(before.total + 1)
    expect(after.listings.map((l: { id: number }) => l.id)).toContain(copy.body.id)
    expect(after.listings.map((l: { id: number }) => l.id)).not.toContain(plain.body.id)
  })
})
