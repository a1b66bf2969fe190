import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { runCommand } from '../../src/cli'
import { sessionIdOf } from '../../src/platform/sessions'
import { createTestApp, jsonBody, type TestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { auditTrail, createUser, seedPlace, type Place } from '../support/fixtures'
import { codeFor, enrolByApi, stepNow } from '../support/second-factor'

// Issue 29: admins prove a second factor. Sign-in with a password, then a code computed here from the key the setup
// gave (the same library as an authenticator app); scripts with bearer tokens throughout, as the README shows.
// In process, against the binary and on PostgreSQL.

const PASSWORD = 'Admin@12345'
let h: TestApp
let place: Place
let master: SignedIn
let n = 0

beforeAll(async () => {
  h = await createTestApp()
  place = await seedPlace(h.ctx.db)
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
})
afterAll(() => h.close())
beforeEach(async () => {
  // Each test's wrong codes are its own: the address's counts start again (accounts are new in every test).
  await h.ctx.limits.secondFactorByAddress.reset(h.address)
  await h.ctx.limits.loginByAddress.reset(h.address)
})

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const login = (email: string, password = PASSWORD) => h.request('/api/auth/login', jsonBody({ email, password }))
const secondStep = (challenge: string, code: string) => h.request('/api/auth/login/second-factor', jsonBody({ challenge, code }))
const get = (path: string, token: string) => h.request(path, { headers: bearer(token) })
const post = (path: string, token: string, body: unknown = {}) => h.request(path, withJson(bearer(token), body))

/** A new admin with a password, signed in through the API (not a fixture session). */
async function admin(role: 'MASTER_ADMIN' | 'MODULE_ADMIN') {
  const email = `admin${++n}-${Date.now()}@second-factor.example`
  const user = await createUser(h.ctx.db, { email, role, fullName: `Admin ${n}`, cityId: role === 'MODULE_ADMIN' ? place.cities[0]!.id : null }, PASSWORD)
  const res = await login(email)
  expect(res.status).toBe(200)
  return { user, email, answer: (await res.json()) as { token?: string; second_factor_setup?: boolean; second_factor_required?: boolean; challenge?: string } }
}

/** An admin with two-factor sign-in on (enrolled through the API). */
async function enrolledAdmin(role: 'MASTER_ADMIN' | 'MODULE_ADMIN' = 'MASTER_ADMIN') {
  const a = await admin(role)
  return { ...a, ...(await enrolByApi(h.request, a.answer.token!)) }
}

async function challengeFor(email: string) {
  const res = await login(email)
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(body).toEqual({ second_factor_required: true, challenge: expect.any(String) })
  return body.challenge as string
}

const sessionsOf = async (userId: number) => (await h.ctx.db.all('select id from sessions where user_id = ?', [userId])).length

describe('enrolment', () => {
  test("a master admin's first sign-in opens a session that can only set up two-factor sign-in; the setup, by script", async () => {
    const { user, answer } = await admin('MASTER_ADMIN')
    expect(answer.second_factor_setup).toBe(true)
    const token = answer.token!
    // Everything else is refused, with a detail saying what to do; who they are and the setup are not.
    const refused = await get('/api/listings/', token)
    expect(refused.status).toBe(403)
    expect((await refused.json()).detail).toContain('Set up two-factor sign-in')
    expect((await get('/api/users/', token)).status).toBe(403)
    expect((await get('/api/auth/me', token)).status).toBe(200)
    expect(await (await get('/api/auth/second-factor', token)).json()).toEqual({ enabled: false, required: true, enabled_at: null, recovery_codes_left: 0 })

    const setup = await post('/api/auth/second-factor/setup', token)
    expect(setup.status).toBe(200)
    const { secret, uri, qr_svg } = await setup.json()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(uri).toStartWith(`otpauth://totp/Brokernet:${encodeURIComponent(user.email)}?`)
    expect(new URL(uri).searchParams.get('secret')).toBe(secret)
    expect(new URL(uri).searchParams.get('period')).toBe('30')
    expect(qr_svg).toStartWith('<svg')
    // Stored while it waits for a code, not yet on.
    const stored = await h.ctx.db.get<{ secret: string; confirmed_at: unknown }>('select secret, confirmed_at from second_factors where user_id = ?', [user.id])
    expect(stored).toEqual({ secret, confirmed_at: null })

    // A wrong code: a field error, audited; the setup still waits.
    const wrong = await post('/api/auth/second-factor/confirm', token, { code: codeFor(secret, stepNow() + 5) })
    expect(wrong.status).toBe(422)
    expect((await wrong.json()).detail[0]).toMatchObject({ loc: ['body', 'code'], msg: expect.stringContaining('not right') })
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_failed', entityId: user.id })).toHaveLength(1)

    const confirm = await post('/api/auth/second-factor/confirm', token, { code: codeFor(secret) })
    expect(confirm.status).toBe(200)
    const done = await confirm.json()
    expect(done.recovery_codes).toHaveLength(10)
    expect(new Set(done.recovery_codes).size).toBe(10)
    for (const c of done.recovery_codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/)
    // The enrolment-only session ended; the new one is a full session.
    expect((await get('/api/auth/me', token)).status).toBe(401)
    expect((await get('/api/listings/', done.token)).status).toBe(200)
    expect(await sessionsOf(user.id)).toBe(1)
    // Only hashes of the recovery codes are kept.
    const hashes = (await h.ctx.db.all<{ code_hash: string }>('select code_hash from recovery_codes where user_id = ?', [user.id])).map((r) => r.code_hash)
    expect(hashes).toHaveLength(10)
    for (const c of done.recovery_codes) expect(hashes).not.toContain(c)
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_enable', entityId: user.id })).toHaveLength(1)
    // The key is never answered again.
    const status = await (await get('/api/auth/second-factor', done.token)).json()
    expect(status).toMatchObject({ enabled: true, required: true, recovery_codes_left: 10 })
    expect(JSON.stringify(status)).not.toContain(secret)
    expect((await post('/api/auth/second-factor/setup', done.token)).status).toBe(409)
    expect(JSON.stringify(await auditTrail(h.ctx.db, { entityId: user.id }))).not.toContain(secret)
  })

  test('a broker cannot set one up; their sign-in is unchanged', async () => {
    const broker = await createUser(h.ctx.db, { email: `broker${++n}@second-factor.example`, cityId: place.cities[0]!.id }, PASSWORD)
    const res = await login(broker.email)
    const body = await res.json()
    expect(body.second_factor_setup).toBe(false)
    expect((await post('/api/auth/second-factor/setup', body.token)).status).toBe(403)
    expect((await get('/api/listings/', body.token)).status).toBe(200)
  })

  test('refreshing an enrolment-only session keeps it one', async () => {
    const { answer } = await admin('MASTER_ADMIN')
    const refreshed = await post('/api/auth/refresh', answer.token!)
    expect(refreshed.status).toBe(200)
    const next = await refreshed.json()
    expect(next.second_factor_setup).toBe(true)
    expect((await get('/api/listings/', next.token)).status).toBe(403)
  })
})

describe('signing in with a second factor', () => {
  test('the password answers a challenge, no session; the code opens one; a used code, a wrong one and a spent challenge are refused', async () => {
    const a = await enrolledAdmin()
    const before = await sessionsOf(a.user.id)
    const challenge = await challengeFor(a.email)
    expect(await sessionsOf(a.user.id)).toBe(before)

    const wrong = await secondStep(challenge, codeFor(a.secret, a.step + 7))
    expect(wrong.status).toBe(401)
    expect((await wrong.json()).detail).toContain('not right')

    // The enrolment spent the current step: its code does not work again.
    const reused = await secondStep(challenge, codeFor(a.secret, a.step))
    expect(reused.status).toBe(401)
    expect((await reused.json()).detail).toContain('already used')

    const ok = await secondStep(challenge, codeFor(a.secret, a.step + 1))
    expect(ok.status).toBe(200)
    const signedIn = await ok.json()
    expect(signedIn.user.email).toBe(a.email)
    expect(signedIn.second_factor_setup).toBe(false)
    expect(ok.headers.get('set-cookie')).toContain('brokernet_session=')
    expect((await get('/api/users/', signedIn.token)).status).toBe(200)

    // The challenge worked once.
    const again = await secondStep(challenge, codeFor(a.secret, a.step + 1))
    expect(again.status).toBe(401)
    expect((await again.json()).detail).toContain('expired')
    const failed = await auditTrail(h.ctx.db, { action: 'user.second_factor_failed', entityId: a.user.id })
    expect(failed).toHaveLength(2)
    expect(failed.map((e) => e.reason).join(' | ')).toContain('already used')
    expect(failed.map((e) => e.reason).join(' | ')).toContain('not right')
  })

  test('a recovery code signs in once', async () => {
    const a = await enrolledAdmin()
    const [first, second] = a.recoveryCodes
    const ok = await secondStep(await challengeFor(a.email), first!.toUpperCase().replace(/-/g, ' '))
    expect(ok.status).toBe(200)
    const token = (await ok.json()).token
    expect((await get('/api/auth/second-factor', token)).ok).toBe(true)
    expect((await (await get('/api/auth/second-factor', token)).json()).recovery_codes_left).toBe(9)
    const again = await secondStep(await challengeFor(a.email), first!)
    expect(again.status).toBe(401)
    expect((await again.json()).detail).toContain('recovery code')
    expect((await secondStep(await challengeFor(a.email), second!)).status).toBe(200)
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_recovery_used', entityId: a.user.id })).toHaveLength(2)
  })

  test('an expired challenge is refused', async () => {
    const a = await enrolledAdmin()
    const challenge = await challengeFor(a.email)
    await h.ctx.db.run('update second_factor_challenges set expires_at = ? where id = ?', [Date.now() - 1, sessionIdOf(challenge)])
    const res = await secondStep(challenge, codeFor(a.secret, a.step + 1))
    expect(res.status).toBe(401)
    expect((await res.json()).detail).toContain('expired')
  })

  test('wrong codes are limited per account: the sixth attempt is a 429 with Retry-After, even with the right code', async () => {
    const a = await enrolledAdmin()
    const challenge = await challengeFor(a.email)
    for (let i = 0; i < 5; i++) expect((await secondStep(challenge, codeFor(a.secret, a.step + 10 + i))).status).toBe(401)
    const limited = await secondStep(challenge, codeFor(a.secret, a.step + 1))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await limited.json()).detail).toContain('Too many wrong codes')
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_failed', entityId: a.user.id })).toHaveLength(5)
  })

  test('a password reset ends the sessions and does not skip the code', async () => {
    const a = await enrolledAdmin()
    const token = 'reset-token-for-second-factor-test-' + n
    await h.ctx.db.run('insert into password_reset_tokens (id, user_id, expires_at, created_at) values (?, ?, ?, ?)', [sessionIdOf(token), a.user.id, Date.now() + 60_000, Date.now()])
    const reset = await h.request('/api/auth/password/reset', jsonBody({ token, password: 'Fresh@12345', confirm_password: 'Fresh@12345' }))
    expect(reset.status).toBe(200)
    expect((await get('/api/auth/me', a.token)).status).toBe(401)
    const res = await login(a.email, 'Fresh@12345')
    expect(await res.json()).toEqual({ second_factor_required: true, challenge: expect.any(String) })
  })
})

