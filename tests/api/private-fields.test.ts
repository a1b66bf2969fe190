// Issue 35, the foundation: a listing's private fields (seen by its broker and the admins of its scope, nobody else),
// the form's contact check, and visibility (NETWORK, CIRCLE, ONLY_ME) in lists, totals, searches and matching.
// The walk of every documented GET for the private values is tests/api/private-leak.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'
import { drainAnnouncements } from '../../src/modules/matches/service'
import { runMatchDigest } from '../../src/modules/matches/digest'
import { eventStreamReader } from '../support/events'

const h = await createTestApp()
afterAll(() => h.close())

let owner: SignedIn // broker, Mumbai
let other: SignedIn // broker, Mumbai
let friend: SignedIn // broker, Mumbai, in the owner's circle
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let master: SignedIn

type Listing = { id: number; entry_id: string; visibility: string; circle_id: number | null; owner_user_id: number }
type Private = { listing_id: number; owner_name: string | null; owner_phone: string | null; address: string | null; bottom_price: number | null; note: string | null; updated_at: string | null }

let kinds = 0
const kind = () => `Zkind ${++kinds}`

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Owner Broker', phone: '+91 98200 11111' })
  other = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Other Broker' })
  friend = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Friend Broker' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
})

async function post(as: SignedIn, body: Record<string, unknown>): Promise<Listing> {
  const res = await h.request('/api/listings', withJson(as.browser, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: kind(), ...body }))
  expect(res.status, await res.clone().text()).toBe(201)
  return res.json()
}
const privateOf = (as: SignedIn | null, id: number) => h.request(`/api/listings/${id}/private`, { headers: as?.bearer ?? {} })
const list = async (as: SignedIn, query = '') => {
  const res = await h.request(`/api/listings${query}`, { headers: as.bearer })
  expect(res.status).toBe(200)
  return (await res.json()) as { listings: Listing[]; total: number }
}

