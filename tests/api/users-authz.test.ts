import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Role } from '../../src/shared/constants'
import { createTestApp } from '../support/app'
import { signIn } from '../support/auth'
import { FILE_BYTES, insertUser, seedPlace } from '../support/fixtures'

// Every users route, tried by every kind of caller: the server, not the UI, decides who may do what.
const h = await createTestApp()
afterAll(() => h.close())
let cityA: number
let cityB: number

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha City', 'Beta City'])
  cityA = place.cities[0]!.id
  cityB = place.cities[1]!.id
})

let n = 0
/** A fresh user of city A for each call, with a document on disk, so calls never depend on each other. */
async function target(status: 'APPROVED' | 'PENDING' = 'APPROVED') {
  n++
  const doc = await h.ctx.documents.save(FILE_BYTES.png(), { mime: 'image/png', ext: 'png' })
  return insertUser(h.ctx.db, {
    email: `target${n}@example.com`,
    passwordHash: 'x',
    fullName: `Target ${n}`,
    phone: '9876543210',
    role: 'BROKER',
    isActive: status === 'APPROVED',
    registrationStatus: status,
    cityId: cityA,
    idCardDocument: doc,
    idCardDocumentType: 'image/png',
  })
}

type Caller = 'anonymous' | 'pending' | 'rejected' | 'inactive' | 'broker' | 'module admin, same city' | 'module admin, other city' | 'master admin'
const CALLERS: Caller[] = ['anonymous', 'pending', 'rejected', 'inactive', 'broker', 'module admin, same city', 'module admin, other city', 'master admin']

async function headersOf(caller: Caller): Promise<Record<string, string>> {
  const as = async (role: Role, extra = {}) => (await signIn(h.ctx.db, role, { cityId: cityA, ...extra })).browser
  switch (caller) {
    case 'anonymous':
      return { origin: 'http://localhost' }
    case 'pending':
      return as('BROKER', { isActive: false, registrationStatus: 'PENDING' })
    case 'rejected':
      return as('BROKER', { isActive: false, registrationStatus: 'REJECTED' })
    case 'inactive':
      return as('BROKER', { isActive: false })
    case 'broker':
      return as('BROKER')
    case 'module admin, same city':
      return as('MODULE_ADMIN')
    case 'module admin, other city':
      return as('MODULE_ADMIN', { cityId: cityB })
    case 'master admin':
      return as('MASTER_ADMIN', { cityId: null })
  }
}

const json = (body: unknown) => ({ body: JSON.stringify(body), type: 'application/json' })
function newUserForm(role: 'BROKER' | 'MODULE_ADMIN' = 'BROKER') {
  n++
  const fd = new FormData()
  for (const [k, v] of Object.entries({ email: `made${n}@example.com`, password: 'Secret@123', full_name: `Made ${n}`, phone: '9876543210', role, city_id: String(cityA) })) fd.set(k, v)
  return fd
}

type Case = { route: string; call: () => Promise<{ method: string; path: string; body?: BodyInit; type?: string }>; expect: Record<Caller, number> }
const denied = { anonymous: 401, pending: 403, rejected: 403, inactive: 403 } as const