describe('own factor: new recovery codes, turning it off', () => {
  test('new recovery codes for a current code; the old ones stop working', async () => {
    const a = await enrolledAdmin()
    expect((await post('/api/auth/second-factor/recovery-codes', a.token, { code: codeFor(a.secret, a.step) })).status).toBe(422) // used
    const res = await post('/api/auth/second-factor/recovery-codes', a.token, { code: codeFor(a.secret, a.step + 1) })
    expect(res.status).toBe(200)
    const { recovery_codes } = await res.json()
    expect(recovery_codes).toHaveLength(10)
    expect((await secondStep(await challengeFor(a.email), a.recoveryCodes[0]!)).status).toBe(401)
    expect((await secondStep(await challengeFor(a.email), recovery_codes[0])).status).toBe(200)
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_recovery_codes', entityId: a.user.id })).toHaveLength(1)
  })

  test('a master admin cannot turn theirs off; a module admin can when it is not required', async () => {
    const m = await enrolledAdmin('MASTER_ADMIN')
    const refused = await post('/api/auth/second-factor/disable', m.token, { code: codeFor(m.secret, m.step + 1) })
    expect(refused.status).toBe(403)
    const mod = await enrolledAdmin('MODULE_ADMIN')
    expect((await post('/api/auth/second-factor/disable', mod.token, { code: '000000' })).status).toBe(422)
    const off = await post('/api/auth/second-factor/disable', mod.token, { code: codeFor(mod.secret, mod.step + 1) })
    expect(off.status).toBe(204)
    expect((await h.ctx.db.get('select user_id from second_factors where user_id = ?', [mod.user.id])) ?? null).toBeNull()
    expect(await h.ctx.db.all('select id from recovery_codes where user_id = ?', [mod.user.id])).toEqual([])
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_disable', entityId: mod.user.id })).toHaveLength(1)
    // Off: the password alone signs in again, to a full session.
    expect((await (await login(mod.email)).json()).second_factor_setup).toBe(false)
  })
})

