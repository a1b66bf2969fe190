import { afterAll, expect, test } from 'bun:test'
import { createSession, invalidateUserSessions, sessionIdOf, validateSessionToken } from '../../src/platform/sessions'
import { can, grantFor } from '../../src/platform/policy/permissions'
import { signIn } from '../support/auth'
import { createTestApp } from '../support/app'

const h = await createTestApp()
afterAll(() => h.close())
const DAY = 86_400_000

test('only the hash of the token is stored', async () => {
  const { user } = await signIn(h.ctx.db, 'BROKER')
  const { token, session } = await createSession(h.ctx.db, user.id)
  expect(session.id).toBe(sessionIdOf(token))
  expect(session.id).not.toContain(token)
  expect(token.length).toBeGreaterThanOrEqual(32)
  expect(await h.ctx.db.get('select id from sessions where id = ?', [token])).toBeUndefined()
})

test('sliding expiry: 30 days, renewed once past half its life; expired sessions are gone', async () => {
  const { user } = await signIn(h.ctx.db, 'BROKER')
  const { token, session } = await createSession(h.ctx.db, user.id)
  expect(session.expiresAt.getTime() - Date.now()).toBeGreaterThan(29.9 * DAY)
  expect((await validateSessionToken(h.ctx.db, token))!.renewed).toBe(false)

  await h.ctx.db.run('update sessions set expires_at = ? where id = ?', [Date.now() + 10 * DAY, session.id])
  const renewed = (await validateSessionToken(h.ctx.db, token))!
  expect(renewed.renewed).toBe(true)
  expect(renewed.session.expiresAt.getTime() - Date.now()).toBeGreaterThan(29.9 * DAY)

  await h.ctx.db.run('update sessions set expires_at = ? where id = ?', [Date.now() - 1000, session.id])
  expect(await validateSessionToken(h.ctx.db, token)).toBeNull()
  expect(await h.ctx.db.get('select id from sessions where id = ?', [session.id])).toBeUndefined()
  expect(await validateSessionToken(h.ctx.db, 'not-a-token')).toBeNull()
})

test("invalidating a user's sessions ends all of them", async () => {
  const { user, token } = await signIn(h.ctx.db, 'BROKER')
  const second = (await createSession(h.ctx.db, user.id)).token
  await invalidateUserSessions(h.ctx.db, user.id)
  expect(await validateSessionToken(h.ctx.db, token)).toBeNull()
  expect(await validateSessionToken(h.ctx.db, second)).toBeNull()
})

test('permissions by role', () => {
  expect(can('MASTER_ADMIN', 'manage:geography:any')).toBe(true)
  expect(can('MODULE_ADMIN', 'manage:geography:any')).toBe(false)
  expect(can('BROKER', 'read:geography:any')).toBe(true)
  expect(can('MODULE_ADMIN', 'manage:user:city')).toBe(true)
  expect(can('MODULE_ADMIN', 'manage:user:any')).toBe(false)
  expect(can('MASTER_ADMIN', 'manage:user:city')).toBe(true) // any covers city
  expect(grantFor('BROKER', 'manage:listing:any')).toBe('own')
  expect(grantFor('BROKER', 'read:audit:any')).toBeNull()
})
