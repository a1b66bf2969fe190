// The benchmark database: a network at full size (by default 200 cities, 20,000 brokers, 1,000,000 listings), built
// fast. Its vocabulary (property kinds, localities, sentences, statuses, phones) is the demo's (./demo.ts); what is
// new here is the scale, the geography beyond the demo's cities, and the bulk-load path.
//
// Bulk path (measured at 1M listings, see scripts/seed-bench.ts): the listings' secondary indexes and the FTS insert
// trigger are dropped for the load and rebuilt afterwards (CREATE INDEX sorts once instead of updating nine B-trees
// per row; listings_fts is filled by one INSERT…SELECT that runs the trigger's own expression over the rows in id
// order, which is what the trigger would have done row by row). Their definitions are read back from sqlite_master
// and re-run verbatim, so the schema ends exactly as the migrations left it.
import type { Database } from '../client'
import { formatEntryId } from '../../src/shared/entry-id'
import { DEFAULT_ADMIN_EMAIL, LOCATION_ZONES, type ListingStatus, type PostType, type SaleOrRent } from '../../src/shared/constants'
import {
  COMMENTS,
  demoExpiry,
  describe,
  GENERIC_LOCALITIES,
  LOCALITIES,
  logUniform,
  mulberry32,
  phoneFor,
  pick,
  PROPERTY_KINDS,
  REFERENCES,
  roundTo,
  slug,
  STATUS_WEIGHTS,
  weighted,
  type PhoneStyle,
  type Rand,
} from './demo'
import { DEMO_GEOGRAPHY } from './geography'

/** The search indexes' tags of a listing `l`, as the triggers of migration 0015 write them. */
const SEARCH_TAGS =
  "concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location))"

export type BenchSeedOptions = {
  listings: number
  cities: number
  brokers: number
  /** One hash shared by every user (hashing is slow by design): the caller hashes once. */
  passwordHash: string
  /** The moment the data is "as of"; listings spread over the two years before it. */
  now?: Date
  seed?: number
  /** Drop listings' secondary indexes during the load and build them after (default true: faster, see the file head). */
  dropIndexes?: boolean
  /** Drop the FTS insert trigger during the load and fill listings_fts in one statement after (default true). */
  bulkFts?: boolean
  onProgress?: (message: string) => void
}

export type BenchSeedResult = {
  countries: number
  states: number
  cities: number
  masterAdmins: number
  moduleAdmins: number
  brokers: number
  listings: number
  /** Seconds per phase, for the report. */
  phases: Record<string, number>
}

/** Brokers' emails end with this: how a bench database is told from a real one. */
export const BENCH_EMAIL_DOMAIN = 'bench.example'

const DAY_MS = 86_400_000
const LISTING_SPAN_DAYS = 730

// ---------------------------------------------------------------------------------------------------------------
// Geography: the demo's cities first, then more real cities of the same countries (new states where needed).

type BenchState = { name: string; code: string; cities: string[] }

