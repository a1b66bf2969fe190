import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'
import { newSecret } from '../../src/modules/second-factor/codes'
import { SECOND_FACTOR } from '../../src/shared/constants'
import { dataLayer, type FixtureDb } from './fixtures'

// Issue 29: codes of an authenticator app, computed in the test with the same library from the key the app was given
// (the setup's answer, or the page's manual-entry text), and the enrolment a script goes through.

/** The 30-second step of now. */
export const stepNow = () => Math.floor(Date.now() / (SECOND_FACTOR.periodSeconds * 1000))

/** The code an app shows for `secret` (base32, spaces allowed) at `step` (now by default). */
export const codeFor = (secret: string, step = stepNow()) => generateHOTP(decodeBase32IgnorePadding(secret.replace(/\s/g, '')), BigInt(step), SECOND_FACTOR.digits)

type Request = (path: string, init?: RequestInit) => Promise<Response>

/**
 * Sets up two-factor sign-in through the API with a session token (as a script would), using the code of the current
 * step: answers the key, the recovery codes, the new session token (the old one has ended) and the step spent.
 */
export async function enrolByApi(request: Request, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const setup = await request('/api/auth/second-factor/setup', { method: 'POST', headers, body: '{}' })
  if (setup.status !== 200) throw new Error(`setup: ${setup.status} ${await setup.text()}`)
  const { secret } = (await setup.json()) as { secret: string }
  const step = stepNow()
  const confirm = await request('/api/auth/second-factor/confirm', { method: 'POST', headers, body: JSON.stringify({ code: codeFor(secret, step) }) })
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`)
  const done = (await confirm.json()) as { recovery_codes: string[]; token: string }
  return { secret, recoveryCodes: done.recovery_codes, token: done.token, step }
}

/** Turns two-factor sign-in on for a user directly (a fixture, as signIn makes sessions): answers the key. */
export async function giveSecondFactor(db: FixtureDb, userId: number): Promise<string> {
  const secret = newSecret()
  await dataLayer(db).run('insert into second_factors (user_id, secret, confirmed_at, last_step, created_at) values (?, ?, ?, null, ?)', [userId, secret, Date.now(), Date.now()])
  return secret
}
