import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { createTestApp, jsonBody, type TestApp } from '../support/app'
import { createUser } from '../support/fixtures'
import { startSmtp } from '../support/smtp'

// A real SMTP server on loopback receives the mail; the test follows the link in it like a person would.
let smtp: Awaited<ReturnType<typeof startSmtp>>
let h: TestApp
beforeAll(async () => {
  smtp = await startSmtp()
  h = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://brokernet.test' })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})
beforeEach(async () => {
  await h.ctx.limits.resetByAddress.reset(h.address)
})

const forgot = (email: string) => h.request('/api/auth/password/forgot', jsonBody({ email }))
const reset = (body: Record<string, string>) => h.request('/api/auth/password/reset', jsonBody(body))
const login = (email: string, password: string) => h.request('/api/auth/login', jsonBody({ email, password }))
const tokensOf = (userId: number) =>
  h.ctx.db.all<{ id: string; expiresAt: number }>('select id, expires_at as "expiresAt" from password_reset_tokens where user_id = ? order by created_at, id', [userId])
const sessionsOf = (userId: number) => h.ctx.db.all<{ id: string }>('select id from sessions where user_id = ?', [userId])
const linkIn = (mail: string) => /http:\/\/brokernet\.test\/reset-password\?token=([A-Za-z0-9%_-]+)/.exec(mail)?.[1]

describe('password reset by mail', () => {
  test('forgot → mail over SMTP → link → new password → sign in; the old password and old sessions stop working', async () => {
    const user = await createUser(h.ctx.db, { email: 'ravi@example.com', fullName: 'Ravi Kumar' }, 'Old@12345')
    const oldSession = (await (await login('ravi@example.com', 'Old@12345')).json()).token as string

    const res = await forgot('Ravi@Example.com')
    expect(res.status).toBe(200)
    const mail = await smtp.messageTo('ravi@example.com')
    expect(mail).toContain('Reset your Brokernet password')
    const token = decodeURIComponent(linkIn(mail)!)
    expect(token.length).toBeGreaterThan(20)
    // Only the hash is kept.
    const [row] = await tokensOf(user.id)
    expect(row!.id).toBe(new Bun.CryptoHasher('sha256').update(token).digest('hex'))
    expect(Number(row!.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000)
    expect(Number(row!.expiresAt) - Date.now()).toBeLessThanOrEqual(60 * 60_000)

    // The page the link opens asks for the new password.
    const page = await h.request(`/reset-password?token=${encodeURIComponent(token)}`)
    expect(page.status).toBe(200)

    const done = await reset({ token, password: 'New@12345', confirm_password: 'New@12345' })
    expect(done.status).toBe(200)
    expect((await done.json()).message).toContain('reset')
    expect((await login('ravi@example.com', 'Old@12345')).status).toBe(401)
    expect((await login('ravi@example.com', 'New@12345')).status).toBe(200)
    expect((await h.request('/api/auth/me', { headers: { authorization: `Bearer ${oldSession}` } })).status).toBe(401)
    expect(await h.ctx.db.all("select id from audit_events where action = 'user.password_reset'")).toHaveLength(1)

    // Single use.
    const again = await reset({ token, password: 'Other@12345', confirm_password: 'Other@12345' })
    expect(again.status).toBe(400)
    expect((await again.json()).detail).toContain('invalid or has expired')
  })

  test('the answer is the same whether or not the email has an account, and only a real account gets mail', async () => {
    await createUser(h.ctx.db, { email: 'known@example.com' })
    const known = await forgot('known@example.com')
    const unknown = await forgot('nobody-here@example.com')
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await known.json()).toEqual(await unknown.json())
    await h.mailIdle()
    const to = (await h.ctx.db.all<{ to: string }>('select to_address as "to" from mail_outbox order by id')).map((r) => r.to)
    expect(to).toContain('known@example.com')
    expect(to).not.toContain('nobody-here@example.com')
  })

  test('asking again retires the earlier link', async () => {
    const user = await createUser(h.ctx.db, { email: 'twice@example.com' })
    await forgot('twice@example.com')
    await forgot('twice@example.com')
    expect(await tokensOf(user.id)).toHaveLength(1)
  })

  test('an expired or unknown token: 400 with a clear message', async () => {
    const user = await createUser(h.ctx.db, { email: 'late@example.com' })
    await forgot('late@example.com')
    const mail = await smtp.messageTo('late@example.com')
    const token = decodeURIComponent(linkIn(mail)!)
    await h.ctx.db.run('update password_reset_tokens set expires_at = ? where user_id = ?', [Date.now() - 1000, user.id])
    for (const t of [token, 'made-up-token']) {
      const res = await reset({ token: t, password: 'New@12345', confirm_password: 'New@12345' })
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ detail: 'This reset link is invalid or has expired. Please request a new one.' })
    }
  })

  test('the new password follows the registration rules and must match its confirmation', async () => {
    const weak = await reset({ token: 'x', password: 'weakpass', confirm_password: 'weakpass' })
    expect(weak.status).toBe(422)
    expect((await weak.json()).detail[0]).toMatchObject({ loc: ['body', 'password'], msg: 'Password must contain at least one uppercase letter' })
    const mismatch = await reset({ token: 'x', password: 'New@12345', confirm_password: 'New@12346' })
    expect(mismatch.status).toBe(422)
    expect((await mismatch.json()).detail[0]).toMatchObject({ loc: ['body', 'confirm_password'], msg: "Passwords don't match" })
  })

  test('reset requests are limited per email and per address: 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await forgot('spam-target@example.com')).status).toBe(200)
    const res = await forgot('spam-target@example.com')
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)

    await h.ctx.limits.resetByAddress.reset(h.address)
    const limiter = h.ctx.limits.resetByAddress
    for (let i = 0; i < limiter.limit; i++) await limiter.hit(h.address)
    expect((await forgot(`fresh${Date.now()}@example.com`)).status).toBe(429)
  })

  test('a reset ends every session of the user', async () => {
    const user = await createUser(h.ctx.db, { email: 'sessions@example.com' }, 'Old@12345')
    await login('sessions@example.com', 'Old@12345')
    await login('sessions@example.com', 'Old@12345')
    expect(await sessionsOf(user.id)).toHaveLength(2)
    await forgot('sessions@example.com')
    const token = decodeURIComponent(linkIn(await smtp.messageTo('sessions@example.com'))!)
    expect((await reset({ token, password: 'New@12345', confirm_password: 'New@12345' })).status).toBe(200)
    expect(await sessionsOf(user.id)).toHaveLength(0)
  })
})
