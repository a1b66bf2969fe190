import type { Cookie } from 'elysia'
import type { users } from '../../../db/schema'
import type { Queryable } from '../../../db/sql'
import type { SessionUser } from '../sessions'
import { resumeSession } from './auth'
import { elysiaCredentials } from './credentials'
import type { AppContext } from '../context'

export type PageUser = {
  id: number
  email: string
  full_name: string
  /** Their own phone (issue 35: a new listing's contact starts as it). */
  phone: string | null
  role: (typeof users.$inferSelect)['role']
  is_active: boolean
  city_id: number | null
  city_name: string | null
  state_name: string | null
  country_name: string | null
}

/** The user as the API and pages show them: SPEC field names, with their city, state and country names. */
export async function describeUser(db: Queryable, u: SessionUser): Promise<PageUser> {
  const place = u.cityId
    ? await db.get<{ city: string; state: string; country: string }>(
        `select cities.name as city, states.name as state, countries.name as country
         from cities join states on states.id = cities.state_id join countries on countries.id = states.country_id
         where cities.id = ?`,
        [u.cityId],
      )
    : undefined
  return {
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    phone: u.phone ?? null,
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

/**
 * The signed-in user of a page request, described, and whether the session may only enrol a second factor (issue 29);
 * null when signed out or the session has expired.
 */
export async function pageSession(ctx: AppContext, cookie: Record<string, Cookie<unknown>>): Promise<{ user: PageUser; enrolmentOnly: boolean } | null> {
  // Pages are a browser's: the session cookie only (no bearer token, no read-after header).
  const found = await resumeSession(ctx, elysiaCredentials({}, cookie))
  return found?.user ? { user: await describeUser(ctx.db, found.user), enrolmentOnly: found.enrolmentOnly } : null
}

/** The signed-in user of a page request, described; null when signed out or the session has expired. */
export const pageUser = async (ctx: AppContext, cookie: Record<string, Cookie<unknown>>): Promise<PageUser | null> => (await pageSession(ctx, cookie))?.user ?? null

/** Where a signed-out visitor goes: the login page, remembering what they asked for. */
export const loginRedirect = (request: Request) => {
  const url = new URL(request.url)
  return new Response(null, { status: 302, headers: { location: `/login?redirect=${encodeURIComponent(url.pathname + url.search)}` } })
}
