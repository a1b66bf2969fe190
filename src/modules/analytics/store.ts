import type { Queryable } from '../../../db/sql'
import { joinUser } from '../users/store'

// The analytics' tables, kept by triggers (listing_daily_counts, owner_listing_counts): their SQL (issue 31).

/** Listings posted in a city (0: the network) on or after a date, from the daily counts (a month is a few dozen rows). */
export const listingsPostedSince = async (db: Queryable, cityId: number, date: string): Promise<number> =>
  Number((await db.get<{ n: number }>('select coalesce(sum(n), 0) as n from listing_daily_counts where city_id = ? and date >= ?', [cityId, date]))!.n)

/** Listings per day and post type in a date range, of a city (0: the network; migration 0007), from the daily counts. */
export const dailyCounts = async (db: Queryable, start: string, end: string, cityId: number) =>
  (
    await db.all<{ date: string; postType: string; n: number }>(
      `select date, post_type as "postType", sum(n) as n from listing_daily_counts
           where date >= ? and date <= ? and city_id = ? group by date, post_type`,
      [start, end, cityId],
    )
  ).map((r) => ({ ...r, n: Number(r.n) }))

/** The brokers with the most listings, of a city or the network (null); ties go to the earlier account (lower id). */
export const topOwners = async (db: Queryable, cityId: number | null, limit: number) =>
  (
    await db.all<{ user_id: number; full_name: string; email: string; listing_count: number }>(
      `select u.id as user_id, u.full_name, u.email, p.n as listing_count
           from (select owner_user_id, sum(n) as n from owner_listing_counts${cityId === null ? '' : ' where city_id = ?'} group by owner_user_id) p
           ${joinUser('p.owner_user_id', 'u')}
           where u.role = ? and p.n > 0
           order by p.n desc, u.id asc
           limit ?`,
      cityId === null ? ['BROKER', limit] : [cityId, 'BROKER', limit],
    )
  ).map((r) => ({ ...r, listing_count: Number(r.listing_count) }))
