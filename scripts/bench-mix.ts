// The dashboard mixes of the HTTP benchmarks (scripts/bench-http.ts, scripts/bench-cold-kinds.ts): who asks, and the
// distinct list URLs of every kind a user sends, plus /zones and /my now and then. Picked from the bench database
// (read-only, before a server starts) and drawn with a seeded generator: the same database gives the same URLs, run
// after run and script after script, so bench-cold-kinds' per-kind costs explain bench:http's first-touch tail.
import type { Database } from 'bun:sqlite'

/** Deterministic randomness (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Broker = { id: number; email: string; name: string; n: number }

/** What the mixes are drawn from. */
export type MixSubjects = ReturnType<typeof pickMixSubjects>

/**
 * The biggest city and its bench brokers (fewest listings first), the localities, types, budget deciles, dates and
 * entry-ID fragments of the data. `emailDomain`: the bench seed's (db/seed/bench.ts), passed in so a script measuring
 * another checkout reads that checkout's.
 */
export function pickMixSubjects(ro: Database, emailDomain: string) {
  const one = <T>(sql: string, ...p: (string | number)[]) => ro.query<T, (string | number)[]>(sql).get(...p)!
  const all = <T>(sql: string, ...p: (string | number)[]) => ro.query<T, (string | number)[]>(sql).all(...p)
  const total = one<{ n: number }>('SELECT count(*) AS n FROM listings').n
  const topCities = all<{ id: number; name: string; n: number }>(
    'SELECT l.city_id AS id, c.name, count(*) AS n FROM listings l JOIN cities c ON c.id = l.city_id GROUP BY l.city_id ORDER BY n DESC LIMIT 12',
  )
  const bigCity = topCities[0]!
  const brokers = all<Broker>(
    `SELECT l.owner_user_id AS id, u.email, u.full_name AS name, count(*) AS n FROM listings l JOIN users u ON u.id = l.owner_user_id
     WHERE l.city_id = ?1 AND u.city_id = ?1 AND u.role = 'BROKER' AND u.is_active AND u.email LIKE ?2 GROUP BY l.owner_user_id ORDER BY n, l.owner_user_id`,
    bigCity.id,
    `%@${emailDomain}`,
  )
  /** The broker whose dashboard the broker mix is: the median of the city's. */
  const typical = brokers[Math.floor(brokers.length / 2)]
  const localities = all<{ locality: string; n: number }>("SELECT locality, count(*) AS n FROM listings WHERE locality NOT LIKE '% %' GROUP BY locality ORDER BY n DESC")
  const common = localities.slice(0, 5).map((l) => l.locality)
  const rare = localities.filter((l) => l.n >= 50).slice(-5).map((l) => l.locality)
  const propertyTypes = all<{ p: string }>('SELECT DISTINCT property_type AS p FROM listings ORDER BY p').map((r) => r.p)
  const budgets = all<{ b: number }>('SELECT budget AS b FROM listings WHERE id % 997 = 0 AND budget IS NOT NULL ORDER BY b').map((r) => r.b)
  const deciles = Array.from({ length: 11 }, (_, i) => budgets[Math.min(budgets.length - 1, Math.floor((i / 10) * budgets.length))]!)
  const dates = one<{ lo: string; hi: string }>('SELECT min(date) AS lo, max(date) AS hi FROM listings')
  // Entry IDs typed in part: "MUM-6000" of "AVL-MUM-600000" (1 to 3 trailing digits left off).
  const fragments = Array.from({ length: 30 }, (_, k) => {
    const [, code, digits] = one<{ e: string }>('SELECT entry_id AS e FROM listings WHERE id = ?', Math.max(1, Math.round((total * (k + 1)) / 31))).e.split('-')
    return `${code}-${digits!.slice(0, -(1 + (k % 3)))}`
  })
  const words = typical ? [...common, ...rare, 'penthouse', 'villa', 'warehouse', 'studio', typical.name.split(' ').at(-1)!.toLowerCase()] : []
  return { total, topCities, bigCity, brokers, typical, common, rare, propertyTypes, deciles, dates, fragments, words }
}

