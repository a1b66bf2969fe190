// Matching (issue 15): each rule of the contract through the API, listings posted and changed as brokers do, the
// inbox, seen and dismiss, announce-once, the per-city tolerance and who may set it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { insertListing, seedPlace } from '../support/fixtures'
import { drainAnnouncements, queueAnnouncement } from '../../src/modules/matches/service'

const h = await createTestApp()
afterAll(() => h.close())
let mumbai: number
let pune: number
let asha: SignedIn // broker, Mumbai
let ravi: SignedIn // broker, Mumbai
let kiran: SignedIn // broker, Pune
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let master: SignedIn

type Listing = { id: number; owner_user_id: number; status: string }
type Match = { listing: Listing; score: number; reasons: string[] }
type Entry = { id: number; listing_id: number; listing: Listing; match: Listing; score: number; reasons: string[]; seen: boolean }

// Each test posts its own property type, so the listings of one test never match another's.
let kinds = 0
const kind = () => `Kind ${++kinds}`
const contact = { contact_value: '9876543210' }

async function post(as: SignedIn, body: Record<string, unknown>): Promise<Listing> {
  const res = await h.request('/api/listings', withJson(as.browser, { sale_or_rent: 'SALE', ...contact, ...body }))
  expect(res.status).toBe(201)
  return res.json()
}
const req = (as: SignedIn, property_type: string, over: Record<string, unknown> = {}) => post(as, { post_type: 'REQ', property_type, ...over })
const avl = (as: SignedIn, property_type: string, over: Record<string, unknown> = {}) => post(as, { post_type: 'AVL', property_type, ...over })
const patch = async (as: SignedIn, id: number, body: unknown) => expect((await h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))).status).toBe(200)

async function matchesOf(as: SignedIn, id: number, query = ''): Promise<{ matches: Match[]; total: number }> {
  const res = await h.request(`/api/listings/${id}/matches${query}`, { headers: as.bearer })
  expect(res.status).toBe(200)
  return res.json()
}
const matchIds = async (as: SignedIn, id: number) => (await matchesOf(as, id)).matches.map((m) => m.listing.id)
async function inbox(as: SignedIn, query = ''): Promise<{ matches: Entry[]; unseen: number; total: number }> {
  const res = await h.request(`/api/matches${query}`, { headers: as.bearer })
  expect(res.status).toBe(200)
  return res.json()
}
const entryFor = async (as: SignedIn, listingId: number, matchId: number) => (await inbox(as)).matches.find((e) => e.listing_id === listingId && e.match.id === matchId)
const setTolerance = (as: SignedIn, city: number, match_tolerance: unknown) => h.request(`/api/geographic/cities/${city}/match-tolerance`, withJson(as.browser, { match_tolerance }, 'PUT'))

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  // Amounts in reasons are in the currency of the listing's country.
  await h.ctx.db.run('update countries set name = ? where id = ?', ['India', place.country.id])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  kiran = await signIn(h.ctx.db, 'BROKER', { cityId: pune, fullName: 'Kiran Rao' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
})

