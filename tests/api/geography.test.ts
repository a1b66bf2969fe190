import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { createTestApp } from '../support/app'
import { auditTrail, insertListing } from '../support/fixtures'

const h = await createTestApp()
let master: SignedIn
let moduleAdmin: SignedIn
let broker: SignedIn
afterAll(() => h.close())

const post = (path: string, who: SignedIn, body: unknown) => h.request(path, withJson(who.bearer, body))
const put = (path: string, who: SignedIn, body: unknown) => h.request(path, withJson(who.bearer, body, 'PUT'))
const del = (path: string, who: SignedIn) => h.request(path, { method: 'DELETE', headers: who.bearer })
const json = async (res: Response) => ({ status: res.status, body: await res.json() })

let india: { id: number }
let maharashtra: { id: number }
let mumbai: { id: number }

beforeAll(async () => {
  master = await signIn(h.ctx.db, 'MASTER_ADMIN')
  india = (await json(await post('/api/geographic/countries', master, { name: 'India', code: 'in' }))).body
  maharashtra = (await json(await post('/api/geographic/states', master, { name: 'Maharashtra', code: 'in-mh', country_id: india.id }))).body
  mumbai = (await json(await post('/api/geographic/cities', master, { name: 'Mumbai', state_id: maharashtra.id, newsco_region: 'West' }))).body
  moduleAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai.id })
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai.id })
})

describe('public lists (registration uses them without signing in)', () => {
  test('countries, a country’s states, a state’s cities', async () => {
    expect(await json(await h.request('/api/geographic/countries'))).toEqual({ status: 200, body: [{ id: india.id, name: 'India', code: 'IN' }] })
    expect((await json(await h.request(`/api/geographic/countries/${india.id}/states`))).body).toEqual([
      { id: maharashtra.id, name: 'Maharashtra', code: 'IN-MH', country_id: india.id },
    ])
    expect((await json(await h.request(`/api/geographic/states/${maharashtra.id}/cities`))).body).toEqual([
      { id: mumbai.id, name: 'Mumbai', state_id: maharashtra.id, newsco_region: 'West', match_tolerance: 10, rent_days: 30, sale_days: 90 },
    ])
  })

  test('an unknown parent is a 404, a malformed id a 422', async () => {
    expect(await json(await h.request('/api/geographic/countries/9999/states'))).toEqual({ status: 404, body: { detail: 'Country not found' } })
    expect(await json(await h.request('/api/geographic/states/9999/cities'))).toEqual({ status: 404, body: { detail: 'State not found' } })
    expect((await h.request('/api/geographic/countries/abc/states')).status).toBe(422)
  })
})

