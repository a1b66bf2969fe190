// Co-broking's pages (issue 35): /dashboard/deals and /dashboard/deals/:id as the server renders them (first view
// complete, before any script), for the two brokers of a deal, another broker, the admins of its city and of another,
// and a signed-out visitor. A private value appears in the thread only after its broker revealed it, and never to
// anyone outside the deal.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

const MARKER = '+91 90000 39039' // the owner's private phone
let owner: SignedIn
let requester: SignedIn
let other: SignedIn
let mumbaiAdmin: SignedIn
let puneAdmin: SignedIn
let listing: { id: number; entry_id: string }
let dealId: number

const call = async <T>(as: SignedIn, path: string, body?: unknown): Promise<T> => {
  const res = await h.request(path, body === undefined ? { headers: as.browser } : withJson(as.browser, body))
  expect(res.status, await res.clone().text()).toBeLessThan(300)
  return res.json() as Promise<T>
}
const page = async (path: string, as: SignedIn | null) => {
  const res = await h.request(path, { headers: as?.browser ?? {} })
  return { status: res.status, html: await res.text(), location: res.headers.get('location') }
}

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  const [mumbai, pune] = place.cities.map((c) => c.id) as [number, number]
  owner = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Omar Pageowner' })
  requester = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Rita Pagerequester' })
  other = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Olga Outsider' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai, fullName: 'Mina Admin' })
  puneAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: pune, fullName: 'Pavan Admin' })
  listing = await call(owner, '/api/listings', {
    post_type: 'AVL',
    sale_or_rent: 'SALE',
    property_type: 'Page test flat',
    contact_value: '9876543210',
    private: { owner_phone: MARKER },
  })
  await call(requester, `/api/listings/${listing.id}/cobroke-requests`, { message: 'A buyer ready this month', requester_percent: 40 })
})

describe('/dashboard/deals', () => {
  test('signed out: to sign-in, remembering the page', async () => {
    const res = await page('/dashboard/deals', null)
    expect(res.status).toBe(302)
    expect(res.location).toBe(`/login?redirect=${encodeURIComponent('/dashboard/deals')}`)
  })

  test('the listing’s broker sees the request complete in the HTML: who, the listing, the message, the split, Accept', async () => {
    const { status, html } = await page('/dashboard/deals', owner)
    expect(status).toBe(200)
    expect(html).toContain('Requests for your listings')
    expect(html).toContain(`${listing.entry_id}</span> · from Rita Pagerequester`)
    expect(html).toContain('A buyer ready this month')
    expect(html).toContain('Split: 40% requester / 60% listing broker')
    expect(html).toContain('>Accept<')
    expect(html).toContain('>Counter<')
    expect(html).not.toContain(MARKER)
  })

  test('the requester sees it among their own requests, waiting; another broker sees none of it', async () => {
    const mine = await page('/dashboard/deals', requester)
    expect(mine.html).toContain(`${listing.entry_id}</span> · to Omar Pageowner`)
    expect(mine.html).toContain('Waiting for an answer')
    expect(mine.html).not.toContain('>Accept<')
    const theirs = await page('/dashboard/deals', other)
    expect(theirs.status).toBe(200)
    expect(theirs.html).not.toContain(listing.entry_id)
    expect(theirs.html).not.toContain('A buyer ready this month')
  })
})

describe('/dashboard/deals/:id', () => {
  beforeAll(async () => {
    const requests = await call<{ id: number; listing_id: number }[]>(owner, '/api/cobroke-requests')
    dealId = (await call<{ id: number }>(owner, `/api/cobroke-requests/${requests.find((r) => r.listing_id === listing.id)!.id}/accept`, {})).id
  })

  test('its brokers see the thread, the locked split and the stage; the owner’s phone only once he reveals it', async () => {
    const before = await page(`/dashboard/deals/${dealId}`, requester)
    expect(before.status).toBe(200)
    expect(before.html).toContain('>Deal with Omar Pageowner</h1>')
    expect(before.html).toContain('Split, locked: 40% requester / 60% listing broker')
    expect(before.html).toContain('A buyer ready this month')
    expect(before.html).toContain('data-message-form')
    expect(before.html).not.toContain(MARKER)
    await call(owner, `/api/deals/${dealId}/reveal`, { fields: ['owner_phone'] })
    const after = await page(`/dashboard/deals/${dealId}`, requester)
    expect(after.html).toContain(MARKER)
    // Only the owner has a listing of theirs in this deal: the requester has nothing to reveal.
    expect(after.html).not.toContain('data-deal-reveal')
    expect((await page(`/dashboard/deals/${dealId}`, owner)).html).toContain('data-deal-reveal')
  })

  test('another broker and another city’s admin: not found, nothing of it; the city’s admin reads it without acting', async () => {
    for (const outsider of [other, puneAdmin]) {
      const res = await page(`/dashboard/deals/${dealId}`, outsider)
      expect(res.html).toContain('Deal not found')
      expect(res.html).not.toContain(MARKER)
      expect(res.html).not.toContain('A buyer ready this month')
    }
    const admin = await page(`/dashboard/deals/${dealId}`, mumbaiAdmin)
    expect(admin.html).toContain('>Deal: Omar Pageowner and Rita Pagerequester</h1>')
    expect(admin.html).toContain('A buyer ready this month')
    expect(admin.html).not.toContain('data-message-form')
    expect(admin.html).not.toContain('data-deal-close')
    // The admin's Deals page lists it, with no requests to answer.
    const list = await page('/dashboard/deals', mumbaiAdmin)
    expect(list.html).toContain(`data-deal="${dealId}"`)
    expect(list.html).not.toContain('Requests for your listings')
  })

  test('a deal both brokers closed lost: its reason shown, no step left to take', async () => {
    const flat = await call<{ id: number }>(owner, '/api/listings', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: 'Page test lost', contact_value: '9876543210' })
    const request = await call<{ id: number }>(requester, `/api/listings/${flat.id}/cobroke-requests`, {})
    const deal = await call<{ id: number }>(owner, `/api/cobroke-requests/${request.id}/accept`, {})
    await call(owner, `/api/deals/${deal.id}/close`, { outcome: 'LOST', reason: 'The owner withdrew it' })
    await call(requester, `/api/deals/${deal.id}/close`, { outcome: 'LOST', reason: 'The owner withdrew it' })
    const { html } = await page(`/dashboard/deals/${deal.id}`, requester)
    expect(html).toContain('>Closed lost</span>')
    expect(html).toContain('Lost: The owner withdrew it')
    expect(html).not.toContain('data-deal-close')
    expect(html).not.toContain('data-deal-stage')
  })
})