describe('reset by a master admin', () => {
  test("a master admin resets a module admin's lost factor: sessions end, mail, audit; the next sign-in needs no code", async () => {
    const mod = await enrolledAdmin('MODULE_ADMIN')
    const listed = await (await get(`/api/users/${mod.user.id}`, master.token)).json()
    expect(listed.has_second_factor).toBe(true)

    const res = await post(`/api/users/${mod.user.id}/second-factor/reset`, master.token)
    expect(res.status).toBe(204)
    expect((await get('/api/auth/me', mod.token)).status).toBe(401)
    expect(await sessionsOf(mod.user.id)).toBe(0)
    expect((await (await get(`/api/users/${mod.user.id}`, master.token)).json()).has_second_factor).toBe(false)
    const [event] = await auditTrail(h.ctx.db, { action: 'user.second_factor_reset', entityId: mod.user.id })
    expect(event).toMatchObject({ actorUserId: master.user.id, entityType: 'user' })
    await h.mailIdle()
    const mail = await h.ctx.db.get<{ subject: string }>('select subject from mail_outbox where to_address = ? order by id desc limit 1', [mod.email])
    expect(mail?.subject).toBe('Your Brokernet two-factor sign-in was reset')
    expect((await (await login(mod.email)).json()).second_factor_setup).toBe(false)

    expect((await post(`/api/users/${mod.user.id}/second-factor/reset`, master.token)).status).toBe(409)
    expect((await post('/api/users/999999999/second-factor/reset', master.token)).status).toBe(404)
    expect((await post(`/api/users/${master.user.id}/second-factor/reset`, master.token)).status).toBe(403)
  })

  test('a module admin cannot reset anyone', async () => {
    const other = await enrolledAdmin('MODULE_ADMIN')
    const mod = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: place.cities[0]!.id })
    const res = await post(`/api/users/${other.user.id}/second-factor/reset`, mod.token)
    expect(res.status).toBe(403)
    expect((await h.ctx.db.get('select user_id from second_factors where user_id = ?', [other.user.id])) ?? null).not.toBeNull()
    expect(await auditTrail(h.ctx.db, { action: 'user.second_factor_reset', entityId: other.user.id })).toEqual([])
  })
})

