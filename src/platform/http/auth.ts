import { Elysia } from 'elysia'
import { can, ENROLMENT_PERMISSION, grantFor, type Access, type Permission } from '../policy/permissions'
import type { SessionUser } from '../sessions'
import { invalidateSession, sessionIdOf } from '../sessions'
import type { AppContext } from '../context'
import { forbidden, unauthenticated } from '../errors'
import type { Answering } from './compression'
import { requestCredentials, type Credentials } from './credentials'
import { markWrite, readAfterWrite } from './read-after'

export const SESSION_COOKIE = 'brokernet_session'

/** The answer to a signed-in user whose account was deactivated, on every route and at sign-in. */
export const ACCOUNT_INACTIVE = 'Account Inactive: Your account is currently inactive. Please contact an administrator.'

/** The answer to a session that may only enrol a second factor (issue 29), on every route but enrolment's. */
export const SECOND_FACTOR_SETUP_REQUIRED = 'Set up two-factor sign-in first: open /dashboard/security to add an authenticator app.'

/** The signed-in user as routes see it, with the access their permission was granted at. */
export type Actor = SessionUser & { access: Access }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Where a session token came from: the browser cookie, or `Authorization: Bearer` from scripts. */
export function readToken(credentials: Credentials): { token: string; viaCookie: boolean } | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(credentials.header('authorization') ?? '')?.[1]
  if (bearer) return { token: bearer, viaCookie: false }
  const value = credentials.cookie(SESSION_COOKIE)
  if (value) return { token: value, viaCookie: true }
  return null
}

/**
 * The session a request carries, validated (and its cookie extended when the session was renewed);
 * null when there is none or it has expired. Every route and page reads the caller through this.
 * On PostgreSQL, a request that names a write (./read-after.ts) first waits for this process to have heard it: the
 * session and everything read after it show that write.
 */
export async function resumeSession({ db, config, sessions, feed }: AppContext, credentials: Credentials) {
  const found = readToken(credentials)
  if (!found) return null
  const reaching = readAfterWrite(feed, credentials)
  if (reaching) await reaching
  const result = await sessions.validate(db, found.token)
  if (!result) return { ...found, user: null, enrolmentOnly: false }
  if (found.viaCookie && result.renewed) credentials.setCookie(SESSION_COOKIE, { value: found.token, ...sessionCookieOptions(config.publicUrl, result.session.expiresAt) })
  return { ...found, user: result.user, enrolmentOnly: result.session.enrolmentOnly }
}

/**
 * A cookie rides along with any request the browser sends, including one another site makes it send; a mutation that
 * authenticates by cookie must therefore come from our own origin (scripts with a bearer token are not at risk).
 */
export function refuseCrossSite(request: Request, credentials: Credentials, viaCookie: boolean, allowedOrigins: Set<string>): void {
  if (!viaCookie || SAFE_METHODS.has(request.method)) return
  const origin = credentials.header('origin')
  if (!origin || (origin !== new URL(request.url).origin && !allowedOrigins.has(origin))) throw forbidden('Cross-site request refused: it must come from this site')
}

/** The origins, besides the request's own, that may send cookie-authenticated mutations: PUBLIC_URL's. */
export const allowedOriginsOf = (ctx: AppContext) => new Set([new URL(ctx.config.publicUrl).origin])

/**
 * Ends the session the request carries, if any, and clears the cookie: sign-out from the API and the user menu.
 * A cookie-borne sign-out from another site is refused like any other cross-site mutation.
 */
export async function endSession(ctx: AppContext, request: Request, credentials: Credentials): Promise<void> {
  const found = readToken(credentials)
  if (found) {
    refuseCrossSite(request, credentials, found.viaCookie, allowedOriginsOf(ctx))
    await invalidateSession(ctx.db, sessionIdOf(found.token))
  }
  // As Elysia's jar removes one it was sent: an empty value that expired long ago.
  if (credentials.cookie(SESSION_COOKIE) !== undefined) credentials.setCookie(SESSION_COOKIE, { value: '', expires: new Date(0), maxAge: 0 })
}

