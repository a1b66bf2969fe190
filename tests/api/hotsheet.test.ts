// The hotsheet (issue 17): each listing answer carries its latest news (posted, budget changed, back to ACTIVE) and
// when; `changed_since` lists the listings with news at or after a moment.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp, ON_POSTGRES } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let asha: SignedIn
let master: SignedIn

type Answer = { id: number; budget: number | null; status: string; created_at: string; hotsheet: { event: string; at: string } }
const post = async (body: Record<string, unknown>) =>
  (await (await h.request('/api/listings', withJson(asha.browser, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Flat', ...body }))).json()) as Answer
const patch = async (id: number, body: Record<string, unknown>) => (await (await h.request(`/api/listings/${id}`, withJson(asha.browser, body, 'PATCH'))).json()) as Answer
const list = async (query: string) => (await (await h.request(`/api/listings/?${query}`, { headers: master.bearer })).json()) as { listings: Answer[]; total: number }

beforeAll(async () => {
  const city = (await seedPlace(h.ctx.db, ['Mumbai'])).cities[0]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: city, fullName: 'Asha Hot' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
})

describe('the hotsheet', () => {
  test('a new listing is NEW at its creation; a new budget is PRICE_CHANGED, a return to ACTIVE BACK_ON_MARKET; other edits are no news', async () => {
    const created = await post({ budget: 40_000, details: 'First' })
    expect(created.hotsheet).toEqual({ event: 'NEW', at: created.created_at })
    expect((await patch(created.id, { details: 'Edited' })).hotsheet).toEqual({ event: 'NEW', at: created.created_at })
    expect((await patch(created.id, { budget: 40_000 })).hotsheet.event).toBe('NEW') // the same budget again
    const repriced = await patch(created.id, { budget: 38_000 })
    expect(repriced.hotsheet.event).toBe('PRICE_CHANGED')
    expect(Date.parse(repriced.hotsheet.at)).toBeGreaterThanOrEqual(Date.parse(created.created_at))
    await patch(created.id, { status: 'ON_HOLD' })
    const back = await patch(created.id, { status: 'ACTIVE' })
    expect(back.hotsheet.event).toBe('BACK_ON_MARKET')
    expect(Date.parse(back.hotsheet.at)).toBeGreaterThanOrEqual(Date.parse(repriced.hotsheet.at))
  })

  test('changed_since: the listings with news at or after the moment, totals included', async () => {
    const quiet = await post({ details: 'Posted before, untouched' })
    const repriced = await post({ budget: 10_000, details: 'Posted before, repriced after' })
    await Bun.sleep(5)
    const since = new Date().toISOString()
    await Bun.sleep(5)
    await patch(repriced.id, { budget: 9_000 })
    const fresh = await post({ details: 'Posted after' })
    const page = await list(`changed_since=${encodeURIComponent(since)}&per_page=10`)
    expect(page.listings.map((l) => l.id).sort()).toEqual([repriced.id, fresh.id].sort())
    expect(page.total).toBe(2)
    expect(page.listings.map((l) => l.id)).not.toContain(quiet.id)
    // Cached answers follow later news.
    await patch(quiet.id, { status: 'CLOSED' })
    await patch(quiet.id, { status: 'ACTIVE' })
    expect((await list(`changed_since=${encodeURIComponent(since)}&per_page=10`)).total).toBe(3)
  })

  test('changed_since must be a date and time: 422, never a 500', async () => {
    for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '1'])
      expect((await h.request(`/api/listings/?changed_since=${encodeURIComponent(bad)}`, { headers: master.bearer })).status).toBe(422)
  })

  // Only SQLite has it: not registered in a PostgreSQL run (PostgreSQL plans from its statistics).
  if (!ON_POSTGRES) test('on SQLite the filter reads the hotsheet index', async () => {
    const plan = h.db!.$client.query('explain query plan select id from listings where coalesce(listings.hot_at, listings.created_at) >= ?').all(0) as { detail: string }[]
    expect(plan.map((p) => p.detail).join(' ')).toContain('listings_hot_idx')
  })
})