const MORE_CITIES: Record<string, BenchState[]> = {
  IN: [
    { name: 'Maharashtra', code: 'IN-MH', cities: ['Nashik', 'Aurangabad', 'Navi Mumbai', 'Kolhapur', 'Solapur'] },
    { name: 'Karnataka', code: 'IN-KA', cities: ['Hubballi', 'Belagavi', 'Davanagere'] },
    { name: 'Tamil Nadu', code: 'IN-TN', cities: ['Tiruchirappalli', 'Salem', 'Tiruppur', 'Vellore'] },
    { name: 'Telangana', code: 'IN-TG', cities: ['Karimnagar', 'Nizamabad'] },
    { name: 'Gujarat', code: 'IN-GJ', cities: ['Rajkot', 'Gandhinagar', 'Bhavnagar'] },
    { name: 'West Bengal', code: 'IN-WB', cities: ['Howrah', 'Durgapur', 'Asansol'] },
    { name: 'Rajasthan', code: 'IN-RJ', cities: ['Jaipur', 'Jodhpur', 'Udaipur', 'Kota', 'Ajmer', 'Bikaner'] },
    { name: 'Uttar Pradesh', code: 'IN-UP', cities: ['Lucknow', 'Kanpur', 'Noida', 'Ghaziabad', 'Agra', 'Varanasi', 'Prayagraj', 'Meerut'] },
    { name: 'Kerala', code: 'IN-KL', cities: ['Kochi', 'Thiruvananthapuram', 'Kozhikode', 'Thrissur', 'Kannur', 'Kollam'] },
    { name: 'Madhya Pradesh', code: 'IN-MP', cities: ['Indore', 'Bhopal', 'Jabalpur', 'Gwalior'] },
    { name: 'Punjab', code: 'IN-PB', cities: ['Ludhiana', 'Amritsar', 'Jalandhar', 'Mohali'] },
    { name: 'Haryana', code: 'IN-HR', cities: ['Gurugram', 'Faridabad', 'Panipat', 'Ambala'] },
    { name: 'Andhra Pradesh', code: 'IN-AP', cities: ['Visakhapatnam', 'Vijayawada', 'Guntur', 'Tirupati'] },
    { name: 'Odisha', code: 'IN-OR', cities: ['Bhubaneswar', 'Cuttack'] },
    { name: 'Bihar', code: 'IN-BR', cities: ['Patna', 'Gaya'] },
    { name: 'Goa', code: 'IN-GA', cities: ['Panaji', 'Margao'] },
    { name: 'Chandigarh', code: 'IN-CH', cities: ['Chandigarh'] },
    { name: 'Assam', code: 'IN-AS', cities: ['Guwahati'] },
    { name: 'Jharkhand', code: 'IN-JH', cities: ['Ranchi', 'Jamshedpur', 'Dhanbad'] },
    { name: 'Chhattisgarh', code: 'IN-CT', cities: ['Raipur', 'Bhilai'] },
    { name: 'Uttarakhand', code: 'IN-UT', cities: ['Dehradun', 'Haridwar'] },
    { name: 'Himachal Pradesh', code: 'IN-HP', cities: ['Shimla'] },
  ],
  US: [
    { name: 'New York', code: 'US-NY', cities: ['Albany', 'Yonkers'] },
    { name: 'California', code: 'US-CA', cities: ['San Jose', 'Sacramento', 'Oakland', 'Fresno', 'Long Beach'] },
    { name: 'Texas', code: 'US-TX', cities: ['San Antonio', 'Fort Worth', 'El Paso'] },
    { name: 'Florida', code: 'US-FL', cities: ['Jacksonville', 'Fort Lauderdale'] },
    { name: 'Illinois', code: 'US-IL', cities: ['Naperville', 'Aurora'] },
    { name: 'Washington', code: 'US-WA', cities: ['Seattle', 'Spokane', 'Tacoma'] },
    { name: 'Massachusetts', code: 'US-MA', cities: ['Boston', 'Cambridge', 'Worcester'] },
    { name: 'Pennsylvania', code: 'US-PA', cities: ['Philadelphia', 'Pittsburgh'] },
    { name: 'Georgia', code: 'US-GA', cities: ['Atlanta', 'Savannah'] },
    { name: 'Arizona', code: 'US-AZ', cities: ['Phoenix', 'Tucson', 'Scottsdale'] },
    { name: 'Colorado', code: 'US-CO', cities: ['Denver', 'Boulder', 'Colorado Springs'] },
    { name: 'North Carolina', code: 'US-NC', cities: ['Charlotte', 'Raleigh'] },
    { name: 'Ohio', code: 'US-OH', cities: ['Columbus', 'Cleveland', 'Cincinnati'] },
    { name: 'Michigan', code: 'US-MI', cities: ['Detroit', 'Ann Arbor'] },
    { name: 'Nevada', code: 'US-NV', cities: ['Las Vegas', 'Reno'] },
    { name: 'Oregon', code: 'US-OR', cities: ['Portland'] },
    { name: 'Tennessee', code: 'US-TN', cities: ['Nashville', 'Memphis'] },
    { name: 'New Jersey', code: 'US-NJ', cities: ['Newark', 'Jersey City'] },
    { name: 'Minnesota', code: 'US-MN', cities: ['Minneapolis', 'Saint Paul'] },
    { name: 'Missouri', code: 'US-MO', cities: ['Kansas City', 'St. Louis'] },
    { name: 'Utah', code: 'US-UT', cities: ['Salt Lake City', 'Provo'] },
    { name: 'Louisiana', code: 'US-LA', cities: ['New Orleans', 'Baton Rouge'] },
    { name: 'Maryland', code: 'US-MD', cities: ['Baltimore'] },
    { name: 'Virginia', code: 'US-VA', cities: ['Virginia Beach', 'Richmond', 'Arlington'] },
  ],
  GB: [
    {
      name: 'England',
      code: 'GB-ENG',
      cities: ['Liverpool', 'Bristol', 'Sheffield', 'Newcastle upon Tyne', 'Nottingham', 'Leicester', 'Oxford', 'Cambridge', 'Brighton', 'Southampton', 'Reading', 'York', 'Coventry', 'Milton Keynes'],
    },
    { name: 'Scotland', code: 'GB-SCT', cities: ['Aberdeen', 'Dundee', 'Inverness'] },
    { name: 'Wales', code: 'GB-WLS', cities: ['Newport', 'Wrexham'] },
    { name: 'Northern Ireland', code: 'GB-NIR', cities: ['Belfast', 'Derry'] },
  ],
  AE: [
    { name: 'Dubai', code: 'AE-DU', cities: ['Jebel Ali'] },
    { name: 'Abu Dhabi', code: 'AE-AZ', cities: ['Ruwais', 'Madinat Zayed'] },
    { name: 'Ajman', code: 'AE-AJ', cities: ['Ajman'] },
    { name: 'Ras Al Khaimah', code: 'AE-RK', cities: ['Ras Al Khaimah'] },
    { name: 'Fujairah', code: 'AE-FU', cities: ['Fujairah', 'Dibba Al-Fujairah'] },
    { name: 'Umm Al Quwain', code: 'AE-UQ', cities: ['Umm Al Quwain'] },
  ],
}