export type Params = Record<string, string | number | undefined>
export const query = (p: Params) => new URLSearchParams(Object.entries(p).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString()
export const list = (p: Params) => `/api/listings/?${query({ per_page: 25, ...p })}`
export const day = (iso: string, plusDays: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + plusDays * 86_400_000).toISOString().slice(0, 10)

/**
 * A dashboard's requests, shuffled, each with the name of its kind: `size` distinct list URLs, 12 of /zones and 12 of
 * /my. `zones`: the app's LOCATION_ZONES.
 */
export function buildMix(s: MixSubjects, zones: readonly string[], who: 'broker' | 'master', seed: number, size: number): [url: string, kind: string][] {
  const { topCities, deciles, words, fragments, dates, propertyTypes } = s
  const rnd = prng(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const city = () => pick(topCities.slice(0, rnd() < 0.5 ? 1 : 12)).id // half of them the big city
  const statuses = who === 'master' ? (['ACTIVE', 'ON_HOLD', 'CLOSED', 'SUSPENDED'] as const) : (['ACTIVE', 'ON_HOLD', 'CLOSED'] as const)
  const kinds: [number, string, () => Params][] = [
    [15, 'page 1-40', () => ({ page: int(1, 40) })],
    [5, 'deep page', () => ({ page: pick([500, 1000, 2000, 2000, 3000, 4000]) + int(0, 20) })],
    [15, 'city+type+deal', () => ({ city_id: city(), post_type: pick(['REQ', 'AVL']), sale_or_rent: pick(['SALE', 'RENT']), page: int(1, 3) })],
    [10, 'zone+budget', () => {
      const i = int(0, 8)
      return { location: pick(zones), min_budget: deciles[i], max_budget: deciles[int(i + 1, 10)], page: int(1, 2) }
    }],
    [12, 'search', () => ({ search: pick(words), page: int(1, 3) })],
    [5, 'search entry id', () => ({ search: pick(fragments) })],
    [8, 'search+city', () => ({ search: pick(words), city_id: city() })],
    [10, 'date range', () => {
      // Recent or old ranges, a day to a year wide.
      const width = pick([1, 7, 30, 90, 365])
      const to = rnd() < 0.6 ? day(dates.hi, -int(0, 30)) : day(dates.lo, width + int(0, 300))
      return { date_from: day(to, -width), date_to: to, city_id: rnd() < 0.3 ? city() : undefined }
    }],
    [6, 'status', () => ({ status: pick(statuses), city_id: rnd() < 0.5 ? city() : undefined, page: int(1, 5) })],
    [6, 'property type', () => ({ property_type: pick(propertyTypes), city_id: rnd() < 0.5 ? city() : undefined, page: int(1, 3) })],
  ]
  const weightSum = kinds.reduce((sum, [w]) => sum + w, 0)
  const kind = (): [string, Params] => {
    let r = rnd() * weightSum
    for (const [w, name, make] of kinds) if ((r -= w) < 0) return [name, make()]
    return [kinds[0]![1], kinds[0]![2]()]
  }
  const urls = new Map<string, string>()
  while (urls.size < size) {
    const [name, p] = kind()
    const u = list(p)
    if (!urls.has(u)) urls.set(u, name)
  }
  const zoneUrls = new Map<string, string>()
  while (zoneUrls.size < 12) {
    const [name, { page: _p, location: _l, ...filters }] = kind()
    const u = `/api/listings/zones?${query(filters)}`
    if (!zoneUrls.has(u)) zoneUrls.set(u, `zones (${name})`)
  }
  const mix: [string, string][] = [...urls, ...zoneUrls, ...Array.from({ length: 12 }, (): [string, string] => ['/api/listings/my', 'my'])]
  for (let i = mix.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1))
    ;[mix[i], mix[j]] = [mix[j]!, mix[i]!]
  }
  return mix
}