describe('what matches', () => {
  test('a requirement meets an availability of the same city, deal and type, both ways, with reasons in words', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 48_000, size: 550, locality: 'Andheri West', location: 'West', sale_or_rent: 'RENT' })
    const offered = await avl(ravi, type, { budget: 45_000, size: 600, locality: 'andheri west ', location: 'West', sale_or_rent: 'RENT' })
    const fromReq = await matchesOf(asha, wanted.id)
    expect(fromReq.total).toBe(1)
    expect(fromReq.matches[0]!.listing.id).toBe(offered.id)
    expect(fromReq.matches[0]!.reasons).toEqual(['Asking ₹45,000 within budget ₹48,000', '600 sq ft ≥ 550 wanted', 'Same locality: andheri west', 'Posted today'])
    // Budget 35 + size 20 + locality 30 + fresh today 15.
    expect(fromReq.matches[0]!.score).toBe(100)
    const fromAvl = await matchesOf(ravi, offered.id)
    expect(fromAvl.matches.map((m) => m.listing.id)).toEqual([wanted.id])
    expect(fromAvl.matches[0]!.reasons[0]).toBe('Asking ₹45,000 within budget ₹48,000')
  })

  test('each exclusion: another city, the other deal, the same post type, another property type, a closed one', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 100_000 })
    await avl(kiran, type, { budget: 90_000 }) // Pune
    await avl(ravi, type, { budget: 90_000, sale_or_rent: 'RENT' })
    await req(ravi, type, { budget: 90_000 })
    await avl(ravi, `${type} Villa`, { budget: 90_000 })
    await avl(ravi, type, { budget: 90_000, status: 'CLOSED' })
    await avl(ravi, type, { budget: 90_000, status: 'ON_HOLD' })
    expect(await matchIds(asha, wanted.id)).toEqual([])
    const good = await avl(ravi, type, { budget: 90_000 })
    expect(await matchIds(asha, wanted.id)).toEqual([good.id])
  })

  test('property types compare without case and spacing, with the documented equivalences', async () => {
    const n = ++kinds + 10
    const wanted = await req(asha, `${n} BHK`)
    const a = await avl(ravi, `${n}BHK Apartment`)
    const b = await avl(ravi, `${n} bhk flat`)
    const c = await avl(ravi, `${n}-BHK`)
    const villa = await avl(ravi, `${n} BHK Villa`)
    expect((await matchIds(asha, wanted.id)).sort()).toEqual([a.id, b.id, c.id].sort())
    expect(await matchIds(asha, villa.id)).toEqual([])
    const office = await req(asha, `Office Space ${n}`.replace(` ${n}`, ''), { locality: `Office ${n}` })
    const offer = await avl(ravi, 'office', { locality: `Office ${n}` })
    expect(await matchIds(asha, office.id)).toContain(offer.id)
  })

  test('the budget tolerance edge, from both sides, and the city setting moving it', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 100_000 })
    const edge = await avl(ravi, type, { budget: 110_000 })
    const over = await avl(ravi, type, { budget: 110_001 })
    expect(await matchIds(asha, wanted.id)).toEqual([edge.id])
    expect(await matchIds(ravi, edge.id)).toEqual([wanted.id])
    expect(await matchIds(ravi, over.id)).toEqual([])
    const edgeReason = (await matchesOf(asha, wanted.id)).matches[0]!.reasons[0]
    expect(edgeReason).toBe("Asking ₹1,10,000, 10 % over budget ₹1,00,000 (within the city's 10 %)")

    expect(await entryFor(asha, wanted.id, edge.id)).toBeDefined()
    expect((await setTolerance(mumbaiAdmin, mumbai, 0)).status).toBe(200)
    // The inbox follows the city's setting at once: at 0 % the pair no longer holds.
    expect(await entryFor(asha, wanted.id, edge.id)).toBeUndefined()
    const exact = await avl(ravi, type, { budget: 100_000 })
    expect(await matchIds(asha, wanted.id)).toEqual([exact.id])
    expect((await setTolerance(master, mumbai, 30)).status).toBe(200)
    const wide = await avl(ravi, type, { budget: 130_000 })
    expect((await matchIds(asha, wanted.id)).sort()).toEqual([edge.id, over.id, exact.id, wide.id].sort())
    expect(await matchIds(ravi, wide.id)).toEqual([wanted.id])
    expect(await entryFor(asha, wanted.id, edge.id)).toBeDefined()
    expect((await setTolerance(master, mumbai, 10)).status).toBe(200)
  })

  test('size: at least 85 % of the size wanted', async () => {
    const type = kind()
    const wanted = await req(asha, type, { size: 1000 })
    const enough = await avl(ravi, type, { size: 850 })
    await avl(ravi, type, { size: 849 })
    expect(await matchIds(asha, wanted.id)).toEqual([enough.id])
    expect((await matchesOf(asha, wanted.id)).matches[0]!.reasons[0]).toBe('850 sq ft, 15 % under 1,000 wanted')
  })

  test('a missing budget or size neither excludes nor scores', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 50_000, size: 900 })
    const bare = await avl(ravi, type)
    const full = await avl(ravi, type, { budget: 40_000, size: 1000 })
    const found = await matchesOf(asha, wanted.id)
    expect(found.matches.map((m) => m.listing.id)).toEqual([full.id, bare.id])
    const bareMatch = found.matches.find((m) => m.listing.id === bare.id)!
    expect(bareMatch.reasons).toEqual(['Posted today'])
    expect(bareMatch.score).toBe(15)
  })

  test('the same locality ranks above the same zone, which ranks above neither', async () => {
    const type = kind()
    const wanted = await req(asha, type, { locality: 'Bandra', location: 'West' })
    const none = await avl(ravi, type, { location: 'East' })
    const zone = await avl(ravi, type, { location: 'West', locality: 'Khar' })
    const locality = await avl(ravi, type, { locality: 'BANDRA', location: 'East' })
    const found = await matchesOf(asha, wanted.id)
    expect(found.matches.map((m) => m.listing.id)).toEqual([locality.id, zone.id, none.id])
    expect(found.matches.map((m) => m.score)).toEqual([45, 30, 15])
    expect(found.matches[1]!.reasons).toContain('Same zone: West')
  })
})