type BenchCity = { name: string; newscoRegion: string | null; country: { name: string; code: string }; state: { name: string; code: string } }

/** Every city the bench can use, taken round-robin over the countries so even a few cities span several of them. */
export function benchCities(): BenchCity[] {
  const perCountry = DEMO_GEOGRAPHY.map((country) => {
    const list: BenchCity[] = []
    const c = { name: country.name, code: country.code }
    for (const s of country.states)
      for (const city of s.cities) list.push({ name: city.name, newscoRegion: city.newsco_region ?? null, country: c, state: { name: s.name, code: s.code } })
    // The demo's own cities are not added twice (its Tricity, issue 30, took Mohali and Chandigarh from this list: a
    // fresh bench seed failed on the cities' unique name per state).
    const demo = new Set(list.map((city) => `${city.state.code}|${city.name}`))
    for (const s of MORE_CITIES[country.code] ?? [])
      for (const name of s.cities) if (!demo.has(`${s.code}|${name}`)) list.push({ name, newscoRegion: null, country: c, state: { name: s.name, code: s.code } })
    return list
  })
  const out: BenchCity[] = []
  for (let i = 0; perCountry.some((l) => i < l.length); i++) for (const l of perCountry) if (i < l.length) out.push(l[i]!)
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// People

const NAMES: Record<PhoneStyle, { first: string[]; last: string[] }> = {
  IN: {
    first: ['Rahul', 'Priya', 'Aarav', 'Sneha', 'Vikram', 'Ananya', 'Karthik', 'Divya', 'Arjun', 'Rohan', 'Neha', 'Lakshmi', 'Suresh', 'Aditya', 'Pooja', 'Amit', 'Sunita', 'Rajesh', 'Kiran', 'Meera', 'Sanjay', 'Deepa', 'Manish', 'Kavita', 'Nikhil', 'Shreya', 'Varun', 'Anjali', 'Gaurav', 'Isha'],
    last: ['Sharma', 'Mehta', 'Desai', 'Kulkarni', 'Joshi', 'Patil', 'Reddy', 'Rao', 'Nair', 'Kapoor', 'Gupta', 'Iyer', 'Kumar', 'Varma', 'Singh', 'Agarwal', 'Chopra', 'Bhat', 'Menon', 'Pillai', 'Shetty', 'Banerjee', 'Mukherjee', 'Chatterjee', 'Malhotra', 'Saxena', 'Verma', 'Jain', 'Shah', 'Pandey'],
  },
  US: {
    first: ['Michael', 'Emily', 'David', 'Jessica', 'Daniel', 'Sarah', 'James', 'Ashley', 'Robert', 'Jennifer', 'John', 'Amanda', 'Chris', 'Megan', 'Matthew', 'Lauren', 'Andrew', 'Rachel', 'Joshua', 'Nicole'],
    last: ['Johnson', 'Carter', 'Rosen', 'Martinez', 'Kim', 'Mitchell', 'Smith', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Wilson', 'Anderson', 'Taylor', 'Thomas', 'Moore', 'Jackson', 'Lee', 'Nguyen', 'Patel', 'Clark'],
  },
  GB: {
    first: ['Oliver', 'Charlotte', 'James', 'Amelia', 'Harry', 'Olivia', 'George', 'Isla', 'Jack', 'Emily', 'Thomas', 'Sophie', 'William', 'Grace', 'Henry', 'Lucy'],
    last: ['Bennett', 'Hughes', 'Whitaker', 'Smith', 'Jones', 'Taylor', 'Brown', 'Davies', 'Evans', 'Wilson', 'Thomas', 'Roberts', 'Walker', 'Wright', 'Thompson', 'Robinson', 'Hall', 'Green', 'Wood', 'Clarke'],
  },
  AE: {
    first: ['Omar', 'Fatima', 'Ahmed', 'Khalid', 'Mariam', 'Yousef', 'Aisha', 'Hamdan', 'Layla', 'Saeed', 'Noura', 'Rashid', 'Hessa', 'Ali', 'Sara'],
    last: ['Al Mansoori', 'Haddad', 'Khan', 'Al Nuaimi', 'Al Maktoum', 'Al Suwaidi', 'Al Ketbi', 'Al Falasi', 'Al Hashimi', 'Al Zaabi', 'Al Shamsi', 'Rahman', 'Qureshi', 'Hussain'],
  },
}
const phoneStyle = (countryCode: string): PhoneStyle => (['IN', 'US', 'GB', 'AE'].includes(countryCode) ? (countryCode as PhoneStyle) : 'IN')

/** A standard normal draw (Box–Muller), for brokers' lognormal activity. */
const gaussian = (rand: Rand) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())

/** Splits `total` over `weights` in proportion, by largest remainder, at least one each when there are enough. */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0)
  const min = total >= weights.length ? 1 : 0
  const spare = total - min * weights.length
  const exact = weights.map((w) => (spare * w) / sum)
  const out = exact.map((x) => min + Math.floor(x))
  let left = total - out.reduce((a, b) => a + b, 0)
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0])
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]![1]]!++
  return out
}

