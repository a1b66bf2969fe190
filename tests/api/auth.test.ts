import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { createTestApp, jsonBody } from '../support/app'
import { insertUser } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
const PASSWORD = 'Broker@123'

beforeAll(async () => {
  const hash = await Bun.password.hash(PASSWORD)
  const base = { passwordHash: hash, fullName: 'Asha Rao', role: 'BROKER' as const }
  for (const user of [
    { ...base, email: 'asha@example.com', isActive: true, registrationStatus: 'APPROVED' },
    { ...base, email: 'pending@example.com', isActive: false, registrationStatus: 'PENDING' },
    { ...base, email: 'rejected@example.com', isActive: false, registrationStatus: 'REJECTED' },
    { ...base, email: 'inactive@example.com', isActive: false, registrationStatus: 'APPROVED' },
  ] as const)
    await insertUser(h.ctx.db, user)
})

const login = (email: string, password: string) => h.request('/api/auth/login', jsonBody({ email, password }))

describe('sign in', () => {
  test('right credentials: the user, an HttpOnly SameSite=Lax cookie, and a token for scripts', async () => {
    const res = await login('ASHA@example.com', PASSWORD)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.user).toMatchObject({ email: 'asha@example.com', full_name: 'Asha Rao', role: 'BROKER', is_active: true })
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toContain(`${SESSION_COOKIE}=${body.token}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).not.toContain('Secure') // PUBLIC_URL is http here

    const me = await h.request('/api/auth/me', { headers: { authorization: `Bearer ${body.token}` } })
    expect((await me.json()).email).toBe('asha@example.com')
    const viaCookie = await h.request('/api/auth/me', { headers: { cookie: `${SESSION_COOKIE}=${body.token}` } })
    expect(viaCookie.status).toBe(200)

    expect((await h.request('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${body.token}` } })).status).toBe(204)
    expect((await h.request('/api/auth/me', { headers: { authorization: `Bearer ${body.token}` } })).status).toBe(401)
  })

  test('a wrong password and an unknown email get the same 401', async () => {
    const wrong = await login('asha@example.com', 'Nope@1234')
    const unknown = await login('nobody@example.com', PASSWORD)
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(await wrong.json()).toEqual(await unknown.json())
  })

  test.each([
    ['pending@example.com', 'pending approval'],
    ['rejected@example.com', 'rejected'],
    ['inactive@example.com', 'inactive'],
  ])('%s cannot sign in: 403 saying why', async (email, why) => {
    const res = await login(email, PASSWORD)
    expect(res.status).toBe(403)
    expect((await res.json()).detail).toContain(why)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  test('bad input: 422 with the form messages', async () => {
    const res = await login('not-an-email', '')
    expect(res.status).toBe(422)
    const { detail } = await res.json()
    expect(detail.map((d: { msg: string }) => d.msg).sort()).toEqual(['Password is required', 'Please enter a valid email address'])
  })

  test('/api/auth/me without a session: 401', async () => {
    expect((await h.request('/api/auth/me')).status).toBe(401)
  })
})