describe('only ACTIVE listings match', () => {
  test('on hold, closed or suspended leaves the matches and the inbox at once; active again, it returns', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const offered = await avl(ravi, type)
    expect(await matchIds(asha, wanted.id)).toEqual([offered.id])
    expect(await entryFor(asha, wanted.id, offered.id)).toBeDefined()
    for (const [status, by] of [['ON_HOLD', ravi], ['CLOSED', ravi], ['SUSPENDED', mumbaiAdmin]] as const) {
      await patch(by, offered.id, status === 'SUSPENDED' ? { status, suspension_reason: 'Checking the offer' } : { status })
      expect(await matchIds(asha, wanted.id)).toEqual([])
      expect(await entryFor(asha, wanted.id, offered.id)).toBeUndefined()
      await patch(by, offered.id, { status: 'ACTIVE' })
      expect(await matchIds(asha, wanted.id)).toEqual([offered.id])
      expect(await entryFor(asha, wanted.id, offered.id)).toBeDefined()
    }
    // A listing that is not active itself has no matches.
    await patch(asha, wanted.id, { status: 'ON_HOLD' })
    expect(await matchesOf(asha, wanted.id)).toMatchObject({ matches: [], total: 0 })
  })
})

describe('who may ask', () => {
  test('anyone who may see the listing; the others get a 404', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const offered = await avl(ravi, type)
    for (const as of [ravi, kiran, mumbaiAdmin, master]) expect(await matchIds(as, wanted.id)).toEqual([offered.id])
    expect((await h.request(`/api/listings/${wanted.id}/matches`, { headers: puneAdmin.bearer })).status).toBe(404)
    expect((await h.request(`/api/listings/${wanted.id}/matches`)).status).toBe(401)
    await patch(mumbaiAdmin, offered.id, { status: 'SUSPENDED', suspension_reason: 'Checking the offer' })
    // Another broker's suspended listing is invisible to a broker, here as everywhere.
    expect((await h.request(`/api/listings/${offered.id}/matches`, { headers: asha.bearer })).status).toBe(404)
    expect((await h.request(`/api/listings/999999/matches`, { headers: asha.bearer })).status).toBe(404)
    expect((await h.request(`/api/listings/${wanted.id}/matches?per_page=7`, { headers: asha.bearer })).status).toBe(422)
  })

  test('pages of matches', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    for (let i = 0; i < 12; i++) await avl(ravi, type)
    const first = await matchesOf(asha, wanted.id, '?per_page=10')
    const second = await matchesOf(asha, wanted.id, '?per_page=10&page=2')
    expect(first.total).toBe(12)
    expect(first.matches).toHaveLength(10)
    expect(second.matches).toHaveLength(2)
    expect(new Set([...first.matches, ...second.matches].map((m) => m.listing.id)).size).toBe(12)
  })
})

