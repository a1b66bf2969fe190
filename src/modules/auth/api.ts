import { Elysia, t } from 'elysia'
import { authGuard, endSession, readToken, SESSION_COOKIE, sessionCookieOptions } from '../../platform/http/auth'
import { elysiaCredentials } from '../../platform/http/credentials'
import { clientAddress } from '../../platform/http/client-address'
import type { AppContext } from '../../platform/context'
import { describeUser } from '../../platform/http/page-auth'
import { tooLarge } from '../../platform/errors'
import { LIMITS } from '../../shared/constants'
import { ErrorDetail as Detail } from '../../shared/schema'
import { ForgotPasswordBody, LoginBody, Message, RegisterBody, Registered, ResetPasswordBody, SecondFactorLoginBody } from './model'
import { completeSignIn } from '../second-factor/service'
import { requestPasswordReset, resetPassword } from './password-reset'
import type { RaisePush } from '../notifications/kinds'
import { FILE_TOO_LARGE, REGISTERED, register } from './registration'
import { login } from './service'
import { createSession, invalidateSession, sessionIdOf } from '../../platform/sessions'
import { dropEmptyFormFields } from '../../platform/http/form-data'

const tags = ['Auth']
export const CurrentUser = t.Object({
  id: t.Integer(),
  email: t.String(),
  full_name: t.String(),
  phone: t.Union([t.String(), t.Null()], { description: 'Their own phone, as registered (a new listing’s contact starts as it)' }),
  role: t.Union([t.Literal('MASTER_ADMIN'), t.Literal('MODULE_ADMIN'), t.Literal('BROKER')]),
  is_active: t.Boolean(),
  city_id: t.Union([t.Integer(), t.Null()]),
  city_name: t.Union([t.String(), t.Null()]),
  state_name: t.Union([t.String(), t.Null()]),
  country_name: t.Union([t.String(), t.Null()]),
})
const SignedIn = t.Object({
  user: CurrentUser,
  token: t.String({ description: 'The session token, for scripts: send it as `Authorization: Bearer <token>`' }),
  second_factor_setup: t.Boolean({
    description: 'True when this session may only set up two-factor sign-in (an admin who must have it and has none): every other route answers 403 until POST /api/auth/second-factor/confirm',
  }),
})
const SecondFactorChallenge = t.Object({
  second_factor_required: t.Literal(true),
  challenge: t.String({ description: 'Send it with a code to POST /api/auth/login/second-factor within 5 minutes; it works once' }),
})

// A registration body is the document plus a few short fields; anything much larger is refused before parsing.
const REGISTRATION_BODY_LIMIT = LIMITS.registrationFileBytes + 64 * 1024