describe('the module-admin setting', () => {
  test('turned on: module admins without a factor are signed out and must set one up; audited; only a master admin sets it', async () => {
    const mod = await admin('MODULE_ADMIN')
    expect(mod.answer.second_factor_setup).toBe(false) // off by default
    const modToken = mod.answer.token!
    const enrolled = await enrolledAdmin('MODULE_ADMIN')
    expect(await (await get('/api/settings/second-factor', master.token)).json()).toEqual({ required_for_module_admins: false, updated_at: null })
    expect((await get('/api/settings/second-factor', modToken)).status).toBe(403)
    expect((await h.request('/api/settings/second-factor', withJson(bearer(modToken), { required_for_module_admins: true }, 'PUT'))).status).toBe(403)

    const on = await h.request('/api/settings/second-factor', withJson(bearer(master.token), { required_for_module_admins: true }, 'PUT'))
    expect(on.status).toBe(200)
    expect(await on.json()).toMatchObject({ required_for_module_admins: true, updated_at: expect.any(String) })
    expect((await get('/api/auth/me', modToken)).status).toBe(401) // signed out
    expect((await get('/api/auth/me', enrolled.token)).status).toBe(200) // has one: stays
    const again = (await (await login(mod.email)).json()) as { token: string; second_factor_setup: boolean }
    expect(again.second_factor_setup).toBe(true)
    expect((await get('/api/listings/', again.token)).status).toBe(403)
    expect(await (await get('/api/auth/second-factor', again.token)).json()).toMatchObject({ enabled: false, required: true })
    // Required now: the enrolled module admin cannot turn theirs off.
    expect((await post('/api/auth/second-factor/disable', enrolled.token, { code: codeFor(enrolled.secret, enrolled.step + 1) })).status).toBe(403)
    const [event] = await auditTrail(h.ctx.db, { action: 'setting.update' })
    expect(event).toMatchObject({ actorUserId: master.user.id, entityType: 'setting', before: { required_for_module_admins: false }, after: { required_for_module_admins: true } })

    const off = await h.request('/api/settings/second-factor', withJson(bearer(master.token), { required_for_module_admins: false }, 'PUT'))
    expect((await off.json()).required_for_module_admins).toBe(false)
    expect((await (await login(mod.email)).json()).second_factor_setup).toBe(false)
  })
})

