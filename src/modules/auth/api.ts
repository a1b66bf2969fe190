import { Elysia, t } from 'elysia'
import { authGuard, endSession, SESSION_COOKIE, sessionCookieOptions } from '../../http/auth'
import type { AppContext } from '../../http/context'
import { describeUser } from '../../http/page-auth'
import { ErrorDetail as Detail } from '../../shared/schema'
import { LoginBody } from './model'
import { login } from './service'

const tags = ['Auth']
export const CurrentUser = t.Object({
  id: t.Integer(),
  email: t.String(),
  full_name: t.String(),
  role: t.Union([t.Literal('MASTER_ADMIN'), t.Literal('MODULE_ADMIN'), t.Literal('BROKER')]),
  is_active: t.Boolean(),
  city_id: t.Union([t.Integer(), t.Null()]),
  city_name: t.Union([t.String(), t.Null()]),
  state_name: t.Union([t.String(), t.Null()]),
  country_name: t.Union([t.String(), t.Null()]),
})

/** Sign-in and sign-out (SPEC section 7 "Auth"). Registration and password reset come with the accounts work. */
export const authApi = (ctx: AppContext) =>
  new Elysia({ name: 'auth-api', prefix: '/api/auth' })
    .use(authGuard(ctx))
    .post(
      '/login',
      async ({ body, cookie, request, server }) => {
        const result = await login(ctx.db, body.email, body.password, {
          userAgent: request.headers.get('user-agent'),
          ipAddress: server?.requestIP(request)?.address ?? null,
        })
        cookie[SESSION_COOKIE]!.set({ value: result.token, ...sessionCookieOptions(ctx.config.publicUrl, result.session.expiresAt) })
        return { user: describeUser(ctx.db, result.user), token: result.token }
      },
      {
        body: LoginBody,
        response: { 200: t.Object({ user: CurrentUser, token: t.String({ description: 'For scripts: send as Authorization: Bearer <token>' }) }), 401: Detail, 403: Detail },
        detail: { tags, summary: 'Sign in: sets the session cookie and returns the user and the session token', security: [] },
      },
    )
    .get('/me', ({ user }) => describeUser(ctx.db, user), {
      signedIn: true,
      response: { 200: CurrentUser, 401: Detail, 403: Detail },
      detail: { tags, summary: 'The signed-in user, with city, state and country names' },
    })
    .post(
      '/logout',
      ({ cookie, headers, set }) => {
        endSession(ctx.db, headers, cookie)
        set.status = 204
      },
      { detail: { tags, summary: 'Sign out: ends this session' } },
    )
