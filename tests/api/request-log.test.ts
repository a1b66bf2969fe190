import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SESSION_COOKIE } from '../../src/platform/http/auth'
import { createTestApp, jsonBody } from '../support/app'
import { insertUser } from '../support/fixtures'
import { eventually } from '../support/eventually'

// The one suite that asks for log lines (every other test app is LOG_LEVEL=silent).
const h = await createTestApp({ LOG_LEVEL: 'info' })
afterAll(() => h.close())
const PASSWORD = 'Secret-Log@4711'
let userId: number

beforeAll(async () => {
  const user = await insertUser(h.ctx.db, {
    email: 'logged@example.com',
    passwordHash: await Bun.password.hash(PASSWORD),
    fullName: 'Log Tester',
    role: 'BROKER',
    isActive: true,
    registrationStatus: 'APPROVED',
  })
  userId = user.id
})

/** The line of a request id; lines are written after the answer (and a binary's stdout arrives a moment later). */
async function lineOf(requestId: string | null) {
  expect(requestId).toBeTruthy()
  return eventually(`the log line of request ${requestId}`, () => h.logLines().find((l) => l.request_id === requestId), 20_000, 10)
}

const signIn = async () => {
  const res = await h.request('/api/auth/login', jsonBody({ email: 'logged@example.com', password: PASSWORD }))
  expect(res.status).toBe(200)
  return { res, token: (await res.json()).token as string }
}

describe('request log', () => {
  test('one JSON line per request: route template, status, duration, user id and the X-Request-Id answered', async () => {
    const { token } = await signIn()
    const res = await h.request('/api/listings/987654?x=1', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(404)
    const line = await lineOf(res.headers.get('x-request-id'))
    expect(line).toMatchObject({ level: 'warn', method: 'GET', route: '/api/listings/:id', status: 404, user_id: userId })
    expect(typeof line.duration_ms).toBe('number')
    expect(new Date(line.time as string).toISOString()).toBe(line.time as string)

    const me = await h.request('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
    expect(await lineOf(me.headers.get('x-request-id'))).toMatchObject({ level: 'info', route: '/api/auth/me', status: 200, user_id: userId })
  })

  test('a server-rendered page names its signed-in user; signed out, none', async () => {
    const { token } = await signIn()
    const page = await h.request('/dashboard', { headers: { cookie: `${SESSION_COOKIE}=${token}` } })
    expect(page.status).toBe(200)
    expect(await lineOf(page.headers.get('x-request-id'))).toMatchObject({ method: 'GET', route: '/dashboard', status: 200, user_id: userId })
    const out = await h.request('/dashboard')
    expect(out.status).toBe(302)
    expect(await lineOf(out.headers.get('x-request-id'))).toMatchObject({ route: '/dashboard', status: 302, user_id: null })
  })

  test('signed out, unknown routes, 401 and 405 are logged too (unknown paths without their query)', async () => {
    const anon = await h.request('/api/auth/me')
    expect(await lineOf(anon.headers.get('x-request-id'))).toMatchObject({ route: '/api/auth/me', status: 401, user_id: null })
    const unknown = await h.request('/api/nothing/42?token=abc')
    expect(await lineOf(unknown.headers.get('x-request-id'))).toMatchObject({ route: '/api/nothing/42', status: 404 })
    const odd = await h.request('/api/health', { method: 'PROPFIND' })
    expect(odd.status).toBe(405)
    expect(await lineOf(odd.headers.get('x-request-id'))).toMatchObject({ method: 'PROPFIND', status: 405, level: 'warn' })
  })

  test('a safe incoming X-Request-Id is kept; an unsafe one is replaced', async () => {
    const kept = await h.request('/api/health', { headers: { 'x-request-id': 'proxy-1.abc_XYZ' } })
    expect(kept.headers.get('x-request-id')).toBe('proxy-1.abc_XYZ')
    expect(await lineOf('proxy-1.abc_XYZ')).toMatchObject({ route: '/api/health' })
    for (const bad of ['has space', 'x'.repeat(65), '"quote"', 'a\\b']) {
      const res = await h.request('/api/health', { headers: { 'x-request-id': bad } })
      const id = res.headers.get('x-request-id')
      expect(id).not.toBe(bad)
      expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/)
      await lineOf(id)
    }
  })

  test('no line holds the password, the session token, the cookie or a token from a path or query', async () => {
    const { res, token } = await signIn()
    const cookie = /brokernet_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
    expect(cookie).toBeTruthy()
    const ids = [res.headers.get('x-request-id')]
    const bearer = await h.request('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
    const viaCookie = await h.request('/api/auth/me', { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } })
    const resetToken = 'reset-token-Q7Zk93hLmN'
    const reset = await h.request(`/reset-password?token=${resetToken}`)
    const renewToken = 'renew-token-P4xW81aBcD'
    const renew = await h.request(`/renew/${renewToken}?sig=${renewToken}`)
    ids.push(...[bearer, viaCookie, reset, renew].map((r) => r.headers.get('x-request-id')))
    expect(bearer.status).toBe(200)
    expect(viaCookie.status).toBe(200)
    for (const id of ids) await lineOf(id)
    expect(await lineOf(renew.headers.get('x-request-id'))).toMatchObject({ route: '/renew/:token' })

    const text = h.logLines().map((l) => JSON.stringify(l)).join('\n')
    for (const secret of [PASSWORD, token, cookie!, decodeURIComponent(cookie!), resetToken, renewToken]) expect(text).not.toContain(secret)
    expect(text).not.toContain('authorization')
    expect(text).not.toContain('cookie')
  })
})
