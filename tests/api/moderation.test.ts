// Moderation (issue 29, finding 1): a suspension by an admin is theirs to lift. The owner cannot reactivate it by any
// route (403 naming who may), sees it with the admin's reason (required when an admin suspends), and may ask for a
// review, which mails the admins of the listing's city and the master admins (through a real SMTP server). A broker's
// own suspension stays theirs to lift. In process, against the binary (BROKERNET_BINARY) and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { renewKey, renewToken } from '../../src/modules/listings/renew-link'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { auditTrail, seedPlace } from '../support/fixtures'
import { decodeQp, startSmtp } from '../support/smtp'

const PUBLIC_URL = 'https://brokernet.test'
const smtp = await startSmtp()
const h = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL })
afterAll(async () => {
  await h.close()
  await smtp.close()
})

type Moderation = { reason: string; suspended_at: string; review_requested_at: string | null; review_note: string | null }
type Answer = { id: number; entry_id: string; status: string; moderation: Moderation | null; is_editable: boolean; details: string | null }

let mumbai: number
let pune: number
let asha: SignedIn // broker, Mumbai: the owner
let ravi: SignedIn // broker, Mumbai: another broker
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let master: SignedIn
let retired: SignedIn // a master admin whose account is inactive: told nothing

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Ravi Kumar' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai, fullName: 'Mira Admin' })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune, fullName: 'Pia Admin' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  retired = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Rex Retired' })
  await h.ctx.db.run('update users set is_active = false where id = ?', [retired.user.id])
})

let posted = 0
async function post(as: SignedIn = asha, body: Record<string, unknown> = {}): Promise<Answer> {
  const res = await h.request(
    '/api/listings',
    withJson(as.browser, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: `98200 1${String(++posted).padStart(4, '0')}`, property_type: '2 BHK', details: `Flat number ${posted}`, ...body }),
  )
  expect(res.status).toBe(201)
  return res.json()
}
const patch = (as: SignedIn, id: number, body: unknown) => h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))
const renew = (as: SignedIn, id: number) => h.request(`/api/listings/${id}/renew`, withJson(as.browser, {}))
const askReview = (as: SignedIn, id: number, body: unknown = {}) => h.request(`/api/listings/${id}/review-request`, withJson(as.browser, body))
const get = async (as: SignedIn, id: number): Promise<Answer> => (await h.request(`/api/listings/${id}`, { headers: as.bearer })).json()
const detailOf = async (res: Response) => ((await res.json()) as { detail: unknown }).detail
const fieldMessages = async (res: Response) =>
  Object.fromEntries(((await res.json()).detail as { loc: string[]; msg: string }[]).map((d) => [d.loc.at(-1), d.msg]))
/** An admin's suspension, checked to have worked. */
async function suspendAsAdmin(id: number, reason = 'The contact number does not answer', as: SignedIn = mumbaiAdmin): Promise<Answer> {
  const res = await patch(as, id, { status: 'SUSPENDED', suspension_reason: reason })
  expect(res.status).toBe(200)
  return res.json()
}
const mailsTo = (who: SignedIn, text: string) => smtp.received.filter((m) => m.to.includes(who.user.email) && decodeQp(m.raw).includes(text)).map((m) => decodeQp(m.raw))
const refusal = 'This listing was suspended by an admin: only an admin of Mumbai (or a master admin) can reactivate it.'

describe('the tester’s case: an admin suspends, the owner tries to reactivate', () => {
  test('the master admin’s suspension sticks: the owner’s PATCH to ACTIVE is 403 naming who may, and the listing stays SUSPENDED', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id, 'Photos of another property', master)
    const res = await patch(asha, listing.id, { status: 'ACTIVE' })
    expect(res.status).toBe(403)
    expect(await detailOf(res)).toStartWith(refusal)
    expect((await get(asha, listing.id)).status).toBe('SUSPENDED')
  })
})