describe('match counts of listings rows', () => {
  test('each visible listing with its count for the caller; dismissed pairs left out for them; bad ids a 422', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const [a, b] = [await avl(ravi, type), await avl(ravi, type)]
    const closed = await avl(ravi, type, { status: 'CLOSED' })
    const counts = async (as: SignedIn, ids: number[]) => {
      const res = await h.request(`/api/listings/match-counts?ids=${ids.join(',')}`, { headers: as.bearer })
      expect(res.status).toBe(200)
      return (await res.json()).counts
    }
    expect(await counts(asha, [wanted.id, a.id, closed.id])).toEqual({ [wanted.id]: 2, [a.id]: 1, [closed.id]: 0 })
    expect(await counts(puneAdmin, [wanted.id])).toEqual({})
    const entry = (await entryFor(asha, wanted.id, b.id))!
    await h.request(`/api/matches/${entry.id}/dismiss`, { method: 'POST', headers: asha.browser })
    expect(await counts(asha, [wanted.id])).toEqual({ [wanted.id]: 1 })
    expect(await counts(master, [wanted.id])).toEqual({ [wanted.id]: 2 })
    for (const bad of ['', 'x', '0', '1,,2', Array.from({ length: 101 }, (_, i) => i + 1).join(',')])
      expect((await h.request(`/api/listings/match-counts?ids=${bad}`, { headers: asha.bearer })).status).toBe(422)
  })
})

