import type { Queryable } from '../../../db/sql'

// The analytics' tables, kept by triggers (listing_daily_counts, owner_listing_counts): their SQL (issue 31).

/** Listings posted in a city (0: the network) on or after a date, from the daily counts (a month is a few dozen rows). */
export const listingsPostedSince = async (db: Queryable, cityId: number, date: string): Promise<number> =>
  Number((await db.get<{ n: number }>('select coalesce(sum(n), 0) as n from listing_daily_counts where city_id = ? and date >= ?', [cityId, date]))!.n)