/** Registration, sign-in, sessions and password reset (SPEC section 7 "Auth"). */
export const authApi = (ctx: AppContext, push?: RaisePush) =>
  new Elysia({ name: 'auth-api', prefix: '/api/auth' })
    .use(authGuard(ctx))
    .resolve(({ request }) => ({ ipAddress: clientAddress(request, ctx.config.trustProxy) }))
    .post(
      '/register',
      async ({ body, ipAddress, set }) => {
        const user = await register(ctx, body, ipAddress, push)
        set.status = 201
        return { id: user.id, email: user.email, full_name: user.fullName, registration_status: 'PENDING' as const, message: REGISTERED }
      },
      {
        parse: ({ request }) => {
          // Thrown, not returned: a parse hook's return value is taken as the body.
          if (Number(request.headers.get('content-length') ?? 0) > REGISTRATION_BODY_LIMIT) throw tooLarge(FILE_TOO_LARGE)
        },
        transform: dropEmptyFormFields,
        body: RegisterBody,
        type: 'multipart/form-data',
        response: { 201: Registered, 409: Detail, 413: Detail, 422: t.Any(), 429: Detail },
        detail: {
          tags,
          security: [],
          summary: 'Register as a broker (pending admin approval; does not sign in)',
          description:
            "Multipart form. `id_card_file` is optional: JPEG, PNG or PDF judged by its bytes, at most 5 MB. Errors: 409 `email already registered` or `id card number already registered`; 422 `invalid city` or `file type not allowed`; 413 `file too large`; 422 with a list of `{loc, msg}` for field rules; 429 when an address registers too often. Admins of the user's city and master admins are notified by mail (and by push alert on their devices).",
        },
      },
    )
    .post(
      '/login',
      async ({ body, cookie, request, ipAddress }) => {
        const result = await login(ctx, body.email, body.password, { userAgent: request.headers.get('user-agent'), ipAddress })
        if (result.challenge !== undefined) return { second_factor_required: true as const, challenge: result.challenge }
        cookie[SESSION_COOKIE]!.set({ value: result.token, ...sessionCookieOptions(ctx.config.publicUrl, result.session.expiresAt) })
        return { user: await describeUser(ctx.db, result.user), token: result.token, second_factor_setup: result.session.enrolmentOnly }
      },
      {
        body: LoginBody,
        response: { 200: t.Union([SignedIn, SecondFactorChallenge]), 401: Detail, 403: Detail, 429: Detail },
        detail: {
          tags,
          security: [],
          summary: 'Sign in: sets the session cookie and returns the user and the session token (or asks for a second factor)',
          description:
            'A wrong email or password is one 401 that does not say which. 403 says whether the registration is pending approval, was rejected, or the account is inactive. Failed attempts are limited per address and per account (429 with `Retry-After`). Scripts and Swagger UI send the returned `token` as `Authorization: Bearer <token>` (the Authorize button). A user with two-factor sign-in gets no session yet but `{second_factor_required: true, challenge}`: send the challenge and a code to POST /api/auth/login/second-factor. A master admin (and a module admin when the setting is on) without two-factor sign-in gets a session with `second_factor_setup: true` that may only set it up.',
        },
      },
    )
    .post(
      '/login/second-factor',
      async ({ body, cookie, request, ipAddress }) => {
        const result = await completeSignIn(ctx, body.challenge, body.code, { userAgent: request.headers.get('user-agent'), ipAddress })
        cookie[SESSION_COOKIE]!.set({ value: result.token, ...sessionCookieOptions(ctx.config.publicUrl, result.session.expiresAt) })
        return { user: await describeUser(ctx.db, result.user), token: result.token, second_factor_setup: false }
      },
      {
        body: SecondFactorLoginBody,
        response: { 200: SignedIn, 401: Detail, 403: Detail, 422: t.Any(), 429: Detail },
        detail: {
          tags,
          security: [],
          summary: "Sign in's second step: the challenge and a code from the authenticator app (or a recovery code)",
          description:
            'Sets the session cookie and returns the user and the token, as POST /api/auth/login does. `code` is the 6-digit code of the app (each works once) or one of the recovery codes (each works once). 401 for a wrong, used or expired code or challenge (a challenge lasts 5 minutes and works once); wrong codes are limited per account and per address (429 with `Retry-After`) and audited. 403 when the account was deactivated meanwhile.',
        },
      },
    )
    .get('/me', ({ user }) => describeUser(ctx.db, user), {
      signedIn: 'enrolling',
      response: { 200: CurrentUser, 401: Detail, 403: Detail },
      detail: { tags, summary: 'The signed-in user, with city, state and country names' },
    })
    .post(
      '/refresh',
      async ({ user, enrolmentOnly, headers, cookie, request }) => {
        // A new token replaces the presented one, which stops working at once; an enrolment-only session stays one.
        const old = readToken(elysiaCredentials(headers, cookie))!
        await invalidateSession(ctx.db, sessionIdOf(old.token))
        const next = await createSession(ctx.db, user.id, { userAgent: request.headers.get('user-agent'), enrolmentOnly })
        if (old.viaCookie) cookie[SESSION_COOKIE]!.set({ value: next.token, ...sessionCookieOptions(ctx.config.publicUrl, next.session.expiresAt) })
        return { user: await describeUser(ctx.db, user), token: next.token, second_factor_setup: enrolmentOnly }
      },
      {
        signedIn: 'enrolling',
        response: { 200: SignedIn, 401: Detail, 403: Detail },
        detail: { tags, summary: 'Rotate the session token: the old one ends, a new one (30 days) is returned and set as the cookie' },
      },
    )
    .post(
      '/logout',
      async ({ cookie, headers, request, set }) => {
        await endSession(ctx, request, elysiaCredentials(headers, cookie))
        set.status = 204
      },
      {
        response: { 204: t.Void({ description: 'Signed out (also when there was no session)' }), 403: Detail },
        detail: {
          tags,
          summary: 'Sign out: ends this session',
          description: 'Without a session it is a 204 as well. A cookie-borne sign-out must come from this site (403 otherwise), like every cookie-authenticated change.',
          // A session is optional here (`{}`: none is fine).
          security: [{}, { cookieAuth: [] }, { bearerAuth: [] }],
        },
      },
    )
    .post('/password/forgot', async ({ body, ipAddress }) => ({ message: await requestPasswordReset(ctx, body.email, ipAddress) }), {
      body: ForgotPasswordBody,
      response: { 200: Message, 422: t.Any(), 429: Detail },
      detail: {
        tags,
        security: [],
        summary: 'Ask for a password reset link by mail',
        description:
          'Answers the same whether or not the email has an account. The mailed link is valid for one hour and works once; asking again retires earlier links. Limited per address and per email (429 with `Retry-After`).',
      },
    })
    .post('/password/reset', async ({ body, ipAddress }) => ({ message: await resetPassword(ctx, body, ipAddress) }), {
      body: ResetPasswordBody,
      response: { 200: Message, 400: Detail, 422: t.Any(), 429: Detail },
      detail: {
        tags,
        security: [],
        summary: 'Set a new password with the token from the mailed link',
        description: 'Applies the registration password rules. Ends every session of the user. An unknown, used or expired token is a 400.',
      },
    })
