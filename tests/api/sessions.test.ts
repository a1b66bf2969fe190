import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { SESSION_COOKIE, type Actor } from '../../src/platform/http/auth'
import { RENEW_WITHIN_MS } from '../../src/platform/sessions'
import { approveUser, rejectUser, setUserActive } from '../../src/modules/users/service'
import { createTestApp, jsonBody, ON_POSTGRES } from '../support/app'
import { eventually } from '../support/eventually'
import { createUser, seedPlace } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
const PASSWORD = 'Broker@123'
let master: Actor

beforeAll(async () => {
  await seedPlace(h.ctx.db)
  master = { ...(await createUser(h.ctx.db, { email: 'master@example.com', role: 'MASTER_ADMIN', fullName: 'Master' })), access: 'any' }
})
beforeEach(async () => {
  await h.ctx.limits.loginByAddress.reset(h.address)
})

const login = (email: string, password = PASSWORD) => h.request('/api/auth/login', jsonBody({ email, password }))
async function signIn(email: string) {
  const res = await login(email)
  expect(res.status).toBe(200)
  return (await res.json()).token as string
}
const me = (token: string) => h.request('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
const sessionsOf = (userId: number) =>
  h.ctx.db.all<{ id: string; expiresAt: number }>('select id, expires_at as "expiresAt" from sessions where user_id = ? order by created_at, id', [userId])

describe('sessions', () => {
  test('a session is answered from memory until something ends or changes it, whoever writes that (another process too)', async () => {
    // The memory is each process's own. A binary runs one process per core, and a request on a new connection may
    // reach one that never saw this session (CI caught that once): this test runs the binary as one process.
    const one = h.inProcess ? h : await createTestApp({ WORKERS: '1' })
    try {
      const me = (token: string) => one.request('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
      const user = await createUser(one.ctx.db, { email: 'memory@example.com' })
      const signedIn = await one.request('/api/auth/login', jsonBody({ email: 'memory@example.com', password: PASSWORD }))
      expect(signedIn.status).toBe(200)
      const { token } = (await signedIn.json()) as { token: string }
      expect((await me(token)).status).toBe(200)
      // Its expiry moved by hand, a write no change feed carries: the session is still answered from memory (for up
      // to 10 s), the proof that requests no longer read it from the database each time.
      await one.ctx.db.run('update sessions set expires_at = ? where user_id = ?', [Date.now() - 1000, user.id])
      expect((await me(token)).status).toBe(200)
      await one.ctx.db.run('update sessions set expires_at = ? where user_id = ?', [Date.now() + 29 * 86_400_000, user.id])
      // A name changed straight in the database: the next request sees it (on PostgreSQL, once notified: below).
      await one.ctx.db.run('update users set full_name = ? where id = ?', ['Renamed In Place', user.id])
      const name = async () => (await (await me(token)).json()).full_name
      if (ON_POSTGRES) await eventually('the new name answered', async () => (await name()) === 'Renamed In Place', 30_000)
      else expect(await name()).toBe('Renamed In Place')
      // The session deleted straight in the database (as another instance's sign-out does): refused at once on SQLite,
      // whose feed is read before each answer; on PostgreSQL once the deletion's notification has arrived, a moment
      // after its commit (milliseconds; more on a loaded machine: CI once asked in between).
      await one.ctx.db.run('delete from sessions where user_id = ?', [user.id])
      if (ON_POSTGRES) await eventually('the ended session refused', async () => (await me(token)).status === 401, 30_000)
      else expect((await me(token)).status).toBe(401)
    } finally {
      if (one !== h) await one.close()
    }
  })

  test('only the token’s SHA-256 is stored, never the token', async () => {
    const user = await createUser(h.ctx.db, { email: 'hash@example.com' })
    const token = await signIn('hash@example.com')
    const [row] = await sessionsOf(user.id)
    expect(row!.id).not.toBe(token)
    expect(row!.id).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'))
    expect(Number(row!.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000)
  })

  test('refresh rotates the token: the old one stops working, the new one works and is set as the cookie', async () => {
    await createUser(h.ctx.db, { email: 'rotate@example.com' })
    const old = await signIn('rotate@example.com')
    const res = await h.request('/api/auth/refresh', { method: 'POST', headers: { cookie: `${SESSION_COOKIE}=${old}`, origin: 'http://localhost' } })
    expect(res.status).toBe(200)
    const { token, user } = await res.json()
    expect(user.email).toBe('rotate@example.com')
    expect(token).not.toBe(old)
    expect(res.headers.get('set-cookie')).toContain(`${SESSION_COOKIE}=${token}`)
    expect((await me(old)).status).toBe(401)
    expect((await me(token)).status).toBe(200)
  })

  test('a session in its second half is extended when used: by cookie, the API and a page set the cookie again with the new end; by bearer, no cookie', async () => {
    const user = await createUser(h.ctx.db, { email: 'renew@example.com' })
    // Each session's end moved into its second half before its first use (a session already answered from memory
    // keeps what it was read with for a few seconds).
    const aged = async () => {
      const token = await signIn('renew@example.com')
      await h.ctx.db.run('update sessions set expires_at = ? where id = ?', [Date.now() + RENEW_WITHIN_MS - 3_600_000, new Bun.CryptoHasher('sha256').update(token).digest('hex')])
      return token
    }
    const endOf = async (token: string) => Number((await sessionsOf(user.id)).find((r) => r.id === new Bun.CryptoHasher('sha256').update(token).digest('hex'))!.expiresAt)
    const renewedCookie = (res: Response, token: string) => {
      const cookie = res.headers.get('set-cookie') ?? ''
      expect(cookie).toContain(`${SESSION_COOKIE}=${token}`)
      expect(cookie).toContain('HttpOnly')
      expect(Date.parse(/Expires=([^;]+)/i.exec(cookie)![1]!) - Date.now()).toBeGreaterThan(29 * 86_400_000)
    }
    const api = await aged()
    const res = await h.request('/api/auth/me', { headers: { cookie: `${SESSION_COOKIE}=${api}` } })
    expect(res.status).toBe(200)
    renewedCookie(res, api)
    expect((await endOf(api)) - Date.now()).toBeGreaterThan(29 * 86_400_000)

    const page = await aged()
    const shown = await h.request('/dashboard', { headers: { cookie: `${SESSION_COOKIE}=${page}` } })
    expect(shown.status).toBe(200)
    renewedCookie(shown, page)

    const bearer = await aged()
    const plain = await me(bearer)
    expect(plain.status).toBe(200)
    expect(plain.headers.get('set-cookie')).toBeNull()
    expect((await endOf(bearer)) - Date.now()).toBeGreaterThan(29 * 86_400_000)
  })

  test('the cookie is Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://brokers.example.com' })
    try {
      await createUser(secure.ctx.db, { email: 'tls@example.com' })
      const res = await secure.request('/api/auth/login', jsonBody({ email: 'tls@example.com', password: PASSWORD }))
      expect(res.headers.get('set-cookie')).toContain('Secure')
    } finally {
      await secure.close()
    }
  })

  test('deactivating a user ends all their sessions at once', async () => {
    const user = await createUser(h.ctx.db, { email: 'deactivate@example.com' })
    const [a, b] = [await signIn('deactivate@example.com'), await signIn('deactivate@example.com')]
    await setUserActive(h.ctx, master, user.id, false, 'Deactivated by admin')
    expect(await sessionsOf(user.id)).toHaveLength(0)
    expect((await me(a)).status).toBe(401)
    expect((await me(b)).status).toBe(401)
    expect((await login('deactivate@example.com')).status).toBe(403)
  })

  test('rejecting a pending user ends their sessions; approving lets them sign in', async () => {
    const pending = await createUser(h.ctx.db, { email: 'pending@example.com', isActive: false, registrationStatus: 'PENDING' })
    expect((await login('pending@example.com')).status).toBe(403)
    await approveUser(h.ctx, master, pending.id)
    const token = await signIn('pending@example.com')
    expect((await me(token)).status).toBe(200)

    const other = await createUser(h.ctx.db, { email: 'reject@example.com', isActive: false, registrationStatus: 'PENDING' })
    // A session made some other way (e.g. before the rules changed) still ends on rejection.
    await h.ctx.db.run('insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)', ['x'.repeat(64), other.id, Date.now() + 86_400_000, Date.now()])
    await rejectUser(h.ctx, master, other.id, 'Document unreadable')
    expect(await sessionsOf(other.id)).toHaveLength(0)
    const res = await login('reject@example.com')
    expect(res.status).toBe(403)
    expect((await res.json()).detail).toContain('rejected')
    expect((await h.ctx.db.get<{ reason: string | null }>('select rejection_reason as reason from users where id = ?', [other.id]))!.reason).toBe('Document unreadable')
  })
})