describe('pages', () => {
  test('an enrolment-only session is sent from any dashboard page to the setup, shown outside the shell', async () => {
    const { answer } = await admin('MASTER_ADMIN')
    const cookie = { cookie: `brokernet_session=${answer.token}` }
    const listings = await h.request('/dashboard/listings', { headers: cookie })
    expect(listings.status).toBe(302)
    expect(listings.headers.get('location')).toBe('/dashboard/security')
    const setup = await h.request('/dashboard/security', { headers: cookie })
    expect(setup.status).toBe(200)
    const html = await setup.text()
    expect(html).toContain('Set up two-factor sign-in')
    expect(html).not.toContain('data-user-menu')
    // A full session sees the Security page in the shell, linked from the navigation.
    const full = await (await h.request('/dashboard/security', { headers: { cookie: `brokernet_session=${master.token}` } })).text()
    expect(full).toContain('data-user-menu')
    expect(full).toContain('href="/dashboard/security"')
    expect(full).toContain('data-second-factor-status="off"')
  })
})

describe('the server command', () => {
  test('`brokernet reset-second-factor EMAIL` resets the factor of a master admin with nobody to reset it; refuses what it cannot', async () => {
    const a = await enrolledAdmin()
    const out: string[] = []
    const err: string[] = []
    const run = (...args: string[]) => runCommand(args, h.config, (l) => void out.push(l), (l) => void err.push(l))
    expect(await run('reset-second-factor', a.email.toUpperCase())).toBe(0)
    expect(out.join('\n')).toContain(`Two-factor sign-in of ${a.email} reset`)
    expect((await get('/api/auth/me', a.token)).status).toBe(401)
    expect((await (await login(a.email)).json()).second_factor_setup).toBe(true)
    const [event] = await auditTrail(h.ctx.db, { action: 'user.second_factor_reset', entityId: a.user.id })
    expect(event).toMatchObject({ actorUserId: null, actorName: null, reason: expect.stringContaining('on the server') })

    expect(await run('reset-second-factor', a.email)).toBe(1)
    expect(err.join('\n')).toContain('has no two-factor sign-in')
    expect(await run('reset-second-factor', 'nobody@second-factor.example')).toBe(1)
    expect(err.join('\n')).toContain('no user has the email')
    expect(await run('reset-second-factor')).toBe(2)
  })
})
