// What follows a listing write (src/modules/listings/after-write.ts): one change-feed row per write, the id the
// database would have given, the audit trail and the match queue in the write's transaction.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Change } from '../../db/change-feed'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { auditTrail, seedPlace } from '../support/fixtures'
import { CHANGED_MEANWHILE, listingRow, updatedRow, updateListingAsRead } from '../../src/modules/listings/store'
import { StaleWrite } from '../../db/faults'

const h = await createTestApp()
afterAll(() => h.close())
let asha: SignedIn
let ravi: SignedIn

/** Every listing change this process hears of, from any writer (the app in process, or the binary), in commit order. */
const heard: Change[] = []
h.ctx.feed.subscribe((e) => {
  if ('changes' in e) heard.push(...e.changes.filter((c) => c.topic === 'listing'))
})
const changesOf = (id: number) => heard.filter((c) => (c.after ?? c.before)!.id === id)

const draft = { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2 BHK Apartment', locality: 'Andheri West', budget: 2_500_000 }
async function post(as: SignedIn, body: Record<string, unknown> = {}) {
  const res = await h.request('/api/listings', withJson(as.browser, { ...draft, ...body }))
  expect(res.status).toBe(201)
  return (await res.json()) as { id: number; entry_id: string }
}

/** Waits until the feed has handed out the change of listing `id` (SQLite: read on sync; PostgreSQL: notified). */
const heardOf = (id: number) =>
  eventually(`the feed's change of listing ${id}`, () => {
    h.ctx.feed.sync()
    return changesOf(id).length > 0
  })

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai'])
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Ravi Kumar' })
})

test('a new listing is one change-feed row: inserted whole, with its entry ID', async () => {
  const created = await post(asha)
  // A later write, heard after it: every change of the first write's transaction has been handed out by then.
  const later = await post(ravi, { post_type: 'AVL' })
  await heardOf(later.id)
  const changes = changesOf(created.id)
  expect(changes).toHaveLength(1)
  expect(changes[0]!.before).toBeNull()
  expect(String(changes[0]!.after!.text)).toStartWith(`${created.entry_id} Asha Verma`)
})