describe('private fields', () => {
  test('the owner, a module admin of its city and a master admin read them; another broker 403, an admin of another city 404, nobody 401', async () => {
    const l = await post(owner, { private: { owner_name: 'Mrs Kulkarni', owner_phone: '+91 99887 76655', address: 'Flat 1204, Sea View', bottom_price: 9500000, note: 'will go lower in March' } })
    for (const as of [owner, mumbaiAdmin, master]) {
      const res = await privateOf(as, l.id)
      expect(res.status).toBe(200)
      const p = (await res.json()) as Private
      expect(p).toMatchObject({ listing_id: l.id, owner_name: 'Mrs Kulkarni', owner_phone: '+91 99887 76655', address: 'Flat 1204, Sea View', bottom_price: 9500000, note: 'will go lower in March' })
      expect(p.updated_at).not.toBeNull()
    }
    expect((await privateOf(other, l.id)).status).toBe(403)
    expect((await privateOf(puneAdmin, l.id)).status).toBe(404)
    expect((await privateOf(null, l.id)).status).toBe(401)
    // The listing itself carries none of them, for its owner too.
    const seen = JSON.stringify(await (await h.request(`/api/listings/${l.id}`, { headers: owner.bearer })).json())
    expect(seen).not.toContain('Kulkarni')
    expect(seen).not.toContain('99887')
  })

  test('PUT changes the fields sent, keeps the others, null clears; only those who may read them may write them; the audit trail names the fields, never the values', async () => {
    const l = await post(owner, { private: { owner_name: 'Mr Rao', note: 'keys with watchman' } })
    const put = (as: SignedIn, body: unknown) => h.request(`/api/listings/${l.id}/private`, withJson(as.browser, body, 'PUT'))
    const res = await put(owner, { owner_phone: '98111 22233', note: null })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ owner_name: 'Mr Rao', owner_phone: '98111 22233', note: null })
    expect((await put(other, { note: 'mine now' })).status).toBe(403)
    expect((await put(puneAdmin, { note: 'mine now' })).status).toBe(404)
    expect((await put(mumbaiAdmin, { address: 'Plot 7' })).status).toBe(200)
    expect((await (await privateOf(owner, l.id)).json()).note).toBeNull()
    expect((await put(owner, { bottom_price: -1 })).status).toBe(422)
    const audit = await h.ctx.db.all<{ action: string; after: string | null }>("select action, after from audit_events where entity_type = 'listing' and entity_id = ? order by id", [String(l.id)])
    expect(audit.map((a) => a.action)).toEqual(['listing.create', 'listing.private_update', 'listing.private_update'])
    expect(JSON.parse(audit[1]!.after!).private_fields_changed).toEqual(['owner_phone', 'note'])
    const trail = JSON.stringify(audit)
    for (const value of ['Mr Rao', '98111', 'keys with watchman', 'Plot 7']) expect(trail).not.toContain(value)
  })

  test('a search by their content finds nothing, for anyone', async () => {
    const l = await post(owner, { details: 'Bright corner flat', private: { owner_name: 'Qwertyname', address: 'Zyxwvu Towers', note: 'Plughnote' } })
    for (const as of [owner, other, mumbaiAdmin]) {
      for (const word of ['Qwertyname', 'Zyxwvu', 'Plughnote']) expect((await list(as, `?search=${word}`)).total).toBe(0)
      expect((await list(as, '?search=Bright corner')).listings.map((x) => x.id)).toContain(l.id)
    }
  })

  test('the form’s check: a contact that is an owner phone kept private on one of your own listings, and nobody else’s', async () => {
    const l = await post(owner, { private: { owner_phone: '+91 90040 50607' } })
    const check = async (as: SignedIn, contact: string) => {
      const res = await h.request('/api/listings/contact-check', withJson(as.browser, { contact_value: contact }))
      expect(res.status).toBe(200)
      return ((await res.json()) as { private_owner_phone_of: { id: number }[] }).private_owner_phone_of.map((x) => x.id)
    }
    expect(await check(owner, '9004050607')).toEqual([])
    expect(await check(owner, '+91-90040-50607')).toEqual([l.id])
    expect(await check(other, '+91 90040 50607')).toEqual([])
    expect(await check(owner, owner.user.phone!)).toEqual([])
  })

  test('a deleted listing takes its private fields with it', async () => {
    const l = await post(owner, { private: { note: 'to be deleted' } })
    expect((await h.request(`/api/listings/${l.id}`, { method: 'DELETE', headers: owner.browser })).status).toBe(204)
    expect(await h.ctx.db.get('select listing_id from listing_private where listing_id = ?', [l.id])).toBeFalsy()
  })
})

