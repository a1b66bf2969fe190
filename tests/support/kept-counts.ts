import type { Queryable } from '../../db/sql'

/**
 * The kept counts (docs/decisions/007-kept-counts.md): each table's key, column by column, with what that column holds
 * of a listing. Every table but owner_listing_counts also keeps the network's rows under city 0.
 */
export const KEPT: Record<string, Record<string, string>> = {
  listing_counts: {
    city_id: 'city_id',
    post_type: 'post_type',
    sale_or_rent: 'sale_or_rent',
    status: 'status',
    location: "coalesce(location, '')",
    property_type: 'lower(property_type)',
  },
  listing_daily_counts: { date: 'date', city_id: 'city_id', post_type: 'post_type' },
  owner_listing_counts: { owner_user_id: 'owner_user_id', city_id: 'city_id' },
  listing_day_counts: { city_id: 'city_id', date: 'date', post_type: 'post_type', sale_or_rent: 'sale_or_rent', status: 'status', location: "coalesce(location, '')" },
  listing_id_blocks: { city_id: 'city_id', block: 'id >> 10', suspended: "case status when 'SUSPENDED' then 1 when 'EXPIRED' then 2 else 0 end" },
}
/** PostgreSQL's own kept tables (db/pg/month_counts.sql), described as KEPT's: compared with what the rows say. */
export const PG_KEPT: Record<string, Record<string, string>> = {
  listing_month_counts: { city_id: 'city_id', month: 'substr(date, 1, 7)', post_type: 'post_type', sale_or_rent: 'sale_or_rent', status: 'status', location: "coalesce(location, '')" },
  // The network's only, of the listings with a budget; recounted on PostgreSQL (its bucket function).
  listing_budget_counts: { location: "coalesce(location, '')", status: 'status', bucket: 'brokernet_budget_bucket(budget)' },
}
const ALL_KEPT = { ...KEPT, ...PG_KEPT }
const WITHOUT_NETWORK = new Set(['owner_listing_counts', 'listing_budget_counts'])
const ONLY: Record<string, string> = { listing_budget_counts: 'where budget is not null' }

const rowsOf = (table: string, rows: Record<string, unknown>[]) =>
  rows.map((r) => JSON.stringify([...Object.keys(ALL_KEPT[table]!).map((k) => r[k]), Number(r.n)])).sort()

/** A table's contents as readers see them, in one comparable order: rows whose n does not add up to 0 (PostgreSQL's shards summed), by key. */
export async function kept(db: Queryable, table: string): Promise<string[]> {
  const key = Object.keys(ALL_KEPT[table]!).join(', ')
  return rowsOf(table, await db.all(`select ${key}, sum(n) as n from ${table} group by ${key} having sum(n) <> 0`))
}

/** What `kept` should answer, counted from the listings themselves. */
export async function recounted(db: Queryable, table: string): Promise<string[]> {
  const columns = Object.entries(ALL_KEPT[table]!)
  const select = (network: boolean) => columns.map(([name, value]) => `${network && name === 'city_id' ? '0' : value} as ${name}`).join(', ')
  const key = columns.map(([name]) => name).join(', ')
  const only = ONLY[table] ?? ''
  const network = WITHOUT_NETWORK.has(table) ? '' : ` union all select ${select(true)} from listings ${only}`
  return rowsOf(table, await db.all(`select ${key}, count(*) as n from (select ${select(false)} from listings ${only}${network}) l group by ${key}`))
}