/**
 * Authentication and authorisation for routes: `{ permission: 'manage:geography:any' }` needs an active user whose
 * role holds it (403 otherwise); `{ signedIn: true }` any active user, for the few routes no entity permission fits
 * (the caller's own session and event stream: the allow-list in tests/api/route-permissions.test.ts).
 * A session opened for an admin who must still enrol a second factor (issue 29) is refused everywhere (403) but on
 * the routes marked `{ signedIn: 'enrolling' }` (who the caller is, their session) and those of ENROLMENT_PERMISSION.
 * Cookie-authenticated mutations must come from our own origin (a cross-site form cannot ride the cookie).
 *
 * The caller is checked before anything of the request is read: in the `parse` stage (before a body is parsed: an
 * anonymous caller never gets 11 MB read for them) and again, from memory, in `transform` (before query and path
 * parameters are validated), so 401 and 403 come before 422 and say nothing about the route's schema.
 */
export const authGuard = (ctx: AppContext) => {
  const allowedOrigins = allowedOriginsOf(ctx)
  // A signed-in write's answer names its feed position (./read-after.ts); only where the feed has positions (PostgreSQL):
  // on SQLite no route gets the hook at all.
  const secure = ctx.config.publicUrl.startsWith('https://')
  const marking = ctx.feed.reach
    ? {
        afterHandle({ request, set, responseValue }: { request: Request; set: Answering; responseValue: unknown }) {
          markWrite(ctx.feed, request.method, set, requestCredentials(request, set), responseValue, secure)
        },
      }
    : {}
  // One check per request, whichever stage runs it first (one session query); the request object is the key, so
  // nothing outlives it. The later stages await the same answer. The hooks name neither `headers` nor `cookie`: they
  // read the request itself (./credentials.ts), so Elysia copies and parses neither for a route that does not ask.
  const checked = new WeakMap<Request, Promise<Caller>>()
  type Caller = { user: SessionUser; enrolmentOnly: boolean }

  function authenticate(request: Request, set: Answering, permission?: Permission, enrolling = false): Promise<Caller> {
    let outcome = checked.get(request)
    if (!outcome) checked.set(request, (outcome = authenticateNow(request, requestCredentials(request, set), permission, enrolling)))
    return outcome
  }

  async function authenticateNow(request: Request, credentials: Credentials, permission: Permission | undefined, enrolling: boolean): Promise<Caller> {
    const found = await resumeSession(ctx, credentials)
    if (!found) throw unauthenticated()
    if (!found.user) throw unauthenticated('Your session has expired. Please log in again.')
    refuseCrossSite(request, credentials, found.viaCookie, allowedOrigins)
    if (!found.user.isActive) throw forbidden(ACCOUNT_INACTIVE)
    if (found.enrolmentOnly && !enrolling && permission !== ENROLMENT_PERMISSION) throw forbidden(SECOND_FACTOR_SETUP_REQUIRED)
    if (permission && !can(found.user.role, permission)) throw forbidden("You don't have permission to do this")
    return { user: found.user, enrolmentOnly: found.enrolmentOnly }
  }

  return new Elysia().macro({
    /** `true`: any active user with a full session; `'enrolling'`: a session that may only enrol a second factor too. */
    signedIn: (enabled: boolean | 'enrolling') => ({
      detail: (enabled ? { 'x-signed-in': true } : {}) as Record<string, unknown>,
      // Nothing returned: a parse hook's value would be taken as the body.
      async parse({ request, set }) {
        if (enabled) await authenticate(request, set, undefined, enabled === 'enrolling')
      },
      async transform({ request, set }) {
        if (enabled) await authenticate(request, set, undefined, enabled === 'enrolling')
      },
      async resolve({ request, set }) {
        if (!enabled) return
        const caller = await authenticate(request, set, undefined, enabled === 'enrolling')
        return { user: caller.user, enrolmentOnly: caller.enrolmentOnly }
      },
      ...(enabled ? marking : {}),
    }),
    permission: (permission: Permission) => ({
      // Named in the OpenAPI document too (`x-permission`), where tests/api/route-permissions.test.ts checks every route has one.
      detail: { 'x-permission': permission } as Record<string, unknown>,
      async parse({ request, set }) {
        await authenticate(request, set, permission)
      },
      async transform({ request, set }) {
        await authenticate(request, set, permission)
      },
      async resolve({ request, set }) {
        const { user } = await authenticate(request, set, permission)
        return { user: { ...user, access: grantFor(user.role, permission)! } as Actor }
      },
      ...marking,
    }),
  })
}

export const sessionCookieOptions = (publicUrl: string, expires: Date) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: publicUrl.startsWith('https://'),
  path: '/',
  expires,
})
