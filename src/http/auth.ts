import { Elysia, type Cookie } from 'elysia'
import type { Database } from '../../db/client'
import { can, grantFor, type Access, type Permission } from '../policy/permissions'
import type { SessionUser } from '../modules/auth/session'
import { invalidateSession, sessionIdOf, validateSessionToken } from '../modules/auth/session'
import { ACCOUNT_INACTIVE } from '../modules/auth/service'
import type { AppContext } from './context'
import { forbidden, unauthorized } from './errors'

export const SESSION_COOKIE = 'brokernet_session'

/** The signed-in user as routes see it, with the access their permission was granted at. */
export type Actor = SessionUser & { access: Access }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

type Headers = Record<string, string | undefined>
type CookieJar = Record<string, Cookie<unknown>>

/** Where a session token came from: the browser cookie, or `Authorization: Bearer` from scripts. */
export function readToken(headers: Headers, cookie: CookieJar): { token: string; viaCookie: boolean } | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1]
  if (bearer) return { token: bearer, viaCookie: false }
  const value = cookie[SESSION_COOKIE]?.value
  if (typeof value === 'string' && value) return { token: value, viaCookie: true }
  return null
}

/**
 * The session a request carries, validated (and its cookie extended when the session was renewed);
 * null when there is none or it has expired. Every route and page reads the caller through this.
 */
export function resumeSession({ db, config }: AppContext, headers: Headers, cookie: CookieJar) {
  const found = readToken(headers, cookie)
  if (!found) return null
  const result = validateSessionToken(db, found.token)
  if (!result) return { ...found, user: null }
  if (found.viaCookie && result.renewed)
    cookie[SESSION_COOKIE]!.set({ value: found.token, ...sessionCookieOptions(config.publicUrl, result.session.expiresAt) })
  return { ...found, user: result.user }
}

/** Ends the session the request carries, if any, and clears the cookie: sign-out from the API and the user menu. */
export function endSession(db: Database, headers: Headers, cookie: CookieJar): void {
  const found = readToken(headers, cookie)
  if (found) invalidateSession(db, sessionIdOf(found.token))
  cookie[SESSION_COOKIE]?.remove()
}

/**
 * Authentication and authorisation for routes: `{ signedIn: true }` needs any active user,
 * `{ permission: 'manage:geography:any' }` also needs the role to hold it (403 otherwise).
 * Cookie-authenticated mutations must come from our own origin (a cross-site form cannot ride the cookie).
 */
export const authGuard = (ctx: AppContext) => {
  const allowedOrigins = new Set([new URL(ctx.config.publicUrl).origin])

  function authenticate(request: Request, headers: Headers, cookie: CookieJar): SessionUser {
    const found = resumeSession(ctx, headers, cookie)
    if (!found) throw unauthorized()
    if (!found.user) throw unauthorized('Your session has expired. Please log in again.')
    if (found.viaCookie && !SAFE_METHODS.has(request.method)) {
      const origin = headers.origin
      const own = new URL(request.url).origin
      if (!origin || (origin !== own && !allowedOrigins.has(origin))) throw forbidden('Cross-site request refused: it must come from this site')
    }
    if (!found.user.isActive) throw forbidden(ACCOUNT_INACTIVE)
    return found.user
  }

  return new Elysia().macro({
    signedIn: (enabled: boolean) => ({
      resolve({ request, headers, cookie }) {
        if (!enabled) return
        return { user: authenticate(request, headers, cookie) }
      },
    }),
    permission: (permission: Permission) => ({
      resolve({ request, headers, cookie }) {
        const user = authenticate(request, headers, cookie)
        if (!can(user.role, permission)) throw forbidden("You don't have permission to do this")
        return { user: { ...user, access: grantFor(user.role, permission)! } as Actor }
      },
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