describe('the inbox', () => {
  test('a new listing that matches yours arrives unseen in your inbox; its author gets no entry', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 70_000 })
    const before = (await inbox(asha)).unseen
    const offered = await avl(ravi, type, { budget: 65_000 })
    const mine = (await entryFor(asha, wanted.id, offered.id))!
    expect(mine).toMatchObject({ listing_id: wanted.id, seen: false, listing: { id: wanted.id }, match: { id: offered.id } })
    expect(mine.reasons[0]).toBe('Asking ₹65,000 within budget ₹70,000')
    expect((await inbox(asha)).unseen).toBe(before + 1)
    expect((await inbox(asha, '?unseen=1')).matches.map((e) => e.id)).toContain(mine.id)
    expect(await entryFor(ravi, offered.id, wanted.id)).toBeUndefined()
  })

  test('order=unseen_first: every unseen entry, newest first, before the seen ones', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const [older, newer] = [await avl(ravi, type), await avl(ravi, type)]
    const olderEntry = (await entryFor(asha, wanted.id, older.id))!
    const newerEntry = (await entryFor(asha, wanted.id, newer.id))!
    await h.request(`/api/matches/${newerEntry.id}/seen`, { method: 'POST', headers: asha.browser })
    const ordered = (await inbox(asha, '?order=unseen_first&per_page=100')).matches
    const seenAt = ordered.findIndex((e) => e.seen)
    expect(ordered.slice(seenAt).every((e) => e.seen)).toBe(true)
    expect(ordered.findIndex((e) => e.id === olderEntry.id)).toBeLessThan(ordered.findIndex((e) => e.id === newerEntry.id))
    const newest = (await inbox(asha, '?per_page=100')).matches
    expect(newest.findIndex((e) => e.id === newerEntry.id)).toBeLessThan(newest.findIndex((e) => e.id === olderEntry.id))
    expect((await h.request('/api/matches?order=oldest', { headers: asha.bearer })).status).toBe(422)
  })

  test('seen and dismiss: your own entries only; someone else’s is a 404', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const offered = await avl(ravi, type)
    const entry = (await entryFor(asha, wanted.id, offered.id))!
    for (const action of ['seen', 'dismiss']) {
      expect((await h.request(`/api/matches/${entry.id}/${action}`, { method: 'POST', headers: ravi.browser })).status).toBe(404)
      expect((await h.request(`/api/matches/${entry.id}/${action}`, { method: 'POST', headers: kiran.bearer })).status).toBe(404)
    }
    expect((await h.request(`/api/matches/99999999/seen`, { method: 'POST', headers: asha.bearer })).status).toBe(404)
    const unseen = (await inbox(asha)).unseen
    expect((await h.request(`/api/matches/${entry.id}/seen`, { method: 'POST', headers: asha.browser })).status).toBe(204)
    expect((await entryFor(asha, wanted.id, offered.id))!.seen).toBe(true)
    expect((await inbox(asha)).unseen).toBe(unseen - 1)

    expect((await h.request(`/api/matches/${entry.id}/dismiss`, { method: 'POST', headers: asha.browser })).status).toBe(204)
    expect(await entryFor(asha, wanted.id, offered.id)).toBeUndefined()
    // Gone from the owner's view of their listing's matches; the other side still sees the pair.
    expect(await matchIds(asha, wanted.id)).toEqual([])
    expect(await matchIds(ravi, offered.id)).toEqual([wanted.id])
    expect(await matchIds(master, wanted.id)).toEqual([offered.id])
  })

  test('Undo of Not interested (issue 32): the pair is back as it was, unseen if it was; your own entries only', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const offered = await avl(ravi, type)
    const entry = (await entryFor(asha, wanted.id, offered.id))!
    const undo = (as: SignedIn, id = entry.id) => h.request(`/api/matches/${id}/dismiss`, { method: 'DELETE', headers: as.browser })
    const unseen = (await inbox(asha)).unseen
    // Dismissed while new: back, and new again.
    expect((await h.request(`/api/matches/${entry.id}/dismiss`, { method: 'POST', headers: asha.browser })).status).toBe(204)
    expect((await inbox(asha)).unseen).toBe(unseen - 1)
    expect((await undo(ravi)).status).toBe(404)
    expect((await undo(kiran)).status).toBe(404)
    expect((await undo(asha, 99999999)).status).toBe(404)
    expect(await entryFor(asha, wanted.id, offered.id)).toBeUndefined()
    expect((await undo(asha)).status).toBe(204)
    expect((await entryFor(asha, wanted.id, offered.id))!.seen).toBe(false)
    expect((await inbox(asha)).unseen).toBe(unseen)
    expect(await matchIds(asha, wanted.id)).toEqual([offered.id])
    // Nothing to undo is no error, and changes nothing.
    expect((await undo(asha)).status).toBe(204)
    expect((await inbox(asha)).unseen).toBe(unseen)
    // Seen first, then dismissed: back, still seen.
    expect((await h.request(`/api/matches/${entry.id}/seen`, { method: 'POST', headers: asha.browser })).status).toBe(204)
    expect((await h.request(`/api/matches/${entry.id}/dismiss`, { method: 'POST', headers: asha.browser })).status).toBe(204)
    expect((await undo(asha)).status).toBe(204)
    expect((await entryFor(asha, wanted.id, offered.id))!.seen).toBe(true)
    // A bad id is the usual 422.
    expect((await h.request('/api/matches/abc/dismiss', { method: 'DELETE', headers: asha.browser })).status).toBe(422)
  })

  test('a pair is announced once, whatever edits follow; an entry shows only while the pair still matches', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 100_000 })
    const offered = await avl(ravi, type, { budget: 90_000 })
    const count = async () => (await inbox(asha)).matches.filter((e) => e.listing_id === wanted.id).length
    expect(await count()).toBe(1)
    await patch(ravi, offered.id, { budget: 95_000 })
    await patch(ravi, offered.id, { budget: 200_000 })
    expect(await count()).toBe(0)
    await patch(ravi, offered.id, { budget: 99_000 })
    expect(await count()).toBe(1)
    await patch(asha, wanted.id, { status: 'CLOSED' })
    await patch(asha, wanted.id, { status: 'ACTIVE' })
    expect(await count()).toBe(1)
    expect(await h.ctx.db.get('select count(*) as n from listing_matches where listing_id in (?, ?)', [wanted.id, offered.id])).toEqual({ n: 1 })
  })

  test('an edit that makes a pair match for the first time announces it', async () => {
    const type = kind()
    const wanted = await req(asha, type, { budget: 50_000 })
    const offered = await avl(ravi, type, { budget: 90_000 })
    expect(await entryFor(asha, wanted.id, offered.id)).toBeUndefined()
    await patch(ravi, offered.id, { budget: 50_000 })
    expect((await entryFor(asha, wanted.id, offered.id))?.seen).toBe(false)
  })

  test('writes queued together are announced in their order, to the owner who was there first; a queue left behind is drained', async () => {
    const type = kind()
    const row = (owner: SignedIn, postType: 'REQ' | 'AVL') =>
      insertListing(h.ctx.db, { entryId: `Q-${type}-${postType}`, postType, saleOrRent: 'SALE', propertyType: type, contactValue: '9876543210', contactName: 'Q', date: '2026-11-24', ownerUserId: owner.user.id, cityId: mumbai })
    // Written straight to the database and queued as a process would, then left: nobody drained them yet.
    const wanted = await row(asha, 'REQ')
    const offered = await row(ravi, 'AVL')
    await queueAnnouncement(h.ctx.db, offered, 2)
    await queueAnnouncement(h.ctx.db, wanted, 1)
    // (Under BROKERNET_BINARY the binary's own sweep may drain them first: the outcome must be the same.)
    await drainAnnouncements(h.ctx.db)
    expect(await h.ctx.db.all('select listing_id as l, match_id as m, user_id as u from listing_matches where listing_id in (?, ?) or match_id in (?, ?)', [wanted, offered, wanted, offered])).toEqual([
      { l: wanted, m: offered, u: asha.user.id },
    ])
    expect(await drainAnnouncements(h.ctx.db)).toBe(0)
    expect(await h.ctx.db.get('select count(*) as n from match_queue')).toEqual({ n: 0 })
  })

  test('your own listings match each other but are never announced to you', async () => {
    const type = kind()
    const wanted = await req(asha, type)
    const offered = await avl(asha, type)
    expect(await matchIds(asha, wanted.id)).toEqual([offered.id])
    expect(await entryFor(asha, wanted.id, offered.id)).toBeUndefined()
    expect(await entryFor(asha, offered.id, wanted.id)).toBeUndefined()
  })

  test('bad queries are 422 with a detail', async () => {
    const res = await h.request('/api/matches?unseen=maybe', { headers: asha.bearer })
    expect(res.status).toBe(422)
    expect((await res.json()).detail).toBeDefined()
  })
})