describe('signed-in lists', () => {
  test('need a session', async () => {
    for (const path of ['/api/geographic/states', '/api/geographic/cities', '/api/geographic/hierarchy', `/api/geographic/hierarchy/${india.id}`])
      expect((await h.request(path)).status).toBe(401)
  })

  test('any role reads states, cities and the hierarchy, with filters', async () => {
    for (const who of [master, moduleAdmin, broker]) {
      const tree = await json(await h.request('/api/geographic/hierarchy', { headers: who.bearer }))
      expect(tree.status).toBe(200)
      expect(tree.body[0]).toMatchObject({ name: 'India', states: [{ name: 'Maharashtra', cities: [{ name: 'Mumbai', newsco_region: 'West' }] }] })
    }
    const one = await json(await h.request(`/api/geographic/hierarchy/${india.id}`, { headers: broker.bearer }))
    expect(one.body).toMatchObject({ id: india.id, states: [{ id: maharashtra.id }] })
    expect((await h.request('/api/geographic/hierarchy/9999', { headers: broker.bearer })).status).toBe(404)
    const states = await json(await h.request(`/api/geographic/states?country_id=${india.id}`, { headers: broker.bearer }))
    expect(states.body.map((s: { name: string }) => s.name)).toEqual(['Maharashtra'])
    const none = await json(await h.request('/api/geographic/cities?state_id=9999', { headers: broker.bearer }))
    expect(none.body).toEqual([])
  })

  test('the browser cookie works too, and a cookie-borne change from another site is refused', async () => {
    const cookie = { cookie: master.browser.cookie }
    expect((await h.request('/api/geographic/hierarchy', { headers: cookie })).status).toBe(200)
    const noOrigin = await h.request('/api/geographic/countries', withJson(cookie, { name: 'Nepal', code: 'NP' }))
    expect(noOrigin.status).toBe(403)
    const evil = await h.request('/api/geographic/countries', withJson({ ...cookie, origin: 'https://evil.example' }, { name: 'Nepal', code: 'NP' }))
    expect(evil.status).toBe(403)
    expect((await evil.json()).detail).toContain('Cross-site request refused')
  })

  test('an ended session and an inactive account are refused', async () => {
    const gone = await signIn(h.ctx.db, 'MASTER_ADMIN')
    await h.ctx.db.run('delete from sessions where user_id = ?', [gone.user.id])
    expect((await h.request('/api/geographic/hierarchy', { headers: gone.bearer })).status).toBe(401)
    const inactive = await signIn(h.ctx.db, 'MASTER_ADMIN', { isActive: false })
    const res = await json(await h.request('/api/geographic/hierarchy', { headers: inactive.bearer }))
    expect(res.status).toBe(403)
    expect(res.body.detail).toBe('Account Inactive: Your account is currently inactive. Please contact an administrator.')
  })
})

describe('only a master admin changes the map', () => {
  test.each(['MODULE_ADMIN', 'BROKER'] as const)('%s gets 403 on every change, and nothing changes', async (role) => {
    const who = role === 'BROKER' ? broker : moduleAdmin
    const attempts = [
      await post('/api/geographic/countries', who, { name: 'Nepal', code: 'NP' }),
      await put(`/api/geographic/countries/${india.id}`, who, { name: 'Bharat', code: 'IN' }),
      await del(`/api/geographic/countries/${india.id}`, who),
      await post('/api/geographic/states', who, { name: 'Goa', code: 'IN-GA', country_id: india.id }),
      await put(`/api/geographic/states/${maharashtra.id}`, who, { name: 'MH', code: 'IN-MH', country_id: india.id }),
      await del(`/api/geographic/states/${maharashtra.id}`, who),
      await post('/api/geographic/cities', who, { name: 'Pune', state_id: maharashtra.id }),
      await put(`/api/geographic/cities/${mumbai.id}`, who, { name: 'Bombay', state_id: maharashtra.id }),
      await del(`/api/geographic/cities/${mumbai.id}`, who),
    ]
    expect(attempts.map((r) => r.status)).toEqual(Array(9).fill(403))
    const tree = (await json(await h.request('/api/geographic/hierarchy', { headers: master.bearer }))).body
    expect(tree.map((c: { name: string }) => c.name)).toEqual(['India'])
    expect(tree[0].states[0].cities.map((c: { name: string }) => c.name)).toEqual(['Mumbai'])
  })

  test('without a session: 401', async () => {
    expect((await h.request('/api/geographic/countries', withJson({}, { name: 'Nepal', code: 'NP' }))).status).toBe(401)
  })
})

