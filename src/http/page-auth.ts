import { eq } from 'drizzle-orm'
import type { Cookie } from 'elysia'
import type { Database } from '../../db/client'
import { cities, countries, states, users } from '../../db/schema'
import type { SessionUser } from '../modules/auth/session'
import { resumeSession } from './auth'
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

/** The user as the API and pages show them: SPEC field names, with their city, state and country names. */
export function describeUser(db: Database, u: SessionUser): PageUser {
  const place = u.cityId
    ? db
        .select({ city: cities.name, state: states.name, country: countries.name })
        .from(cities)
        .innerJoin(states, eq(cities.stateId, states.id))
        .innerJoin(countries, eq(states.countryId, countries.id))
        .where(eq(cities.id, u.cityId))
        .get()
    : undefined
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

/** The page user as services see a caller: id, role and city decide every scope. */
export const viewerOf = (u: Pick<PageUser, 'id' | 'role' | 'city_id'>) => ({ id: u.id, role: u.role, cityId: u.city_id })

/** The signed-in user of a page request, described; null when signed out or the session has expired. */
export function pageUser(ctx: AppContext, cookie: Record<string, Cookie<unknown>>): PageUser | null {
  const user = resumeSession(ctx, {}, cookie)?.user
  return user ? describeUser(ctx.db, user) : null
}

/** Where a signed-out visitor goes: the login page, remembering what they asked for. */
export const loginRedirect = (request: Request) => {
  const url = new URL(request.url)
  return new Response(null, { status: 302, headers: { location: `/login?redirect=${encodeURIComponent(url.pathname + url.search)}` } })
}