describe('the tolerance of a city', () => {
  test('a master admin sets any city, a module admin their own; 0 to 30 only', async () => {
    expect((await setTolerance(mumbaiAdmin, pune, 12)).status).toBe(403)
    expect((await setTolerance(asha, mumbai, 12)).status).toBe(403)
    expect((await setTolerance(puneAdmin, pune, 12)).status).toBe(200)
    for (const bad of [31, -1, 2.5, 'ten']) {
      const res = await setTolerance(master, pune, bad)
      expect(res.status).toBe(422)
      expect(JSON.stringify(await res.json())).toContain('Tolerance must be a whole number from 0 to 30')
    }
    expect((await setTolerance(master, 999_999, 5)).status).toBe(404)
    const res = await setTolerance(master, pune, 20)
    expect(await res.json()).toEqual({ city_id: pune, match_tolerance: 20 })
    const cities = await (await h.request('/api/geographic/cities', { headers: kiran.bearer })).json()
    expect(cities.find((c: { id: number }) => c.id === pune).match_tolerance).toBe(20)
    const audit = (await h.ctx.db.get<{ before: string; after: string }>("select before, after from audit_events where action = 'city.match_tolerance' order by id desc limit 1"))!
    expect(JSON.parse(audit.after)).toEqual({ match_tolerance: 20 })
  })
})