const CASES: Case[] = [
  {
    route: 'GET /api/users',
    call: async () => ({ method: 'GET', path: '/api/users' }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 200, 'master admin': 200 },
  },
  {
    route: 'GET /api/users/{id} (a broker of city A)',
    call: async () => ({ method: 'GET', path: `/api/users/${(await target()).id}` }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'POST /api/users (a broker)',
    call: async () => ({ method: 'POST', path: '/api/users', body: newUserForm() }),
    expect: { ...denied, broker: 403, 'module admin, same city': 201, 'module admin, other city': 201, 'master admin': 201 },
  },
  {
    route: 'POST /api/users (a module admin)',
    call: async () => ({ method: 'POST', path: '/api/users', body: newUserForm('MODULE_ADMIN') }),
    expect: { ...denied, broker: 403, 'module admin, same city': 403, 'module admin, other city': 403, 'master admin': 201 },
  },
  {
    route: 'PATCH /api/users/{id}',
    call: async () => ({ method: 'PATCH', path: `/api/users/${(await target()).id}`, ...json({ phone: '1234567890' }) }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'PATCH /api/users/{id} (moving to another city)',
    call: async () => ({ method: 'PATCH', path: `/api/users/${(await target()).id}`, ...json({ city_id: cityB }) }),
    expect: { ...denied, broker: 403, 'module admin, same city': 403, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'PATCH /api/users/{id}/activation',
    call: async () => ({ method: 'PATCH', path: `/api/users/${(await target()).id}/activation`, ...json({ is_active: false, reason: 'Deactivated by admin' }) }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'GET /api/users/{id}/id-card',
    call: async () => ({ method: 'GET', path: `/api/users/${(await target()).id}/id-card` }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'GET /api/users/pending/approvals',
    call: async () => ({ method: 'GET', path: '/api/users/pending/approvals' }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 200, 'master admin': 200 },
  },
  {
    route: 'POST /api/users/{id}/approve',
    call: async () => ({ method: 'POST', path: `/api/users/${(await target('PENDING')).id}/approve` }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
  {
    route: 'POST /api/users/{id}/reject',
    call: async () => ({ method: 'POST', path: `/api/users/${(await target('PENDING')).id}/reject?reason=Blurred` }),
    expect: { ...denied, broker: 403, 'module admin, same city': 200, 'module admin, other city': 404, 'master admin': 200 },
  },
]

describe.each(CASES)('$route', ({ call, expect: expected }) => {
  test.each(CALLERS)('%s', async (caller) => {
    const { method, path, body, type } = await call()
    const headers = { ...(await headersOf(caller)), ...(type ? { 'content-type': type } : {}) }
    const res = await h.request(path, { method, headers, body })
    expect({ caller, status: res.status }).toEqual({ caller, status: expected[caller] })
    if (res.status >= 400) expect(typeof (await res.json()).detail).toBe('string')
  })
})

describe('scope of what is answered', () => {
  test('a module admin lists only brokers of their own city, whatever the filters ask', async () => {
    const mine = await target()
    await signIn(h.ctx.db, 'BROKER', { cityId: cityB, fullName: 'Other City Broker' })
    await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: cityA, fullName: 'Fellow Admin' })
    const headers = await headersOf('module admin, same city')
    for (const query of ['', '?role=MODULE_ADMIN', `?city_id=${cityB}`, '?role=MASTER_ADMIN']) {
      const body = await (await h.request(`/api/users${query}`, { headers })).json()
      for (const u of body.users) expect({ role: u.role, city: u.city_id }).toEqual({ role: 'BROKER', city: cityA })
      if (query === '') expect(body.users.map((u: { id: number }) => u.id)).toContain(mine.id)
    }
  })

  test('a module admin adding a user in another city gets one in their own city', async () => {
    const fd = newUserForm()
    fd.set('city_id', String(cityB))
    const res = await h.request('/api/users', { method: 'POST', headers: await headersOf('module admin, same city'), body: fd })
    expect(res.status).toBe(201)
    expect((await res.json()).city_id).toBe(cityA)
  })

  test('a broker reads themself', async () => {
    const me = await signIn(h.ctx.db, 'BROKER', { cityId: cityA })
    const res = await h.request(`/api/users/${me.user.id}`, { headers: me.bearer })
    expect(res.status).toBe(200)
    expect((await res.json()).email).toBe(me.user.email)
  })

  test('the pending list of a module admin holds only their city', async () => {
    const pendingA = await target('PENDING')
    const other = await headersOf('module admin, other city')
    const body = await (await h.request('/api/users/pending/approvals', { headers: other })).json()
    expect(body.pending_users.map((u: { id: number }) => u.id)).not.toContain(pendingA.id)
    const same = await (await h.request('/api/users/pending/approvals', { headers: await headersOf('module admin, same city') })).json()
    expect(same.pending_users.map((u: { id: number }) => u.id)).toContain(pendingA.id)
    expect(same.total).toBe(same.pending_users.length)
  })
})