describe('a broker’s own suspension stays theirs', () => {
  test('the owner suspends without a reason, carries no moderation, and reactivates it', async () => {
    const listing = await post()
    const suspended = await patch(asha, listing.id, { status: 'SUSPENDED' })
    expect(suspended.status).toBe(200)
    expect(await suspended.json()).toMatchObject({ status: 'SUSPENDED', moderation: null })
    const back = await patch(asha, listing.id, { status: 'ACTIVE' })
    expect(back.status).toBe(200)
    expect(await back.json()).toMatchObject({ status: 'ACTIVE', moderation: null })
    expect((await auditTrail(h.ctx.db, { action: 'listing.reactivate', entityId: listing.id }))[0]!.actorUserId).toBe(asha.user.id)
  })

  test('an admin suspending their own listing needs no reason, and it is no moderation', async () => {
    const own = await post(mumbaiAdmin, { details: 'Posted by the admin' })
    const res = await patch(mumbaiAdmin, own.id, { status: 'SUSPENDED' })
    expect(res.status).toBe(200)
    expect((await res.json()).moderation).toBeNull()
    expect((await patch(mumbaiAdmin, own.id, { status: 'SUSPENDED', suspension_reason: 'mine' })).status).toBe(422)
  })

  test('the owner cannot give a reason (only an admin suspending another’s listing does)', async () => {
    const listing = await post()
    const res = await patch(asha, listing.id, { status: 'SUSPENDED', suspension_reason: 'Taking a break' })
    expect(res.status).toBe(422)
    expect((await fieldMessages(res)).suspension_reason).toBe('Only an admin suspending another broker’s listing gives a suspension_reason')
    expect((await get(asha, listing.id)).status).toBe('ACTIVE')
  })
})

describe('an admin suspends', () => {
  test('a reason is required: missing, blank or too long is 422 naming suspension_reason, and nothing changes', async () => {
    const listing = await post()
    for (const [body, message] of [
      [{ status: 'SUSPENDED' }, 'A reason is required when an admin suspends a listing'],
      [{ status: 'SUSPENDED', suspension_reason: '   ' }, 'A reason is required when an admin suspends a listing'],
      [{ status: 'SUSPENDED', suspension_reason: 'x'.repeat(501) }, 'The reason must be at most 500 characters'],
    ] as const) {
      const res = await patch(mumbaiAdmin, listing.id, body)
      expect(res.status).toBe(422)
      expect((await fieldMessages(res)).suspension_reason).toBe(message)
    }
    // Not with another status, and not on a listing that is not suspended.
    expect((await patch(mumbaiAdmin, listing.id, { status: 'ACTIVE', suspension_reason: 'why' })).status).toBe(422)
    expect((await patch(mumbaiAdmin, listing.id, { suspension_reason: 'why' })).status).toBe(422)
    expect((await get(asha, listing.id)).status).toBe('ACTIVE')
    expect(await auditTrail(h.ctx.db, { action: 'listing.suspend', entityId: listing.id })).toEqual([])
  })

  test('with a reason: the answer carries it, the owner sees it too, the audit keeps it, and the owner is mailed', async () => {
    const listing = await post()
    const before = Date.now()
    const answer = await suspendAsAdmin(listing.id, '  The contact number does not answer  ')
    expect(answer.status).toBe('SUSPENDED')
    expect(answer.moderation).toEqual({ reason: 'The contact number does not answer', suspended_at: expect.any(String), review_requested_at: null, review_note: null })
    expect(Date.parse(answer.moderation!.suspended_at)).toBeGreaterThanOrEqual(before - 1000)
    expect((await get(asha, listing.id)).moderation).toEqual(answer.moderation)
    const mine = (await (await h.request('/api/listings/my', { headers: asha.bearer })).json()) as Answer[]
    expect(mine.find((l) => l.id === listing.id)!.moderation?.reason).toBe('The contact number does not answer')
    const [event] = await auditTrail(h.ctx.db, { action: 'listing.suspend', entityId: listing.id })
    expect(event).toMatchObject({ actorUserId: mumbaiAdmin.user.id, reason: 'The contact number does not answer', cityId: mumbai })
    expect(event!.after).toMatchObject({ status: 'SUSPENDED', suspendedBy: mumbaiAdmin.user.id, suspensionReason: 'The contact number does not answer' })
    const mail = await smtp.messageTo(asha.user.email, `Your listing ${listing.entry_id} was suspended by an admin`)
    expect(mail).toContain('Reason: The contact number does not answer')
    expect(mail).toContain(`${PUBLIC_URL}/dashboard/my-listings`)
  })

  test('other brokers do not see it; a module admin of another city finds nothing (404) to suspend or lift', async () => {
    const listing = await post()
    expect((await patch(puneAdmin, listing.id, { status: 'SUSPENDED', suspension_reason: 'Not mine to judge' })).status).toBe(404)
    await suspendAsAdmin(listing.id)
    expect((await h.request(`/api/listings/${listing.id}`, { headers: ravi.bearer })).status).toBe(404)
    expect((await patch(ravi, listing.id, { status: 'ACTIVE' })).status).toBe(404)
    expect((await patch(puneAdmin, listing.id, { status: 'ACTIVE' })).status).toBe(404)
    expect((await get(mumbaiAdmin, listing.id)).status).toBe('SUSPENDED')
  })
})