test('a listing gets the id the database would have given it: past the newest, even one deleted', async () => {
  const first = await post(asha, { locality: 'Bandra' })
  const second = await post(asha, { locality: 'Juhu' })
  expect(second.id).toBe(first.id + 1)
  expect((await h.request(`/api/listings/${second.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
  const third = await post(asha, { locality: 'Powai' })
  expect(third.id).toBe(second.id + 1)
  expect(third.entry_id).toBe(`REQ-MUM-${String(third.id).padStart(6, '0')}`)
})

test('the audit trail and the match queue are written with the listing; its matches are announced after', async () => {
  const created = await post(asha, { post_type: 'REQ', locality: 'Worli', budget: 5_000_000 })
  const offer = await post(ravi, { post_type: 'AVL', locality: 'Worli', budget: 5_000_000 })
  expect(await auditTrail(h.ctx.db, { action: 'listing.create', entityId: created.id })).toHaveLength(1)
  expect(await auditTrail(h.ctx.db, { action: 'listing.create', entityId: offer.id })).toHaveLength(1)
  // Announced once the answer is sent: Asha's requirement is told of Ravi's offer, and the queue is empty again.
  await eventually('the announcement of the offer', async () => (await h.ctx.db.get('select id from listing_matches where listing_id = ? and match_id = ?', [created.id, offer.id])) !== undefined)
  await eventually('the match queue drained', async () => (await h.ctx.db.get('select listing_id from match_queue limit 1')) === undefined)
})

// Issue 36: a post's audit row goes out with its insert, so the row it records is computed from the post's fields
// (insertedRow in src/modules/listings/store.ts), not read back. It must be the row the database stored, column for
// column, whatever the post sends or leaves out.
test("a post's audit records the row exactly as stored: every field sent, or only the required ones", async () => {
  const circle = (await (await h.request('/api/circles', withJson(asha.browser, { name: 'Audit circle' }))).json()) as { id: number }
  const full = await post(asha, {
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    budget: 45_500.5,
    size: 1234.56,
    location: 'West',
    locality: '  Versova  ',
    reference: 'Ref 7',
    type_details: 'Sea facing',
    details: 'Every field of a post',
    comments: 'Keys with the watchman',
    google_location_url: 'https://maps.example/versova',
    status: 'ON_HOLD',
    visibility: 'CIRCLE',
    circle_id: circle.id,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    private: { owner_name: 'Owner Name', bottom_price: 40_000 },
  })
  const bare = await post(ravi, { locality: undefined, budget: undefined, property_type: 'Shop' })
  for (const { id } of [full, bare]) {
    const [created] = await auditTrail(h.ctx.db, { action: 'listing.create', entityId: id })
    const { private_fields_changed, ...after } = created!.after as Record<string, unknown>
    expect(after).toEqual({ ...(await listingRow(h.ctx.db, id))! })
    expect(private_fields_changed).toEqual(id === full.id ? ['owner_name', 'bottom_price'] : undefined)
  }
})

// Issue 36: an edit and a renewal send their audit row with the update, not after its answer, so the row they record
// is the row as read with the changes on it (updatedRow in src/modules/listings/store.ts). It must be the row stored.
test("an edit's, a suspension's and a renewal's audit record the row exactly as stored", async () => {
  const admin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: asha.user.cityId!, fullName: 'Meera Admin' })
  const circle = (await (await h.request('/api/circles', withJson(asha.browser, { name: 'Edit circle' }))).json()) as { id: number }
  const { id } = await post(asha, { locality: 'Khar', budget: 3_000_000 })
  const patch = async (as: SignedIn, body: Record<string, unknown>) => {
    const res = await h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))
    expect(res.status).toBe(200)
  }
  await patch(asha, { budget: 3_100_000.5, size: 777.25, location: 'West', details: 'Edited', comments: null, status: 'ON_HOLD', visibility: 'CIRCLE', circle_id: circle.id })
  await patch(asha, { status: 'ACTIVE', visibility: 'NETWORK', expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(), onward_sharing: 'NAMED' })
  await patch(admin, { status: 'SUSPENDED', suspension_reason: 'Wrong price' })
  await patch(admin, { status: 'ACTIVE' })
  expect((await h.request(`/api/listings/${id}/renew`, { method: 'POST', headers: asha.browser })).status).toBe(200)
  const trail = (await auditTrail(h.ctx.db, { entityId: id })).filter((a) => a.action !== 'listing.create')
  expect(trail.map((a) => a.action)).toEqual(['listing.update', 'listing.update', 'listing.suspend', 'listing.reactivate', 'listing.renew'])
  // Each write's `after` is the next one's `before`, and the last is the row as it is now.
  for (let i = 1; i < trail.length; i++) expect(trail[i]!.before).toEqual(trail[i - 1]!.after)
  const { via, ...last } = trail.at(-1)!.after as Record<string, unknown>
  expect(via).toBe('api')
  expect(last).toEqual({ ...(await listingRow(h.ctx.db, id))! })
})

// The update goes out with the rest of its transaction (PostgreSQL: one round trip); when the listing changed since it
// was read, it refuses, and nothing sent with it or after it commits, whether the work awaited a later statement or not.
for (const awaited of [false, true])
  test(`a change of a listing read before another write refuses whole (StaleWrite), a later statement ${awaited ? 'awaited' : 'not awaited'}`, async () => {
    const { id } = await post(asha, { locality: `Stale ${awaited}` })
    const read = (await listingRow(h.ctx.db, id))!
    await h.ctx.db.run("update listings set status = 'CLOSED' where id = ?", [id])
    const marker = `stale.${awaited}`
    const attempt = h.ctx.db.tx(async (tx) => {
      const stored = updateListingAsRead(tx, id, { budget: 1 }, { status: read.status, suspendedBy: read.suspendedBy })
      tx.defer(stored)
      const later = tx.run("insert into audit_events (action, entity_type, entity_id, created_at) values (?, 'listing', ?, ?)", [marker, String(id), Date.now()])
      if (awaited) await later
      else tx.defer(later)
    })
    const refused = await attempt.then(() => null, (e: unknown) => e)
    expect(refused).toBeInstanceOf(StaleWrite)
    expect((refused as Error).message).toBe(CHANGED_MEANWHILE)
    expect(await auditTrail(h.ctx.db, { action: marker })).toEqual([])
    expect(await listingRow(h.ctx.db, id)).toEqual({ ...read, status: 'CLOSED' })
    // And the same change of the listing as it now is goes through.
    const now = (await listingRow(h.ctx.db, id))!
    const stored = await h.ctx.db.tx((tx) => updateListingAsRead(tx, id, { budget: 2 }, { status: now.status, suspendedBy: now.suspendedBy }))
    expect(stored).toEqual(updatedRow(now, { budget: 2 }))
  })

test('a renewal racing another write refuses as stale, with the detail the handler answers with its 409', async () => {
  const { id } = await post(asha, { locality: 'Race' })
  const read = (await listingRow(h.ctx.db, id))!
  await h.ctx.db.run("update listings set status = 'CLOSED' where id = ?", [id])
  const { renew } = await import('../../src/modules/listings/service')
  const refused = await renew(h.ctx, { within: async () => {}, committed: () => {} }, { id: asha.user.id, fullName: 'Asha Verma' }, read, 'api').then(
    () => null,
    (e: unknown) => e,
  )
  expect(refused).toBeInstanceOf(StaleWrite)
  expect((refused as Error).message).toBe(CHANGED_MEANWHILE)
})

// An edit's audit is the row as it read it with its changes: a column another write changed in between is not its
// doing, and the caches are given the row as stored. Only a difference in what it changed is a fault worth an error.
test('a renewal after another write changed other columns: audited as read, answered as stored, no fault logged', async () => {
  // An app of its own that logs its errors (the shared one logs nothing).
  const logged = await createTestApp({ LOG_LEVEL: 'error' })
  try {
    const place = await seedPlace(logged.ctx.db, ['Pune'])
    const owner = await signIn(logged.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Nita Rao' })
    const res = await logged.request('/api/listings', withJson(owner.browser, { ...draft, locality: 'Between', details: 'First words' }))
    const { id } = (await res.json()) as { id: number }
    const read = (await listingRow(logged.ctx.db, id))!
    await logged.ctx.db.run("update listings set details = 'Changed meanwhile' where id = ?", [id])
    const { renew } = await import('../../src/modules/listings/service')
    const renewed = await renew(logged.ctx, { within: async () => {}, committed: () => {} }, { id: owner.user.id, fullName: 'Nita Rao' }, read, 'api')
    expect(renewed).toEqual({ ...(await listingRow(logged.ctx.db, id))! })
    expect(renewed.details).toBe('Changed meanwhile')
    // The column another write changed is not this one's: no fault (comparing every column would log one).
    const faults = () => logged.logLines().filter((l) => l.msg === 'a listing’s written row differs from the one its audit recorded').length
    expect(faults()).toBe(0)
  } finally {
    await logged.close()
  }
})