describe('visibility', () => {
  test('ONLY_ME: its owner and the admins of its city see it; other brokers find it in no list, total, search or by id', async () => {
    const base = await list(other)
    const l = await post(owner, { visibility: 'ONLY_ME', details: 'Onlymeflat quiet' })
    expect(l.visibility).toBe('ONLY_ME')
    expect((await h.request(`/api/listings/${l.id}`, { headers: other.bearer })).status).toBe(404)
    const seen = await list(other)
    expect(seen.total).toBe(base.total)
    expect(seen.listings.map((x) => x.id)).not.toContain(l.id)
    expect((await list(other, '?search=Onlymeflat')).total).toBe(0)
    expect((await list(other, '?post_type=AVL&sale_or_rent=SALE')).listings.map((x) => x.id)).not.toContain(l.id)
    for (const as of [owner, mumbaiAdmin, master]) {
      expect((await list(as, '?search=Onlymeflat')).listings.map((x) => x.id)).toEqual([l.id])
      expect((await list(as, '?search=Onlymeflat')).total).toBe(1)
    }
    expect((await list(puneAdmin, '?search=Onlymeflat')).total).toBe(0)
  })

  test('CIRCLE: the members of the chosen circle see it, others do not; a member taken out (or the circle deleted) no longer does', async () => {
    const made = await h.request('/api/circles', withJson(owner.browser, { name: 'Trusted' }))
    expect(made.status).toBe(201)
    const circle = (await made.json()) as { id: number }
    expect((await h.request(`/api/circles/${circle.id}/members`, withJson(owner.browser, { email: friend.user.email }))).status).toBe(200)
    // Another's circle is not found, and a CIRCLE listing needs one of its owner's circles.
    expect((await h.request(`/api/circles/${circle.id}/members`, withJson(other.browser, { user_id: other.user.id }))).status).toBe(404)
    const refused = await h.request('/api/listings', withJson(other.browser, { post_type: 'AVL', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: kind(), visibility: 'CIRCLE', circle_id: circle.id }))
    expect(refused.status).toBe(422)

    const countOther = (await list(other)).total
    const countFriend = (await list(friend)).total
    const l = await post(owner, { visibility: 'CIRCLE', circle_id: circle.id, details: 'Circleflat sunny' })
    expect((await list(friend, '?search=Circleflat')).listings.map((x) => x.id)).toEqual([l.id])
    expect((await list(friend)).total).toBe(countFriend + 1)
    expect((await list(other)).total).toBe(countOther)
    expect((await h.request(`/api/listings/${l.id}`, { headers: other.bearer })).status).toBe(404)
    expect((await h.request(`/api/listings/${l.id}`, { headers: friend.bearer })).status).toBe(200)

    // Out of the circle: the cached list and total follow at once.
    expect((await h.request(`/api/circles/${circle.id}/members/${friend.user.id}`, { method: 'DELETE', headers: owner.browser })).status).toBe(200)
    expect((await list(friend)).total).toBe(countFriend)
    expect((await h.request(`/api/listings/${l.id}`, { headers: friend.bearer })).status).toBe(404)
    // Shown to the network: everyone.
    expect((await h.request(`/api/listings/${l.id}`, withJson(owner.browser, { visibility: 'NETWORK' }, 'PATCH'))).status).toBe(200)
    expect((await list(other)).total).toBe(countOther + 1)
    expect((await list(friend)).total).toBe(countFriend + 1)
    const audit = await h.ctx.db.all<{ action: string }>("select action from audit_events where entity_type = 'circle' and entity_id = ? order by id", [String(circle.id)])
    expect(audit.map((a) => a.action)).toEqual(['circle.create', 'circle.add_member', 'circle.remove_member'])
  })

  test('INSTANT saved-search alerts: a circle’s listing reaches its members’ streams, not other brokers’', async () => {
    const type = kind()
    const circle = (await (await h.request('/api/circles', withJson(owner.browser, { name: `Alerts ${type}` }))).json()) as { id: number }
    await h.request(`/api/circles/${circle.id}/members`, withJson(owner.browser, { user_id: friend.user.id }))
    const streams: { abort: AbortController; cancel: () => void }[] = []
    const connect = async (as: SignedIn) => {
      const abort = new AbortController()
      const res = await h.request('/api/events', { headers: as.bearer, signal: abort.signal })
      expect(res.status).toBe(200)
      const reader = eventStreamReader(res)
      streams.push({ abort, cancel: reader.cancel })
      await reader.expect('matches') // connected
      return reader
    }
    try {
      for (const as of [friend, other])
        expect((await h.request('/api/saved-searches', withJson(as.browser, { name: `Alert ${type}`, filters: { property_type: type }, alert: 'INSTANT' }))).status).toBe(201)
      const [friendStream, otherStream] = [await connect(friend), await connect(other)]
      const circled = await post(owner, { property_type: type, visibility: 'CIRCLE', circle_id: circle.id })
      expect((await friendStream.expect('saved_search')).listing.id).toBe(circled.id)
      // A listing of the network after it: the other broker's stream has that one, and never the circle's.
      const open = await post(owner, { property_type: type })
      expect((await otherStream.expect('saved_search')).listing.id).toBe(open.id)
      expect(await otherStream.next('saved_search', 500)).toBeNull()
    } finally {
      for (const s of streams) (s.cancel(), s.abort.abort())
    }
  })

  test('matching both ways: an ONLY_ME listing is matched for its owner only, and a circle’s listing is announced to its members only', async () => {
    const type = kind()
    const want = await post(other, { post_type: 'REQ', property_type: type, budget: 5_000_000 })
    const friendWant = await post(friend, { post_type: 'REQ', property_type: type, budget: 5_000_000 })
    const hidden = await post(owner, { post_type: 'AVL', property_type: type, budget: 5_000_000, visibility: 'ONLY_ME' })
    await drainAnnouncements(h.ctx.db)
    const inbox = async (as: SignedIn) => ((await (await h.request('/api/matches', { headers: as.bearer })).json()) as { matches: { match: { id: number } }[] }).matches.map((m) => m.match.id)
    expect(await inbox(other)).not.toContain(hidden.id)
    expect(await inbox(friend)).not.toContain(hidden.id)
    // Its owner sees the requirements it matches on its Matches tab; the brokers of those requirements do not see it.
    const mine = (await (await h.request(`/api/listings/${hidden.id}/matches`, { headers: owner.bearer })).json()) as { matches: { listing: { id: number } }[]; total: number }
    expect(mine.matches.map((m) => m.listing.id).sort()).toEqual([want.id, friendWant.id].sort())
    const theirs = (await (await h.request(`/api/listings/${want.id}/matches`, { headers: other.bearer })).json()) as { matches: { listing: { id: number } }[]; total: number }
    expect(theirs.matches.map((m) => m.listing.id)).not.toContain(hidden.id)
    expect(theirs.total).toBe(0)
    const counts = (await (await h.request(`/api/listings/match-counts?ids=${want.id},${friendWant.id}`, { headers: other.bearer })).json()) as { counts: Record<string, number> }
    expect(counts.counts[String(want.id)]).toBe(0)
    expect((await (await h.request(`/api/listings/match-counts?ids=${hidden.id}`, { headers: owner.bearer })).json()).counts[String(hidden.id)]).toBe(2)

    // Shown to a circle holding the friend: announced to the friend, not to the other broker.
    const circle = (await (await h.request('/api/circles', withJson(owner.browser, { name: `Circle ${type}` }))).json()) as { id: number }
    await h.request(`/api/circles/${circle.id}/members`, withJson(owner.browser, { user_id: friend.user.id }))
    expect((await h.request(`/api/listings/${hidden.id}`, withJson(owner.browser, { visibility: 'CIRCLE', circle_id: circle.id }, 'PATCH'))).status).toBe(200)
    await drainAnnouncements(h.ctx.db)
    expect(await inbox(friend)).toContain(hidden.id)
    expect(await inbox(other)).not.toContain(hidden.id)

    // Made ONLY_ME again after it was announced: gone from the friend's inbox, its unseen count and the digest mail.
    const unseen = async () => ((await (await h.request('/api/matches', { headers: friend.bearer })).json()) as { unseen: number }).unseen
    const before = await unseen()
    expect((await h.request(`/api/listings/${hidden.id}`, withJson(owner.browser, { visibility: 'ONLY_ME' }, 'PATCH'))).status).toBe(200)
    expect(await inbox(friend)).not.toContain(hidden.id)
    expect(await unseen()).toBe(before - 1)
    const shown = await post(owner, { post_type: 'AVL', property_type: type, budget: 5_000_000 })
    await drainAnnouncements(h.ctx.db)
    await runMatchDigest({ db: h.ctx.db, mail: h.ctx.mail, config: { ...h.ctx.config, matchDigestHours: 1 } })
    await h.mailIdle()
    const mails = JSON.stringify(await h.ctx.db.all<Record<string, unknown>>('select * from mail_outbox where to_address = ?', [friend.user.email]))
    expect(mails).toContain(shown.entry_id)
    expect(mails).not.toContain(hidden.entry_id)
  })
})