describe('validation (SPEC section 5 "Geographic form")', () => {
  const expectIssue = async (res: Response, loc: (string | number)[], msg: string) => {
    expect(res.status).toBe(422)
    expect((await res.json()).detail).toContainEqual({ loc, msg, type: expect.any(String) })
  }

  test('names and codes', async () => {
    await expectIssue(await post('/api/geographic/countries', master, { name: '', code: 'XX' }), ['body', 'name'], 'Name is required')
    await expectIssue(await post('/api/geographic/countries', master, { name: 'X', code: 'XX' }), ['body', 'name'], 'Name must be at least 2 characters')
    await expectIssue(await post('/api/geographic/countries', master, { name: '   ', code: 'XX' }), ['body', 'name'], 'Name is required')
    await expectIssue(await post('/api/geographic/countries', master, { code: 'XX' }), ['body', 'name'], 'Name is required')
    await expectIssue(await post('/api/geographic/countries', master, { name: 'Nepal', code: '' }), ['body', 'code'], 'Code is required')
    await expectIssue(await post('/api/geographic/countries', master, { name: 'Nepal', code: 'N' }), ['body', 'code'], 'Code must be at least 2 characters')
    await expectIssue(
      await post('/api/geographic/countries', master, { name: 'Nepal', code: 'ABCDEFGHIJK' }),
      ['body', 'code'],
      'Code must be at most 10 characters',
    )
  })

  test('a state needs an existing country, a city an existing state; the region is at most 50', async () => {
    await expectIssue(await post('/api/geographic/states', master, { name: 'Goa', code: 'IN-GA' }), ['body', 'country_id'], 'Country is required')
    await expectIssue(await post('/api/geographic/states', master, { name: 'Goa', code: 'IN-GA', country_id: 9999 }), ['body', 'country_id'], 'Country does not exist')
    await expectIssue(await post('/api/geographic/cities', master, { name: 'Pune' }), ['body', 'state_id'], 'State is required')
    await expectIssue(await post('/api/geographic/cities', master, { name: 'Pune', state_id: 9999 }), ['body', 'state_id'], 'State does not exist')
    await expectIssue(
      await post('/api/geographic/cities', master, { name: 'Pune', state_id: maharashtra.id, newsco_region: 'x'.repeat(51) }),
      ['body', 'newsco_region'],
      'NEWSCO region must be at most 50 characters',
    )
  })

  test('codes are upper-cased and names tidied', async () => {
    const res = await json(await post('/api/geographic/countries', master, { name: '  Sri   Lanka ', code: ' lk ' }))
    expect(res).toEqual({ status: 201, body: { id: expect.any(Number), name: 'Sri Lanka', code: 'LK' } })
    expect((await del(`/api/geographic/countries/${res.body.id}`, master)).status).toBe(204)
  })
})

describe('uniqueness: names within their parent, codes within their level', () => {
  test.each([
    ['/api/geographic/countries', () => ({ name: 'INDIA', code: 'IX' }), 'A country named "India" already exists'],
    ['/api/geographic/countries', () => ({ name: 'Indiana', code: 'in' }), 'Country code "IN" is already used by India'],
    ['/api/geographic/states', () => ({ name: 'maharashtra', code: 'IN-M2', country_id: india.id }), 'A state named "Maharashtra" already exists in India'],
    ['/api/geographic/states', () => ({ name: 'Goa', code: 'in-mh', country_id: india.id }), 'State code "IN-MH" is already used by Maharashtra'],
    ['/api/geographic/cities', () => ({ name: 'MUMBAI', state_id: maharashtra.id }), 'A city named "Mumbai" already exists in Maharashtra'],
  ])('%s %# is a 409', async (path, body, detail) => {
    expect(await json(await post(path, master, body()))).toEqual({ status: 409, body: { detail } })
  })

  test('the same city name in another state is fine; renaming onto a sibling is a 409', async () => {
    const goa = (await json(await post('/api/geographic/states', master, { name: 'Goa', code: 'IN-GA', country_id: india.id }))).body
    const panaji = (await json(await post('/api/geographic/cities', master, { name: 'Mumbai', state_id: goa.id }))).body
    expect(panaji.name).toBe('Mumbai')
    const margao = (await json(await post('/api/geographic/cities', master, { name: 'Margao', state_id: goa.id }))).body
    expect((await json(await put(`/api/geographic/cities/${margao.id}`, master, { name: 'mumbai', state_id: goa.id }))).status).toBe(409)
    // Keeping its own name while changing something else is not a clash with itself.
    expect((await json(await put(`/api/geographic/cities/${margao.id}`, master, { name: 'Margao', state_id: goa.id, newsco_region: 'South' }))).body.newsco_region).toBe('South')
    for (const id of [panaji.id, margao.id]) expect((await del(`/api/geographic/cities/${id}`, master)).status).toBe(204)
    expect((await del(`/api/geographic/states/${goa.id}`, master)).status).toBe(204)
  })
})

