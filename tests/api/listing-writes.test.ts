// What follows a listing write (src/modules/listings/after-write.ts): one change-feed row per write, the id the
// database would have given, the audit trail and the match queue in the write's transaction.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Change } from '../../db/change-feed'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventually } from '../support/eventually'
import { auditTrail, seedPlace } from '../support/fixtures'
import { listingRow } from '../../src/modules/listings/store'

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
