import { eq } from 'drizzle-orm'
import type { Cookie } from 'elysia'
import { cities, countries, states, users } from '../../db/schema'
import { validateSessionToken } from '../modules/auth/session'
import { SESSION_COOKIE, sessionCookieOptions } from './auth'
import type { AppContext } from './context'

export type PageUser = {
  id: number
  email: string
  full_name: string
  role: (typeof users.$inferSelect)['role']
  is_active: boolean
  city_id: number | null
  city_name: string | null
  state_name: string | null
  country_name: string | null
}

type CookieJar = Record<string, Cookie<unknown>>

/** The signed-in user (by cookie, or a bearer header when given), with their place names; null when signed out. */
export function pageUser({ db, config }: AppContext, cookie: CookieJar, authorization?: string): PageUser | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1]
  const token = bearer ?? cookie[SESSION_COOKIE]?.value
  if (typeof token !== 'string' || !token) return null
  const result = validateSessionToken(db, token)
  if (!result) return null
  if (result.renewed && !bearer) cookie[SESSION_COOKIE]!.set({ value: token, ...sessionCookieOptions(config.publicUrl, result.session.expiresAt) })
  const place = result.user.cityId
    ? db
        .select({ city: cities.name, state: states.name, country: countries.name })
        .from(cities)
        .innerJoin(states, eq(cities.stateId, states.id))
        .innerJoin(countries, eq(states.countryId, countries.id))
        .where(eq(cities.id, result.user.cityId))
        .get()
    : undefined
  const u = result.user
  return {
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    role: u.role,
    is_active: u.isActive,
    city_id: u.cityId,
    city_name: place?.city ?? null,
    state_name: place?.state ?? null,
    country_name: place?.country ?? null,
  }
}

/** Where a signed-out visitor goes: the login page, remembering what they asked for. */
export const loginRedirect = (request: Request) => {
  const url = new URL(request.url)
  return new Response(null, { status: 302, headers: { location: `/login?redirect=${encodeURIComponent(url.pathname + url.search)}` } })
}
