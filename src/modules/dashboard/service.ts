import { and, count, eq, gte } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { cities, listings, users } from '../../../db/schema'
import type { PageUser } from '../../http/page-auth'

export type AdminStats = { activeBrokers: number; totalListings: number; thisMonth: number; cities: number }

/** The admin home's four cards, in the admin's scope (the original showed placeholders). */
export function adminStats(db: Database, user: Pick<PageUser, 'role' | 'city_id'>, today = new Date()): AdminStats {
  const city = user.role === 'MODULE_ADMIN' ? (user.city_id ?? -1) : null
  const monthStart = `${today.toISOString().slice(0, 7)}-01`
  const listingScope = city === null ? undefined : eq(listings.cityId, city)
  return {
    activeBrokers: db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.role, 'BROKER'), eq(users.isActive, true), city === null ? undefined : eq(users.cityId, city)))
      .get()!.n,
    totalListings: db.select({ n: count() }).from(listings).where(listingScope).get()!.n,
    thisMonth: db.select({ n: count() }).from(listings).where(and(listingScope, gte(listings.date, monthStart))).get()!.n,
    cities: city === null ? db.select({ n: count() }).from(cities).get()!.n : 1,
  }
}
