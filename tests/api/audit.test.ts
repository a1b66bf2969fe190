import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let master: SignedIn
let adminA: SignedIn
let adminB: SignedIn
let brokerA: SignedIn
let listingId: number

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha', 'Beta'])
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  adminA = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: place.cities[0]!.id, fullName: 'Alan Alpha' })
  adminB = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: place.cities[1]!.id, fullName: 'Bea Beta' })
  brokerA = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id, fullName: 'Asha Broker' })
  const brokerB = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[1]!.id, fullName: 'Bo Broker' })
  const post = async (as: SignedIn, body: object) =>
    (await h.request('/api/listings', withJson(as.browser, { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2BHK', ...body }))).json()
  listingId = (await post(brokerA, { details: 'Original text' })).id
  await post(brokerB, { details: '=HYPERLINK("http://evil")' })
  await h.request(`/api/listings/${listingId}`, withJson(adminA.browser, { details: 'Edited by admin', status: 'ON_HOLD' }, 'PATCH'))
})

const get = async (as: SignedIn, path: string) => {
  const res = await h.request(path, { headers: as.bearer })
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text(), res }
}

describe('audit log', () => {
  test('an edit is there with actor, before and after, and a summary of what changed', async () => {
    const { body } = await get(master, '/api/audit?action=listing.update')
    const event = body.events.find((e: { entity_id: string }) => e.entity_id === String(listingId))
    expect(event).toMatchObject({ actor_name: 'Alan Alpha', entity_type: 'listing' })
    expect(event.before.details).toBe('Original text')
    expect(event.after.details).toBe('Edited by admin')
    expect(event.summary).toContain('details: Original text → Edited by admin')
    expect(event.summary).toContain('status: ACTIVE → ON_HOLD')
    const one = await get(master, `/api/audit/${event.id}`)
    expect(one.body.after.status).toBe('ON_HOLD')
  })

  test('scope: a module admin reads only their city’s events; brokers none', async () => {
    const a = (await get(adminA, '/api/audit?per_page=100')).body.events
    const b = (await get(adminB, '/api/audit?per_page=100')).body.events
    const all = (await get(master, '/api/audit?per_page=100')).body
    expect(a.length + b.length).toBe(all.total)
    expect(a.every((e: { city_id: number }) => e.city_id === a[0].city_id)).toBe(true)
    const bEvent = b[0]
    expect((await get(adminA, `/api/audit/${bEvent.id}`)).status).toBe(404)
    expect((await get(brokerA, '/api/audit')).status).toBe(403)
  })

  test('filters: actor, action, entity type, dates; the filter lists come with the page', async () => {
    const byActor = (await get(master, '/api/audit?actor=alan')).body
    expect(byActor.events.every((e: { actor_name: string }) => e.actor_name === 'Alan Alpha')).toBe(true)
    expect(byActor.actions).toContain('listing.create')
    expect(byActor.entity_types).toContain('listing')
    expect((await get(master, '/api/audit?entity_type=user')).body.total).toBe(0)
    expect((await get(master, '/api/audit?date_to=2000-01-01')).body.total).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    expect((await get(master, `/api/audit?date_from=${today}&date_to=${today}`)).body.total).toBe(3)
  })

  test('CSV export of the filtered trail; formulas neutralised', async () => {
    const { res, body } = await get(master, '/api/audit/export.csv')
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-disposition')).toMatch(/audit-\d{4}-\d{2}-\d{2}\.csv/)
    const lines = (body as string).trim().split('\r\n')
    expect(lines[0]).toBe('time,actor,action,entity,entity_id,summary,reason,before,after')
    expect(lines).toHaveLength(4)
    expect(body).not.toContain(',=HYPERLINK')
  })

  test('events can never be edited or deleted through the app', async () => {
    const { body } = await get(master, '/api/audit')
    const id = body.events[0].id
    for (const method of ['PUT', 'PATCH', 'DELETE'])
      expect((await h.request(`/api/audit/${id}`, { method, headers: master.browser })).status).toBe(404)
  })
})