// ---------------------------------------------------------------------------------------------------------------
// The whole bench database

/**
 * Fills a freshly migrated, empty database. Runs in one transaction with the journal and fsync off (a crash
 * mid-way leaves a broken file: scripts/seed-bench.ts builds into a temporary file and renames it when done),
 * then restores WAL and the usual pragmas.
 */
export function seedBench(db: Database, opts: BenchSeedOptions): BenchSeedResult {
  const sqlite = db.$client
  const rand = mulberry32(opts.seed ?? 42)
  const now = (opts.now ?? new Date()).getTime()
  const progress = opts.onProgress ?? (() => {})
  const phases: Record<string, number> = {}
  let mark = performance.now()
  const phase = (name: string) => {
    const t = performance.now()
    phases[name] = (t - mark) / 1000
    mark = t
  }

  const all = benchCities()
  if (opts.cities < 1 || opts.cities > all.length) throw new Error(`--cities must be 1 to ${all.length} (the bench geography has ${all.length} real cities)`)
  if (opts.brokers < 1) throw new Error('--brokers must be at least 1')
  if (opts.listings < 0) throw new Error('--listings must be 0 or more')
  const used = all.slice(0, opts.cities)

  const nonEmpty = sqlite.query<{ n: number }, []>('SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM listings) + (SELECT count(*) FROM countries) AS n').get()!.n
  if (nonEmpty > 0) throw new Error('the bench seed needs an empty database')

  // No journal for the load (OFF is refused in SQLite's defensive mode, which Bun enables; MEMORY costs next to nothing
  // here because a fresh file's new pages have no old content to save). WAL must be left through DELETE.
  sqlite.exec('PRAGMA journal_mode = DELETE')
  const journal = sqlite.query<{ journal_mode: string }, []>('PRAGMA journal_mode = OFF').get()?.journal_mode === 'off' ? 'off' : sqlite.query<{ journal_mode: string }, []>('PRAGMA journal_mode = MEMORY').get()!.journal_mode
  progress(`journal_mode ${journal}, synchronous off for the load`)
  sqlite.exec('PRAGMA synchronous = OFF')
  sqlite.exec('PRAGMA foreign_keys = OFF') // the generator keeps every reference valid; checked once at the end
  sqlite.exec('PRAGMA cache_size = -1048576') // 1 GiB of page cache while indexes are built
  sqlite.exec('PRAGMA temp_store = MEMORY')
  // Each of the ~20 CREATE INDEX reads the whole table; mapped, its pages are not copied through the page cache each time
  // (at 5,000,000 listings the table is several times the cache above).
  sqlite.exec('PRAGMA mmap_size = 17179869184')
  sqlite.exec(`PRAGMA threads = ${Math.min(4, navigator.hardwareConcurrency || 1)}`) // lets CREATE INDEX sort in parallel

  try {
    const result = sqlite.transaction((): BenchSeedResult => {
      // Geography.
      const countryIds = new Map<string, number>()
      const stateIds = new Map<string, number>()
      const insCountry = sqlite.prepare('INSERT INTO countries (name, code, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id')
      const insState = sqlite.prepare('INSERT INTO states (country_id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id')
      const insCity = sqlite.prepare('INSERT INTO cities (state_id, name, newsco_region, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id')
      const geoAt = now - 1100 * DAY_MS
      const cityRows = used.map((c) => {
        let countryId = countryIds.get(c.country.code)
        if (countryId === undefined) countryIds.set(c.country.code, (countryId = (insCountry.get(c.country.name, c.country.code, geoAt, geoAt) as { id: number }).id))
        let stateId = stateIds.get(c.state.code)
        if (stateId === undefined) stateIds.set(c.state.code, (stateId = (insState.get(countryId, c.state.name, c.state.code, geoAt, geoAt) as { id: number }).id))
        const id = (insCity.get(stateId, c.name, c.newscoRegion, geoAt, geoAt) as { id: number }).id
        return { id, name: c.name, style: phoneStyle(c.country.code), localities: LOCALITIES[c.name] ?? GENERIC_LOCALITIES }
      })
      phase('geography')

      // People: one master admin, one module admin per city, the brokers (bigger cities have more: Zipf-like).
      const insUser = sqlite.prepare(
        'INSERT INTO users (email, password_hash, full_name, phone, role, is_active, registration_status, id_card_number, city_id, created_at, updated_at) ' +
          'VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) RETURNING id',
      )
      const adminAt = now - 1000 * DAY_MS
      insUser.get(DEFAULT_ADMIN_EMAIL, opts.passwordHash, 'Master Admin', null, 'MASTER_ADMIN', 'APPROVED', null, null, adminAt, adminAt)
      for (const c of cityRows) {
        const n = NAMES[c.style]
        insUser.get(
          `admin.${slug(c.name)}.${c.id}@brokernet.example`,
          opts.passwordHash,
          `${pick(rand, n.first)} ${pick(rand, n.last)}`,
          phoneFor(c.style, rand),
          'MODULE_ADMIN',
          'APPROVED',
          null,
          c.id,
          adminAt,
          adminAt,
        )
      }
      const perCity = apportion(
        opts.brokers,
        cityRows.map((_, rank) => 1 / Math.pow(rank + 1, 0.8)),
      )
      type Owner = { id: number; fullName: string; phone: string; email: string; city: (typeof cityRows)[number] }
      const owners: Owner[] = []
      let b = 0
      cityRows.forEach((city, ci) => {
        const n = NAMES[city.style]
        for (let k = 0; k < perCity[ci]!; k++, b++) {
          const first = pick(rand, n.first)
          const last = pick(rand, n.last)
          const fullName = `${first} ${last}`
          const email = `${slug(first)}.${slug(last)}.${b + 1}@${BENCH_EMAIL_DOMAIN}`
          const phone = phoneFor(city.style, rand)
          // Joined before the listings window, so every listing is younger than its broker.
          const createdAt = now - Math.floor((LISTING_SPAN_DAYS + 5 + rand() * 300) * DAY_MS)
          const id = (insUser.get(email, opts.passwordHash, fullName, phone, 'BROKER', 'APPROVED', `IDC${String(b + 1).padStart(8, '0')}`, city.id, createdAt, createdAt) as { id: number }).id
          owners.push({ id, fullName, phone, email, city })
        }
      })
      phase('users')
      progress(`${cityRows.length} cities, ${owners.length} brokers, ${cityRows.length} module admins, 1 master admin`)

      // Listings. Brokers' activity is lognormal (a few post a lot, most a little); owner drawn by cumulative weight.
      const cumulative = new Float64Array(owners.length)
      let acc = 0
      for (let i = 0; i < owners.length; i++) cumulative[i] = acc += Math.exp(1.0 * gaussian(rand))
      const drawOwner = (): Owner => {
        const x = rand() * acc
        let lo = 0
        let hi = owners.length - 1
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (cumulative[mid]! < x) lo = mid + 1
          else hi = mid
        }
        return owners[lo]!
      }

      const saved = { indexes: [] as string[], triggers: [] as string[] }
      if (opts.dropIndexes ?? true) {
        const idx = sqlite.query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'listings' AND sql IS NOT NULL").all()
        for (const i of idx) {
          saved.indexes.push(i.sql)
          sqlite.exec(`DROP INDEX "${i.name}"`)
        }
      }
      if (opts.bulkFts ?? true) {
        const trg = sqlite
          .query<{ name: string; sql: string }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('listings_fts_after_insert', 'listings_fts_suspended_after_insert', 'listing_counts_after_insert', 'analytics_counts_after_insert', 'change_feed_listing_insert', 'listing_day_counts_after_insert', 'listing_id_blocks_after_insert')")
          .all()
        for (const t of trg) {
          saved.triggers.push(t.sql)
          sqlite.exec(`DROP TRIGGER "${t.name}"`)
        }
      }

      // Ids after any existing ones (none in a fresh file), times drawn first and sorted so ids grow with created_at.
      // The network grows: posting density rises linearly towards `now` (1 - sqrt(u) has density 2(1 - x)).
      const firstId = 1
      const times = new Float64Array(opts.listings)
      for (let i = 0; i < opts.listings; i++) times[i] = now - Math.floor(LISTING_SPAN_DAYS * DAY_MS * (1 - Math.sqrt(rand())))
      times.sort()

      const insListing = sqlite.prepare(
        'INSERT INTO listings (id, entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, budget, size, location, locality, ' +
          'reference, type_details, details, comments, google_location_url, status, date, owner_user_id, city_id, created_at, updated_at, expires_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      const step = Math.max(1, Math.min(100_000, Math.ceil(opts.listings / 10)))
      const t0 = performance.now()
      for (let i = 0; i < opts.listings; i++) {
        const id = firstId + i
        const owner = drawOwner()
        const kind = pick(rand, PROPERTY_KINDS)
        const postType: PostType = rand() < 0.45 ? 'REQ' : 'AVL'
        const saleOrRent: SaleOrRent = rand() < 0.55 ? 'SALE' : 'RENT'
        const location = rand() < 0.05 ? null : pick(rand, LOCATION_ZONES)
        const locality = pick(rand, owner.city.localities)
        const status: ListingStatus = weighted(rand, STATUS_WEIGHTS)
        const createdAt = times[i]!
        const updatedAt = status === 'ACTIVE' ? createdAt : createdAt + Math.floor(rand() * Math.min(now - createdAt, 10 * DAY_MS))
        // A requirement sometimes states no budget; an availability always has a price.
        const budget = postType === 'REQ' && rand() < 0.05 ? null : roundTo(logUniform(rand, ...(saleOrRent === 'SALE' ? kind.sale : kind.rent)), 1000)
        insListing.run(
          id,
          formatEntryId(postType, owner.city.name, id),
          postType,
          saleOrRent,
          kind.type,
          rand() < 0.6 ? owner.phone : owner.email,
          owner.fullName,
          budget,
          roundTo(kind.size[0] + rand() * (kind.size[1] - kind.size[0]), 10),
          location,
          locality,
          rand() < 0.3 ? pick(rand, REFERENCES) : null,
          null,
          describe(rand, postType, saleOrRent, kind, locality),
          rand() < 0.35 ? pick(rand, COMMENTS) : null,
          null,
          status,
          new Date(createdAt).toISOString().slice(0, 10),
          owner.id,
          owner.city.id,
          createdAt,
          updatedAt,
          demoExpiry(id, saleOrRent, now),
        )
        if ((i + 1) % step === 0 || i + 1 === opts.listings) {
          const s = (performance.now() - t0) / 1000
          progress(`listings ${(i + 1).toLocaleString('en')} / ${opts.listings.toLocaleString('en')}  (${s.toFixed(1)} s, ${Math.round((i + 1) / s).toLocaleString('en')}/s)`)
        }
      }
      phase('listings')

      if (saved.indexes.length) {
        for (const s of saved.indexes) sqlite.exec(s)
        phase('indexes')
        progress(`rebuilt ${saved.indexes.length} listings indexes (${phases.indexes!.toFixed(1)} s)`)
      }
      if (saved.triggers.length) {
        // The trigger's own expressions, over every row in id order: the rows it would have inserted, in its order.
        // (The change feed's trigger has no such pass: no process has cached anything of a database being built.)
        sqlite.exec(
          'INSERT INTO listings_fts(rowid, entry_id, owner_name, locality, property_type, details, tags) ' +
            `SELECT l.id, l.entry_id, (SELECT full_name FROM users WHERE id = l.owner_user_id), l.locality, l.property_type, l.details, ${SEARCH_TAGS} FROM listings l ORDER BY l.id`,
        )
        sqlite.exec(
          'INSERT INTO listings_fts_suspended(rowid, entry_id, owner_name, locality, property_type, details, tags) ' +
            `SELECT l.id, l.entry_id, (SELECT full_name FROM users WHERE id = l.owner_user_id), l.locality, l.property_type, l.details, ${SEARCH_TAGS} FROM listings l WHERE l.id >= ` +
            firstId +
            " AND l.status = 'SUSPENDED' ORDER BY l.id",
        )
        // The counts the insert trigger would have kept, in one grouped pass (added to any rows already counted).
        sqlite.exec(
          "INSERT INTO listing_counts (city_id, post_type, sale_or_rent, status, location, property_type, n) " +
            "SELECT city_id, post_type, sale_or_rent, status, coalesce(location, ''), lower(property_type), count(*) FROM listings WHERE id >= " +
            firstId +
            ' GROUP BY 1, 2, 3, 4, 5, 6 ON CONFLICT DO UPDATE SET n = n + excluded.n',
        )
        sqlite.exec(
          "INSERT INTO listing_counts (city_id, post_type, sale_or_rent, status, location, property_type, n) " +
            "SELECT 0, post_type, sale_or_rent, status, coalesce(location, ''), lower(property_type), count(*) FROM listings WHERE id >= " +
            firstId +
            ' GROUP BY 2, 3, 4, 5, 6 ON CONFLICT DO UPDATE SET n = n + excluded.n',
        )
        for (const city of ['city_id', '0'])
          sqlite.exec(
            `INSERT INTO listing_day_counts (city_id, date, post_type, sale_or_rent, status, location, n) SELECT ${city}, date, post_type, sale_or_rent, status, ` +
              `coalesce(location, ''), count(*) FROM listings WHERE id >= ${firstId} GROUP BY 1, 2, 3, 4, 5, 6 ON CONFLICT DO UPDATE SET n = n + excluded.n`,
          )
        for (const city of ['city_id', '0'])
          sqlite.exec(
            `INSERT INTO listing_id_blocks (city_id, block, suspended, n) SELECT ${city}, id >> 10, CASE status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END, count(*) FROM listings ` +
              `WHERE id >= ${firstId} GROUP BY 1, 2, 3 ON CONFLICT DO UPDATE SET n = n + excluded.n`,
          )
        sqlite.exec(
          'INSERT INTO listing_daily_counts (date, city_id, post_type, n) SELECT date, city_id, post_type, count(*) FROM listings WHERE id >= ' +
            firstId +
            ' GROUP BY 1, 2, 3 ON CONFLICT DO UPDATE SET n = n + excluded.n',
        )
        sqlite.exec(
          'INSERT INTO listing_daily_counts (date, city_id, post_type, n) SELECT date, 0, post_type, count(*) FROM listings WHERE id >= ' +
            firstId +
            ' GROUP BY 1, 3 ON CONFLICT DO UPDATE SET n = n + excluded.n',
        )
        sqlite.exec(
          'INSERT INTO owner_listing_counts (owner_user_id, city_id, n) SELECT owner_user_id, city_id, count(*) FROM listings WHERE id >= ' +
            firstId +
            ' GROUP BY 1, 2 ON CONFLICT DO UPDATE SET n = n + excluded.n',
        )
        for (const s of saved.triggers) sqlite.exec(s)
        phase('fts')
        progress(`filled listings_fts (${phases.fts!.toFixed(1)} s)`)
      }

      for (const st of [insCountry, insState, insCity, insUser, insListing]) st.finalize()
      const broken = sqlite.query('PRAGMA foreign_key_check').all()
      if (broken.length) throw new Error(`bench seed broke ${broken.length} foreign key(s)`)
      phase('checks')

      return {
        countries: countryIds.size,
        states: stateIds.size,
        cities: cityRows.length,
        masterAdmins: 1,
        moduleAdmins: cityRows.length,
        brokers: owners.length,
        listings: opts.listings,
        phases,
      }
    })()
    phase('commit')
    return result
  } finally {
    sqlite.exec('PRAGMA threads = 0')
    sqlite.exec('PRAGMA mmap_size = 0')
    sqlite.exec('PRAGMA cache_size = -2000')
    sqlite.exec('PRAGMA foreign_keys = ON')
    sqlite.exec('PRAGMA synchronous = NORMAL')
    sqlite.exec('PRAGMA journal_mode = WAL')
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reuse

export type BenchSize = { listings: number; cities: number; brokers: number }

/**
 * What an existing file holds, by the counts a bench seed of `size` produces: 'match' (reuse it), 'other' (a bench
 * database of another size: safe to rebuild), or 'foreign' (not made by this seed: never touched).
 */
export function inspectBenchDatabase(sqlite: import('bun:sqlite').Database, size: BenchSize): { verdict: 'match' | 'other' | 'foreign'; found: BenchSize & { fts: number } } {
  const has = (name: string) => sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM sqlite_master WHERE name = ?").get(name)!.n > 0
  if (!has('listings') || !has('users') || !has('listings_fts')) return { verdict: 'foreign', found: { listings: 0, cities: 0, brokers: 0, fts: 0 } }
  const n = (sql: string, ...args: string[]) => sqlite.query<{ n: number }, string[]>(sql).get(...args)!.n
  const found = {
    listings: n('SELECT count(*) AS n FROM listings'),
    cities: n('SELECT count(*) AS n FROM cities'),
    brokers: n("SELECT count(*) AS n FROM users WHERE role = 'BROKER'"),
    fts: n('SELECT count(*) AS n FROM listings_fts'),
  }
  const benchUsers = n('SELECT count(*) AS n FROM users WHERE email LIKE ?', `%@${BENCH_EMAIL_DOMAIN}`)
  const empty = found.listings === 0 && found.brokers === 0
  if (!empty && benchUsers === 0) return { verdict: 'foreign', found }
  const match = found.listings === size.listings && found.cities === size.cities && found.brokers === size.brokers && found.fts === found.listings
  return { verdict: match ? 'match' : 'other', found }
}