describe('the owner cannot lift it by any route', () => {
  let listing: Answer
  beforeAll(async () => {
    listing = await post(asha, { sale_or_rent: 'SALE' })
    await suspendAsAdmin(listing.id)
  })

  test.each([
    ['reactivate (PATCH status ACTIVE)', { status: 'ACTIVE' }],
    ['close it', { status: 'CLOSED' }],
    ['put it on hold', { status: 'ON_HOLD' }],
    ['save the edit form with the status ACTIVE', { status: 'ACTIVE', details: 'Freshly edited' }],
    ['give it a new end together with ACTIVE', { status: 'ACTIVE', expires_at: new Date(Date.now() + 86_400_000).toISOString() }],
  ])('%s: 403 naming who may; nothing changes', async (_what, body) => {
    const res = await patch(asha, listing.id, body)
    expect(res.status).toBe(403)
    expect(await detailOf(res)).toStartWith(refusal)
    const now = await get(asha, listing.id)
    expect(now.status).toBe('SUSPENDED')
    expect(now.details).toBe(listing.details)
  })

  test('renew: 403 with the same detail (a suspended listing is not renewed by anyone, 409 for an admin)', async () => {
    const res = await renew(asha, listing.id)
    expect(res.status).toBe(403)
    expect(await detailOf(res)).toStartWith(refusal)
    expect((await renew(mumbaiAdmin, listing.id)).status).toBe(409)
    expect((await get(asha, listing.id)).status).toBe('SUSPENDED')
  })

  test('a renew link from a reminder neither renews it nor reactivates it, and its page says why', async () => {
    const { expires_at } = (await (await h.request(`/api/listings/${listing.id}`, { headers: asha.bearer })).json()) as { expires_at: string }
    const link = renewToken(await renewKey(h.ctx.db), { id: listing.id, expiresAt: Date.parse(expires_at) }, Date.now())
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }
    for (const res of [await h.request(`/renew/${link}`), await h.request(`/renew/${link}`, form)]) {
      expect(res.status).toBe(409)
      expect(await res.text()).toContain('was suspended by an admin, so it cannot be renewed')
    }
    expect((await get(asha, listing.id)).status).toBe('SUSPENDED')
  })

  test('its other fields stay the owner’s to put right: the edit is saved and the suspension stays', async () => {
    const res = await patch(asha, listing.id, { details: 'Contact number corrected', contact_value: '98200 99999', status: 'SUSPENDED' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'SUSPENDED', details: 'Contact number corrected', moderation: { reason: 'The contact number does not answer' } })
  })

  test('deleting it is still the owner’s right (it does not put it back on the network)', async () => {
    const other = await post()
    await suspendAsAdmin(other.id)
    expect((await h.request(`/api/listings/${other.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(204)
  })
})

describe('asking for a review', () => {
  test('the owner asks with a note: the admins of its city and the master admins are mailed, it is audited and tagged', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id)
    const res = await askReview(asha, listing.id, { note: '  I corrected the number.  ' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { listing: Answer; admins_notified: number }
    expect(body.admins_notified).toBe(2) // Mumbai's module admin and the active master admin
    expect(body.listing.moderation).toMatchObject({ reason: 'The contact number does not answer', review_requested_at: expect.any(String), review_note: 'I corrected the number.' })
    for (const admin of [mumbaiAdmin, master]) {
      const mail = await smtp.messageTo(admin.user.email, `Review requested: ${listing.entry_id} (Mumbai)`)
      expect(mail).toContain('Asha Verma asks for a review')
      expect(mail).toContain('Reason given: The contact number does not answer')
      expect(mail).toContain('Their note: I corrected the number.')
      expect(mail).toContain(`${PUBLIC_URL}/dashboard/listings?search=${listing.entry_id}&status=SUSPENDED`)
    }
    await h.mailIdle()
    expect(mailsTo(puneAdmin, listing.entry_id)).toEqual([])
    expect(mailsTo(retired, listing.entry_id)).toEqual([])
    const [event] = await auditTrail(h.ctx.db, { action: 'listing.review_request', entityId: listing.id })
    expect(event).toMatchObject({ actorUserId: asha.user.id, reason: 'I corrected the number.', cityId: mumbai })
    // The admins' filter finds it; the grid's count follows.
    const waiting = await (await h.request(`/api/listings/?review_requested=true&per_page=100`, { headers: mumbaiAdmin.bearer })).json()
    expect(waiting.listings.map((l: Answer) => l.id)).toContain(listing.id)
    expect(waiting.listings.every((l: Answer) => l.moderation?.review_requested_at)).toBe(true)
    expect((await (await h.request(`/api/listings/?review_requested=true`, { headers: puneAdmin.bearer })).json()).total).toBe(0)
  })

  test('once pending, asking again is 409; the admins who could answer get 403; other brokers 404', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id)
    expect((await askReview(asha, listing.id)).status).toBe(200)
    const again = await askReview(asha, listing.id)
    expect(again.status).toBe(409)
    expect(await detailOf(again)).toStartWith('A review was already asked for')
    expect((await askReview(mumbaiAdmin, listing.id)).status).toBe(403)
    expect((await askReview(master, listing.id)).status).toBe(403)
    expect((await askReview(ravi, listing.id)).status).toBe(404)
    expect((await askReview(puneAdmin, listing.id)).status).toBe(404)
    expect(await auditTrail(h.ctx.db, { action: 'listing.review_request', entityId: listing.id })).toHaveLength(1)
  })

  test('nothing to review (409): an ACTIVE listing, or one its owner suspended', async () => {
    const listing = await post()
    const res = await askReview(asha, listing.id)
    expect(res.status).toBe(409)
    expect(await detailOf(res)).toBe('This listing is not suspended by an admin: there is no suspension to review')
    await patch(asha, listing.id, { status: 'SUSPENDED' })
    expect((await askReview(asha, listing.id)).status).toBe(409)
  })

  test('a note over 1,000 characters is 422; no body at all is a request without a note', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id)
    const long = await askReview(asha, listing.id, { note: 'x'.repeat(1001) })
    expect(long.status).toBe(422)
    expect((await fieldMessages(long)).note).toBe('The note must be at most 1000 characters')
    const bare = await h.request(`/api/listings/${listing.id}/review-request`, { method: 'POST', headers: asha.browser })
    expect(bare.status).toBe(200)
    expect(((await bare.json()) as { listing: Answer }).listing.moderation!.review_note).toBeNull()
  })
})

describe('an admin answers', () => {
  test('keeping it suspended with a new reason answers the review: audited as upheld, the owner is mailed and may ask again', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id)
    expect((await askReview(asha, listing.id, { note: 'Fixed' })).status).toBe(200)
    const res = await patch(master, listing.id, { suspension_reason: 'The number still does not answer' })
    expect(res.status).toBe(200)
    expect((await res.json()).moderation).toMatchObject({ reason: 'The number still does not answer', review_requested_at: null, review_note: null })
    const [event] = await auditTrail(h.ctx.db, { action: 'listing.suspension_upheld', entityId: listing.id })
    expect(event).toMatchObject({ actorUserId: master.user.id, reason: 'The number still does not answer' })
    const mail = await smtp.messageTo(asha.user.email, `Your listing ${listing.entry_id} stays suspended`)
    expect(mail).toContain('Reason: The number still does not answer')
    expect((await (await h.request(`/api/listings/?review_requested=true&per_page=100`, { headers: master.bearer })).json()).listings.map((l: Answer) => l.id)).not.toContain(listing.id)
    expect((await askReview(asha, listing.id)).status).toBe(200)
  })

  test('an admin of its city lifts it: ACTIVE, no moderation left, audited as reactivated, the owner mailed; then the owner’s own suspensions are theirs again', async () => {
    const listing = await post()
    await suspendAsAdmin(listing.id, 'Wrong locality', master)
    expect((await askReview(asha, listing.id)).status).toBe(200)
    const res = await patch(mumbaiAdmin, listing.id, { status: 'ACTIVE' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ACTIVE', moderation: null })
    const stored = await h.ctx.db.get<Record<string, unknown>>(
      'select suspended_by, suspension_reason, suspended_at, review_requested_at, review_note from listings where id = ?',
      [listing.id],
    )
    expect(stored).toEqual({ suspended_by: null, suspension_reason: null, suspended_at: null, review_requested_at: null, review_note: null })
    expect((await auditTrail(h.ctx.db, { action: 'listing.reactivate', entityId: listing.id }))[0]!.actorUserId).toBe(mumbaiAdmin.user.id)
    await smtp.messageTo(asha.user.email, `Your listing ${listing.entry_id} is active again`)
    expect((await patch(asha, listing.id, { status: 'SUSPENDED' })).status).toBe(200)
    expect((await patch(asha, listing.id, { status: 'ACTIVE' })).status).toBe(200)
  })

  test('an admin may take over a suspension its owner made, with a reason: from then on only an admin lifts it', async () => {
    const listing = await post()
    expect((await patch(asha, listing.id, { status: 'SUSPENDED' })).status).toBe(200)
    // Without a reason an admin's SUSPENDED on a suspended listing changes nothing.
    expect(((await (await patch(mumbaiAdmin, listing.id, { status: 'SUSPENDED' })).json()) as Answer).moderation).toBeNull()
    const taken = await suspendAsAdmin(listing.id, 'Duplicate of another listing')
    expect(taken.moderation?.reason).toBe('Duplicate of another listing')
    expect((await patch(asha, listing.id, { status: 'ACTIVE' })).status).toBe(403)
  })
})
