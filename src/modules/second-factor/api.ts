import { Elysia } from 'elysia'
import { t } from 'elysia'
import { authGuard, readToken, SESSION_COOKIE, sessionCookieOptions } from '../../platform/http/auth'
import { elysiaCredentials } from '../../platform/http/credentials'
import { clientAddress } from '../../platform/http/client-address'
import type { AppContext } from '../../platform/context'
import { ENROLMENT_PERMISSION } from '../../platform/policy/permissions'
import { ErrorDetail as Detail, NoContent } from '../../shared/schema'
import { UserIdParams } from '../users/model'
import { CodeBody, Enrolled, Enrolment, FactorStatus, Policy, PolicyBody, RecoveryCodes } from './model'
import { confirmEnrolment, disableFactor, factorStatus, regenerateRecoveryCodes, resetFactor, setPolicy, startEnrolment } from './service'
import { secondFactorPolicy } from './settings'

const tags = ['Two-factor sign-in']
const own = ENROLMENT_PERMISSION
const errors = { 401: Detail, 403: Detail }

/** Issue 29: an admin's own second factor, its reset by a master admin, and the setting for module admins. */
export const secondFactorApi = (ctx: AppContext) =>
  new Elysia({ name: 'second-factor-api' })
    .use(authGuard(ctx))
    .resolve(({ request }) => ({ ipAddress: clientAddress(request, ctx.config.trustProxy) }))
    .get('/api/auth/second-factor', ({ user }) => factorStatus(ctx, user), {
      permission: own,
      response: { 200: FactorStatus, ...errors },
      detail: { tags, summary: 'Your two-factor sign-in: on or off, required for your role, recovery codes left' },
    })
    .post('/api/auth/second-factor/setup', ({ user }) => startEnrolment(ctx, user), {
      permission: own,
      response: { 200: Enrolment, ...errors, 409: Detail },
      detail: {
        tags,
        summary: 'Start setting up two-factor sign-in: a new authenticator key, its QR code and URI',
        description:
          'For admins. The key waits for POST /api/auth/second-factor/confirm; asking again replaces it. 409 when two-factor sign-in is already on. An admin whose session may only set it up (`second_factor_setup` at sign-in) reaches this route and the others of this tag.',
      },
    })
    .post(
      '/api/auth/second-factor/confirm',
      async ({ user, body, headers, cookie, request, ipAddress }) => {
        const presented = readToken(elysiaCredentials(headers, cookie))
        const done = await confirmEnrolment(ctx, user, body.code, { userAgent: request.headers.get('user-agent'), ipAddress })
        if (presented?.viaCookie) cookie[SESSION_COOKIE]!.set({ value: done.token, ...sessionCookieOptions(ctx.config.publicUrl, done.session.expiresAt) })
        return { recovery_codes: done.recovery_codes, token: done.token }
      },
      {
        permission: own,
        body: CodeBody,
        response: { 200: Enrolled, ...errors, 409: Detail, 422: t.Any(), 429: Detail },
        detail: {
          tags,
          summary: 'Finish the setup with a code from the app: two-factor sign-in is on; ten recovery codes, shown once',
          description:
            'Every session of yours ends and a new one is answered (`token`, and the cookie when you sent one): a session opened before cannot carry on unproved. 422 for a wrong code (limited per account and address: 429 with `Retry-After`; audited). 409 when no setup is waiting or it is already on.',
        },
      },
    )
    .post('/api/auth/second-factor/recovery-codes', ({ user, body, ipAddress }) => regenerateRecoveryCodes(ctx, user, body.code, ipAddress), {
      permission: own,
      body: CodeBody,
      response: { 200: RecoveryCodes, ...errors, 409: Detail, 422: t.Any(), 429: Detail },
      detail: {
        tags,
        summary: 'Ten new recovery codes for a current code of the app; the earlier ones stop working',
        description: '422 for a wrong or used code (limited: 429 with `Retry-After`). 409 when two-factor sign-in is off.',
      },
    })
    .post(
      '/api/auth/second-factor/disable',
      async ({ user, body, ipAddress, set }) => {
        await disableFactor(ctx, user, body.code, ipAddress)
        set.status = 204
      },
      {
        permission: own,
        body: CodeBody,
        response: { 204: NoContent('Two-factor sign-in is off'), ...errors, 409: Detail, 422: t.Any(), 429: Detail },
        detail: {
          tags,
          summary: 'Turn your two-factor sign-in off, with a code of the app or a recovery code',
          description: '403 when your role must use it (master admins; module admins when the setting is on). 422 for a wrong code (limited: 429). 409 when it is off.',
        },
      },
    )
    .post(
      '/api/users/:id/second-factor/reset',
      async ({ user, params, set }) => {
        await resetFactor(ctx, user, params.id)
        set.status = 204
      },
      {
        permission: 'manage:second-factor:any',
        params: UserIdParams,
        response: { 204: NoContent('Reset: the user was signed out everywhere and told by mail'), ...errors, 404: Detail, 409: Detail },
        detail: {
          tags,
          summary: "Reset a user's lost two-factor sign-in (master admins)",
          description:
            'Removes their authenticator key and recovery codes, ends all their sessions and mails them; their next sign-in sets it up again where their role requires it. 403 for anyone but a master admin, and for your own. 409 when they have none.',
        },
      },
    )
    .get('/api/settings/second-factor', () => secondFactorPolicy(ctx.db), {
      permission: 'manage:module-admin:any',
      response: { 200: Policy, ...errors },
      detail: { tags, summary: 'Whether module admins must use two-factor sign-in (master admins always do)' },
    })
    .put('/api/settings/second-factor', ({ user, body }) => setPolicy(ctx, user, body.required_for_module_admins), {
      permission: 'manage:module-admin:any',
      body: PolicyBody,
      response: { 200: Policy, ...errors, 422: t.Any() },
      detail: {
        tags,
        summary: 'Require two-factor sign-in for module admins, or stop requiring it',
        description: 'Audited. Turned on, module admins without it are signed out; their next sign-in asks them to set it up before anything else.',
      },
    })