describe('nothing is lost by a delete', () => {
  test('a country with states, a state with cities, a city with users or listings: 409 saying what uses it', async () => {
    expect(await json(await del(`/api/geographic/countries/${india.id}`, master))).toEqual({
      status: 409,
      body: { detail: 'Cannot delete "India": it still has 1 state. Delete or move them first.' },
    })
    expect(await json(await del(`/api/geographic/states/${maharashtra.id}`, master))).toEqual({
      status: 409,
      body: { detail: 'Cannot delete "Maharashtra": it still has 1 city. Delete or move them first.' },
    })
    const city = await json(await del(`/api/geographic/cities/${mumbai.id}`, master))
    expect(city.status).toBe(409)
    expect(city.body.detail).toBe('Cannot delete "Mumbai": 2 users still belong to it.')

    await insertListing(h.ctx.db, {
      entryId: 'REQ-MUM-999999', postType: 'REQ', saleOrRent: 'SALE', propertyType: 'Flat', contactValue: '9999999999',
      contactName: 'B', date: '2026-11-21', ownerUserId: broker.user.id, cityId: mumbai.id,
    })
    expect((await json(await del(`/api/geographic/cities/${mumbai.id}`, master))).body.detail).toBe(
      'Cannot delete "Mumbai": 2 users and 1 listing still belong to it.',
    )
  })

  test('an unused level is deleted, with a 204, and is gone', async () => {
    const nepal = (await json(await post('/api/geographic/countries', master, { name: 'Nepal', code: 'NP' }))).body
    const bagmati = (await json(await post('/api/geographic/states', master, { name: 'Bagmati', code: 'NP-BA', country_id: nepal.id }))).body
    const ktm = (await json(await post('/api/geographic/cities', master, { name: 'Kathmandu', state_id: bagmati.id }))).body
    expect((await del(`/api/geographic/cities/${ktm.id}`, master)).status).toBe(204)
    expect((await del(`/api/geographic/states/${bagmati.id}`, master)).status).toBe(204)
    expect((await del(`/api/geographic/countries/${nepal.id}`, master)).status).toBe(204)
    expect((await del(`/api/geographic/countries/${nepal.id}`, master)).status).toBe(404)
    expect((await json(await h.request('/api/geographic/countries'))).body.map((c: { name: string }) => c.name)).toEqual(['India'])
  })
})

describe('audit trail', () => {
  test('every create, update and delete is recorded with actor, before and after', async () => {
    const uae = (await json(await post('/api/geographic/countries', master, { name: 'UAE', code: 'AE' }))).body
    await put(`/api/geographic/countries/${uae.id}`, master, { name: 'United Arab Emirates', code: 'AE' })
    await del(`/api/geographic/countries/${uae.id}`, master)
    const events = await auditTrail(h.ctx.db, { entityType: 'country', entityId: uae.id })
    expect(events.map((e) => e.action)).toEqual(['country.create', 'country.update', 'country.delete'])
    for (const e of events) expect({ id: e.actorUserId, name: e.actorName }).toEqual({ id: master.user.id, name: master.user.fullName })
    expect(events[1]!.before).toEqual({ id: uae.id, name: 'UAE', code: 'AE' })
    expect(events[1]!.after).toEqual({ id: uae.id, name: 'United Arab Emirates', code: 'AE' })
    expect(events[2]!.before).toEqual({ id: uae.id, name: 'United Arab Emirates', code: 'AE' })
  })

  test('a refused change leaves no audit event', async () => {
    const count = async () => (await h.ctx.db.get<{ n: number }>('select count(*) as n from audit_events'))!.n
    const before = await count()
    await post('/api/geographic/countries', master, { name: 'India', code: 'ZZ' })
    await del(`/api/geographic/countries/${india.id}`, master)
    await post('/api/geographic/countries', moduleAdmin, { name: 'Nepal', code: 'NP' })
    expect(await count()).toBe(before)
  })
})