describe('cross-site requests', () => {
  test('a cookie-authenticated mutation needs our own Origin; a bearer token does not', async () => {
    await createUser(h.ctx.db, { email: 'origin@example.com' })
    const token = await signIn('origin@example.com')
    const cookie = `${SESSION_COOKIE}=${token}`
    const refresh = (headers: Record<string, string>) => h.request('/api/auth/refresh', { method: 'POST', headers })
    for (const headers of [{ cookie }, { cookie, origin: 'https://evil.example' }] as Record<string, string>[]) {
      const res = await refresh(headers)
      expect(res.status).toBe(403)
      expect((await res.json()).detail).toContain('Cross-site')
    }
    // Reading with the cookie needs no Origin, and the session survived the refused attempts.
    expect((await h.request('/api/auth/me', { headers: { cookie } })).status).toBe(200)
    expect((await refresh({ authorization: `Bearer ${token}` })).status).toBe(200)
  })
})

describe('rate limits on sign-in', () => {
  test('after 5 failures an account is locked for a while: 429 with Retry-After, even with the right password', async () => {
    await createUser(h.ctx.db, { email: 'locked@example.com' })
    for (let i = 0; i < 5; i++) expect((await login('locked@example.com', 'Wrong@1234')).status).toBe(401)
    const res = await login('locked@example.com')
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60)
    expect((await res.json()).detail).toContain('Too many failed sign-in attempts')
    // Other accounts from the same address still get in.
    await createUser(h.ctx.db, { email: 'neighbour@example.com' })
    expect((await login('neighbour@example.com')).status).toBe(200)
  })

  test('one address failing across many accounts is stopped too', async () => {
    const limiter = h.ctx.limits.loginByAddress
    for (let i = 1; i < limiter.limit; i++) await limiter.hit(h.address)
    expect((await login(`someone${Date.now()}@example.com`, 'Wrong@1234')).status).toBe(401)
    const res = await login('anyone-else@example.com', 'Wrong@1234')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBeTruthy()
  })

  test('a successful sign-in clears the account’s failures', async () => {
    await createUser(h.ctx.db, { email: 'forgetful@example.com' })
    for (let i = 0; i < 4; i++) await login('forgetful@example.com', 'Wrong@1234')
    expect((await login('forgetful@example.com')).status).toBe(200)
    for (let i = 0; i < 4; i++) expect((await login('forgetful@example.com', 'Wrong@1234')).status).toBe(401)
  })
})
