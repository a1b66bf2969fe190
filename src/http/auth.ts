import { Elysia } from 'elysia'
import { can, grantFor, type Access, type Permission } from '../policy/permissions'
import type { SessionUser } from '../modules/auth/session'
import { validateSessionToken } from '../modules/auth/session'
import type { AppContext } from './context'
import { forbidden, unauthorized } from './errors'

export const SESSION_COOKIE = 'brokernet_session'

/** The signed-in user as routes see it, with the access their permission was granted at. */
export type Actor = SessionUser & { access: Access }

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Where a session token came from: the browser cookie, or `Authorization: Bearer` from scripts. */
function readToken(headers: Record<string, string | undefined>, cookieValue: unknown): { token: string; viaCookie: boolean } | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1]
  if (bearer) return { token: bearer, viaCookie: false }
  if (typeof cookieValue === 'string' && cookieValue) return { token: cookieValue, viaCookie: true }
  return null
}

/**
 * Authentication and authorisation for routes: `{ signedIn: true }` needs any active user,
 * `{ permission: 'manage:geography:any' }` also needs the role to hold it (403 otherwise).
 * Cookie-authenticated mutations must come from our own origin (a cross-site form cannot ride the cookie).
 */
export const authGuard = ({ db, config }: AppContext) => {
  const allowedOrigins = new Set([new URL(config.publicUrl).origin])

  function authenticate(request: Request, headers: Record<string, string | undefined>, cookie: Record<string, { value: unknown; set: Function }>): SessionUser {
    const found = readToken(headers, cookie[SESSION_COOKIE]?.value)
    if (!found) throw unauthorized()
    const result = validateSessionToken(db, found.token)
    if (!result) throw unauthorized('Your session has expired. Please log in again.')
    if (found.viaCookie && !SAFE_METHODS.has(request.method)) {
      const origin = headers.origin
      const own = new URL(request.url).origin
      if (!origin || (origin !== own && !allowedOrigins.has(origin))) throw forbidden('Cross-site request refused: it must come from this site')
    }
    if (found.viaCookie && result.renewed)
      cookie[SESSION_COOKIE]!.set({ value: found.token, ...sessionCookieOptions(config.publicUrl, result.session.expiresAt) })
    if (!result.user.isActive) throw forbidden('Account inactive: your account is currently inactive. Please contact an administrator.')
    return result.user
  }

  return new Elysia().macro({
    signedIn: (enabled: boolean) => ({
      resolve({ request, headers, cookie }) {
        if (!enabled) return
        return { user: authenticate(request, headers, cookie as never) as SessionUser }
      },
    }),
    permission: (permission: Permission) => ({
      resolve({ request, headers, cookie }) {
        const user = authenticate(request, headers, cookie as never)
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
