// `bun run bench`'s saved-searches case (issue 17): GET /api/saved-searches for a broker with 20 saved searches of
// every kind of filter, opened from 5 minutes to 90 days ago, at a million listings, in process. Cold: no count cached.
// With writes going on: right after each of 200 writes in the broker's city (a listing posted, or one repriced, in
// turn), as a busy network serves it. The searches and the listings written are removed at the end.
import type { Database } from '../db/client'
import type { createApp } from '../src/app'
import type { AppContext } from '../src/platform/context'
import type { ListingFilters } from '../src/modules/listings/model'
import { drainAnnouncements } from '../src/modules/matches/service'
import { median, percentile } from './bench-stats'

type Stat = { median: number; p99: number; n: number }
type Row = { what: string; warm?: Stat; cold?: Stat; target: string; met: boolean | null }

const TARGET_P99 = 25
const DAY = 86_400_000
/** When each search was last opened, as a broker's would spread. */
const OPENED_AGO = [5 * 60_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, DAY, DAY, 2 * DAY, 2 * DAY, 3 * DAY, 3 * DAY, 5 * DAY, 7 * DAY, 7 * DAY, 10 * DAY, 14 * DAY, 14 * DAY, 30 * DAY, 30 * DAY, 90 * DAY]

export type SavedSearchBench = {
  ctx: AppContext
  app: ReturnType<typeof createApp>
  db: Database
  samples: number
  city: { id: number; name: string }
  broker: { id: number; token: string }
  /** Another broker of the city: writes the listings. */
  writer: { id: number; token: string }
  words: { common: string; rare: string; fragment: string }
}

export async function savedSearchRows({ ctx, app, db, samples, city, broker, writer, words }: SavedSearchBench): Promise<Row[]> {
  const one = <T>(sql: string, ...params: (string | number)[]) => db.$client.query<T, (string | number)[]>(sql).get(...params)!
  const type = one<{ t: string }>('SELECT property_type AS t FROM listings WHERE city_id = ? GROUP BY property_type ORDER BY count(*) DESC LIMIT 1', city.id).t
  const other = one<{ id: number }>('SELECT city_id AS id FROM listings WHERE city_id <> ? GROUP BY city_id ORDER BY count(*) DESC LIMIT 1', city.id).id
  const monthAgo = new Date(Date.now() - 30 * DAY).toISOString().slice(0, 10)
  const filters: ListingFilters[] = [
    { city_id: city.id, post_type: 'AVL', sale_or_rent: 'SALE' },
    { city_id: city.id, post_type: 'REQ', sale_or_rent: 'RENT' },
    { city_id: city.id },
    { city_id: city.id, location: 'West' },
    { city_id: city.id, property_type: type },
    { city_id: city.id, min_budget: 5_000_000, max_budget: 10_000_000 },
    { search: words.common },
    { search: words.rare },
    { search: words.common, city_id: city.id },
    { location: 'West', min_budget: 5_000_000, max_budget: 10_000_000 },
    { post_type: 'REQ' },
    {},
    { city_id: city.id, status: 'ON_HOLD' },
    { property_type: type },
    { city_id: other },
    { city_id: city.id, sale_or_rent: 'RENT', location: 'South' },
    { search: words.fragment },
    { city_id: city.id, date_from: monthAgo },
    { sale_or_rent: 'SALE', location: 'North' },
    { city_id: city.id, post_type: 'AVL', property_type: type },
  ]
  const now = Date.now()
  db.$client.run('DELETE FROM saved_searches WHERE user_id = ?', [broker.id])
  filters.forEach((f, i) =>
    db.$client.run('INSERT INTO saved_searches (user_id, name, filters, alert, seen_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      broker.id,
      `Bench search ${i + 1}`,
      JSON.stringify(f),
      'OFF',
      now - OPENED_AGO[i]!,
      now - OPENED_AGO[i]!,
      now - OPENED_AGO[i]!,
    ]),
  )
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })
  const request = (path: string, token: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, { ...init, headers: headers(token) }))
  async function timed(): Promise<number> {
    const t0 = performance.now()
    const res = await request('/api/saved-searches', broker.token)
    const body = (await res.json()) as { saved_searches: { new_count: number }[] }
    const ms = performance.now() - t0
    if (res.status !== 200 || body.saved_searches.length !== 20) throw new Error(`GET /api/saved-searches answered ${res.status}`)
    return ms
  }
  const written: number[] = []
  try {
    for (let i = 0; i < 5; i++) await timed() // warm-up: the code's first runs
    const cold: number[] = []
    for (let i = 0; i < samples; i++) {
      ctx.counts.clear()
      ctx.pages.clear()
      cold.push(await timed())
    }
    const counts = ((await (await request('/api/saved-searches', broker.token)).json()) as { saved_searches: { new_count: number }[] }).saved_searches.map((s) => s.new_count)
    // With writes going on: a listing posted in the city, then one of those repriced (news for every search it passes).
    const afterWrite: number[] = []
    for (let i = 0; i < samples; i++) {
      if (i % 2 === 0 || written.length === 0) {
        const res = await request('/api/listings', writer.token, {
          method: 'POST',
          body: JSON.stringify({ post_type: i % 4 ? 'AVL' : 'REQ', sale_or_rent: i % 3 ? 'SALE' : 'RENT', contact_value: `98${String(100_000_000 + i)}`, property_type: type, budget: 6_000_000 + i, location: 'West', locality: words.common, details: `Bench write ${i}` }),
        })
        if (res.status !== 201) throw new Error(`POST /api/listings answered ${res.status}: ${await res.text()}`)
        written.push(((await res.json()) as { id: number }).id)
      } else {
        const res = await request(`/api/listings/${written.at(-1)}`, writer.token, { method: 'PATCH', body: JSON.stringify({ budget: 7_000_000 + i }) })
        if (res.status !== 200) throw new Error(`PATCH /api/listings answered ${res.status}`)
      }
      afterWrite.push(await timed())
    }
    const stat = (xs: number[]): Stat => ({ median: median(xs), p99: percentile(xs, 99), n: xs.length })
    const c = stat(cold)
    const w = stat(afterWrite)
    console.log(`  saved searches: new counts ${counts.join(' ')}; cold p99 ${c.p99.toFixed(1)} ms, after a write p99 ${w.p99.toFixed(1)} ms`)
    const label = `20 saved searches of every kind (opened 5 min to 90 days ago; new counts ${Math.min(...counts)}–${Math.max(...counts)}, capped at 100), broker of ${city.name}`
    return [
      { what: `GET /api/saved-searches, ${label}: every count computed`, cold: c, target: `p99 ≤ ${TARGET_P99} ms`, met: c.p99 <= TARGET_P99 },
      { what: `GET /api/saved-searches, the same, right after each of ${samples} writes in ${city.name} (posted or repriced)`, warm: w, target: `p99 ≤ ${TARGET_P99} ms`, met: w.p99 <= TARGET_P99 },
    ]
  } finally {
    for (const id of written) await request(`/api/listings/${id}`, writer.token, { method: 'DELETE' })
    // The writes' match announcements run after their answers: let them finish before the database closes.
    await Bun.sleep(50)
    await drainAnnouncements(ctx.db)
    db.$client.run('DELETE FROM saved_searches WHERE user_id = ?', [broker.id])
  }
}
