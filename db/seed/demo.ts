import type { Param, Queryable } from '../sql'
import { formatEntryId } from '../../src/shared/entry-id'
import { EXPIRY_DAYS, LOCATION_ZONES, type ListingStatus, type LocationZone, type PostType, type RegistrationStatus, type SaleOrRent } from '../../src/shared/constants'
import { DEMO_GEOGRAPHY } from './geography'

// The demo data, written through the data layer in its portable SQL (docs/decisions/012-async-data-layer.md): the same
// code loads it into SQLite and PostgreSQL. Rows go in as multi-row inserts inside one transaction, and the ids a
// later insert needs come back through `returning`.

export type DemoSeedOptions = {
  /** One hash shared by every demo user: hashing is deliberately slow, so the caller does it once. */
  passwordHash: string
  /** How many listings to create; 300 by default. */
  listings?: number
  /** The moment the demo is "as of"; listings spread over the 120 days before it. */
  now?: Date
  /** Same seed and options, same data. */
  seed?: number
}

export type GeographySeedResult = { countries: number; states: number; cities: number }
export type DemoSeedResult = GeographySeedResult & { moduleAdmins: number; brokers: number; listings: number }

const DAY_MS = 86_400_000
/** Every demo user's email is at this domain. */
export const DEMO_EMAIL_DOMAIN = 'brokernet.example'
const LISTING_SPAN_DAYS = 120

/**
 * Parameters per statement: well under both backends' limits (SQLite 32,766, PostgreSQL 65,535), so a listing batch
 * is 500 rows; 300 demo listings are one statement.
 */
const PARAMS_PER_STATEMENT = 10_000

/**
 * Inserts rows (all with the same columns, in the same order) in as few multi-row statements as the parameter budget
 * allows; answers the `returning` columns of every row (matched by a key the caller returns, not by position: neither
 * backend promises RETURNING's order).
 */
async function insertRows<T = unknown>(db: Queryable, table: string, rows: readonly Record<string, Param>[], returning?: string): Promise<T[]> {
  if (rows.length === 0) return []
  const columns = Object.keys(rows[0]!)
  const tuple = `(${columns.map(() => '?').join(', ')})`
  const perStatement = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length))
  const out: T[] = []
  for (let at = 0; at < rows.length; at += perStatement) {
    const batch = rows.slice(at, at + perStatement)
    const sql = `insert into ${table} (${columns.join(', ')}) values ${batch.map(() => tuple).join(', ')}${returning ? ` returning ${returning}` : ''}`
    const { rows: back } = await db.run<T>(sql, batch.flatMap((r) => columns.map((c) => r[c]!)))
    out.push(...back)
  }
  return out
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')

// ---------------------------------------------------------------------------------------------------------------
// Geography

/** Inserts DEMO_GEOGRAPHY rows that are missing, in one transaction; returns how many of each it inserted. */
export async function seedGeography(db: Queryable): Promise<GeographySeedResult> {
  return db.tx(async (tx) => (await insertGeography(tx, Date.now())).inserted)
}

/**
 * Also returns every demo city's id by name, which the people and listings below need. One read and at most one insert
 * per level (countries, states, cities), whatever the number of places.
 */
async function insertGeography(db: Queryable, now: number): Promise<{ inserted: GeographySeedResult; cityIds: Map<string, number> }> {
  const inserted = { countries: 0, states: 0, cities: 0 }

  // A country is there when its name or its code is taken (both are unique).
  const codes = DEMO_GEOGRAPHY.map((c) => c.code)
  const names = DEMO_GEOGRAPHY.map((c) => c.name)
  type CountryRow = { id: number; name: string; code: string }
  const knownCountries = await db.all<CountryRow>(
    `select id, name, code from countries where code in (${placeholders(codes.length)}) or name in (${placeholders(names.length)})`,
    [...codes, ...names],
  )
  const countryOf = (c: { name: string; code: string }, rows: CountryRow[]) => rows.find((r) => r.code === c.code || r.name === c.name)?.id
  const newCountries = DEMO_GEOGRAPHY.filter((c) => countryOf(c, knownCountries) === undefined)
  const addedCountries = await insertRows<CountryRow>(
    db,
    'countries',
    newCountries.map((c) => ({ name: c.name, code: c.code, created_at: now, updated_at: now })),
    'id, name, code',
  )
  inserted.countries = addedCountries.length
  const countryIds = new Map(DEMO_GEOGRAPHY.map((c) => [c.code, countryOf(c, [...knownCountries, ...addedCountries])!]))

  // A state is there when its code is taken (unique across countries) or its country has one of that name.
  const demoStates = DEMO_GEOGRAPHY.flatMap((country) => country.states.map((state) => ({ ...state, countryId: countryIds.get(country.code)! })))
  type StateRow = { id: number; countryId: number; name: string; code: string }
  const stateColumns = 'id, country_id as "countryId", name, code'
  const ids = [...new Set(countryIds.values())]
  const knownStates = await db.all<StateRow>(
    `select ${stateColumns} from states where code in (${placeholders(demoStates.length)}) or country_id in (${placeholders(ids.length)})`,
    [...demoStates.map((s) => s.code), ...ids],
  )
  const stateOf = (s: { code: string; countryId: number; name: string }, rows: StateRow[]) =>
    rows.find((r) => r.code === s.code || (r.countryId === s.countryId && r.name === s.name))?.id
  const addedStates = await insertRows<StateRow>(
    db,
    'states',
    demoStates
      .filter((s) => stateOf(s, knownStates) === undefined)
      .map((s) => ({ country_id: s.countryId, name: s.name, code: s.code, created_at: now, updated_at: now })),
    stateColumns,
  )
  inserted.states = addedStates.length
  const stateIds = new Map(demoStates.map((s) => [s.code, stateOf(s, [...knownStates, ...addedStates])!]))

  // A city is there when its state has one of that name.
  const demoCities = demoStates.flatMap((state) => state.cities.map((city) => ({ ...city, stateId: stateIds.get(state.code)! })))
  type CityRow = { id: number; stateId: number; name: string }
  const cityColumns = 'id, state_id as "stateId", name'
  const stateIdList = [...new Set(stateIds.values())]
  const knownCities = await db.all<CityRow>(`select ${cityColumns} from cities where state_id in (${placeholders(stateIdList.length)})`, stateIdList)
  const cityOf = (c: { stateId: number; name: string }, rows: CityRow[]) => rows.find((r) => r.stateId === c.stateId && r.name === c.name)?.id
  const addedCities = await insertRows<CityRow>(
    db,
    'cities',
    demoCities
      .filter((c) => cityOf(c, knownCities) === undefined)
      .map((c) => ({ state_id: c.stateId, name: c.name, newsco_region: c.newsco_region ?? null, created_at: now, updated_at: now })),
    cityColumns,
  )
  inserted.cities = addedCities.length
  const cityIds = new Map(demoCities.map((c) => [c.name, cityOf(c, [...knownCities, ...addedCities])!]))
  return { inserted, cityIds }
}

// ---------------------------------------------------------------------------------------------------------------
// People

export type PhoneStyle = 'IN' | 'US' | 'GB' | 'AE'

type DemoPerson = { first: string; last: string; city: string; status: RegistrationStatus; rejectionReason?: string }

const CITY_PHONE: Record<string, PhoneStyle> = {
  Mumbai: 'IN',
  Pune: 'IN',
  Bengaluru: 'IN',
  'New Delhi': 'IN',
  Chennai: 'IN',
  Hyderabad: 'IN',
  'New York': 'US',
  'Los Angeles': 'US',
  London: 'GB',
  Dubai: 'AE',
}

const MODULE_ADMINS: { city: string; fullName: string }[] = [
  { city: 'Mumbai', fullName: 'Anil Deshmukh' },
  { city: 'Bengaluru', fullName: 'Kavya Shetty' },
  { city: 'New York', fullName: 'Sarah Mitchell' },
  { city: 'London', fullName: 'James Whitaker' },
  { city: 'Dubai', fullName: 'Khalid Al Nuaimi' },
]

const BROKERS: DemoPerson[] = [
  { first: 'Rahul', last: 'Sharma', city: 'Mumbai', status: 'APPROVED' },
  { first: 'Priya', last: 'Mehta', city: 'Mumbai', status: 'APPROVED' },
  { first: 'Aarav', last: 'Desai', city: 'Mumbai', status: 'APPROVED' },
  { first: 'Sneha', last: 'Kulkarni', city: 'Mumbai', status: 'PENDING' },
  { first: 'Vikram', last: 'Joshi', city: 'Pune', status: 'APPROVED' },
  { first: 'Ananya', last: 'Patil', city: 'Pune', status: 'APPROVED' },
  { first: 'Karthik', last: 'Reddy', city: 'Bengaluru', status: 'APPROVED' },
  { first: 'Divya', last: 'Rao', city: 'Bengaluru', status: 'APPROVED' },
  { first: 'Arjun', last: 'Nair', city: 'Bengaluru', status: 'APPROVED' },
  { first: 'Rohan', last: 'Kapoor', city: 'New Delhi', status: 'APPROVED' },
  { first: 'Neha', last: 'Gupta', city: 'New Delhi', status: 'PENDING' },
  { first: 'Lakshmi', last: 'Iyer', city: 'Chennai', status: 'APPROVED' },
  {
    first: 'Suresh',
    last: 'Kumar',
    city: 'Chennai',
    status: 'REJECTED',
    rejectionReason: 'The ID card image is unreadable; please register again with a clear scan.',
  },
  { first: 'Aditya', last: 'Varma', city: 'Hyderabad', status: 'APPROVED' },
  { first: 'Michael', last: 'Johnson', city: 'New York', status: 'APPROVED' },
  { first: 'Emily', last: 'Carter', city: 'New York', status: 'APPROVED' },
  { first: 'David', last: 'Rosen', city: 'New York', status: 'PENDING' },
  { first: 'Jessica', last: 'Martinez', city: 'Los Angeles', status: 'APPROVED' },
  { first: 'Daniel', last: 'Kim', city: 'Los Angeles', status: 'APPROVED' },
  { first: 'Oliver', last: 'Bennett', city: 'London', status: 'APPROVED' },
  { first: 'Charlotte', last: 'Hughes', city: 'London', status: 'APPROVED' },
  { first: 'Omar', last: 'Al Mansoori', city: 'Dubai', status: 'APPROVED' },
  { first: 'Fatima', last: 'Haddad', city: 'Dubai', status: 'APPROVED' },
  { first: 'Ahmed', last: 'Khan', city: 'Dubai', status: 'APPROVED' },
]

/** Real-looking numbers for the city's country, in E.164 so every one has 10+ digits. */
export function phoneFor(style: PhoneStyle, rand: Rand): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join('')
  switch (style) {
    case 'IN':
      return `+91${pick(rand, ['98', '97', '99', '88', '70'])}${digits(8)}`
    case 'US':
      return `+1${pick(rand, ['212', '646', '917', '310', '323', '213'])}${2 + Math.floor(rand() * 8)}${digits(6)}`
    case 'GB':
      return `+447${digits(9)}`
    case 'AE':
      return `+9715${pick(rand, ['0', '2', '5', '6'])}${digits(7)}`
  }
}

export const slug = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '')

// ---------------------------------------------------------------------------------------------------------------
// Listings

export type PropertyCategory = 'home' | 'commercial' | 'land'
export type PropertyKind = { type: string; category: PropertyCategory; sale: [number, number]; rent: [number, number]; size: [number, number] }

// Each kind's budgets sit inside the overall demo ranges (sale 2M-90M, rent 15k-500k), sized to what such a property costs.
export const PROPERTY_KINDS: PropertyKind[] = [
  { type: 'Studio', category: 'home', sale: [2_000_000, 9_000_000], rent: [15_000, 45_000], size: [300, 550] },
  { type: '2 BHK Apartment', category: 'home', sale: [4_000_000, 25_000_000], rent: [18_000, 90_000], size: [650, 1200] },
  { type: '3 BHK Apartment', category: 'home', sale: [8_000_000, 45_000_000], rent: [30_000, 180_000], size: [1100, 2000] },
  { type: 'Penthouse', category: 'home', sale: [30_000_000, 90_000_000], rent: [150_000, 500_000], size: [2500, 6000] },
  { type: 'Villa', category: 'home', sale: [20_000_000, 90_000_000], rent: [90_000, 450_000], size: [2500, 8000] },
  { type: 'Row House', category: 'home', sale: [10_000_000, 40_000_000], rent: [40_000, 150_000], size: [1400, 3000] },
  { type: 'Office Space', category: 'commercial', sale: [6_000_000, 80_000_000], rent: [40_000, 500_000], size: [500, 10_000] },
  { type: 'Retail Shop', category: 'commercial', sale: [3_000_000, 50_000_000], rent: [25_000, 300_000], size: [300, 2500] },
  { type: 'Plot', category: 'land', sale: [3_000_000, 90_000_000], rent: [15_000, 100_000], size: [1000, 10_000] },
  { type: 'Warehouse', category: 'land', sale: [10_000_000, 90_000_000], rent: [60_000, 500_000], size: [3000, 10_000] },
]

export const LOCALITIES: Record<string, string[]> = {
  Mumbai: ['Andheri West', 'Bandra West', 'Powai', 'Goregaon East', 'Lower Parel', 'Malad West', 'Chembur', 'Worli', 'Borivali'],
  Pune: ['Kothrud', 'Baner', 'Hinjewadi', 'Viman Nagar', 'Kharadi', 'Wakad', 'Aundh'],
  Bengaluru: ['Koramangala', 'Indiranagar', 'Whitefield', 'HSR Layout', 'Jayanagar', 'Hebbal', 'Electronic City', 'Marathahalli'],
  'New Delhi': ['Vasant Kunj', 'Saket', 'Dwarka', 'Lajpat Nagar', 'Greater Kailash', 'Karol Bagh', 'Connaught Place', 'Rohini'],
  Chennai: ['Adyar', 'T. Nagar', 'Anna Nagar', 'Velachery', 'OMR', 'Besant Nagar', 'Porur'],
  Hyderabad: ['Gachibowli', 'Banjara Hills', 'Jubilee Hills', 'HITEC City', 'Kondapur', 'Madhapur', 'Kukatpally'],
  'New York': ['Upper West Side', 'Chelsea', 'Tribeca', 'Harlem', 'Williamsburg', 'Astoria', 'Park Slope', 'Financial District'],
  'Los Angeles': ['Santa Monica', 'Silver Lake', 'Koreatown', 'Echo Park', 'Westwood', 'Downtown LA', 'Venice', 'Pasadena'],
  London: ['Camden', 'Islington', 'Shoreditch', 'Canary Wharf', 'Clapham', 'Hammersmith', 'Greenwich', 'Kensington'],
  Dubai: ['Dubai Marina', 'Downtown Dubai', 'Jumeirah', 'Business Bay', 'Al Barsha', 'JLT', 'Deira', 'Palm Jumeirah'],
}
export const GENERIC_LOCALITIES = ['City Centre', 'Old Town', 'Station Road', 'Lakeside', 'Riverside', 'Ring Road', 'Tech Park', 'Market Area']

/**
 * The zone of the city each demo locality lies in, as its brokers would say: a listing's zone follows its locality, so
 * the demo never puts Bandra West in the outskirts (and the WhatsApp parser, which takes a locality's zone from the
 * network's listings, answers as a broker would).
 */
export const ZONE_OF: Record<string, LocationZone> = {
  ...zones({ West: ['Andheri West', 'Bandra West'], Central: ['Powai'], East: ['Goregaon East', 'Chembur'], South: ['Lower Parel', 'Worli'], North: ['Malad West', 'Borivali'] }),
  ...zones({ West: ['Kothrud', 'Baner', 'Aundh'], Outskirts: ['Hinjewadi', 'Wakad'], East: ['Viman Nagar', 'Kharadi'] }),
  ...zones({ South: ['Koramangala', 'HSR Layout', 'Jayanagar'], East: ['Indiranagar', 'Whitefield', 'Marathahalli'], North: ['Hebbal'], Outskirts: ['Electronic City'] }),
  ...zones({ South: ['Vasant Kunj', 'Saket', 'Lajpat Nagar', 'Greater Kailash'], West: ['Dwarka'], Central: ['Karol Bagh', 'Connaught Place'], North: ['Rohini'] }),
  ...zones({ South: ['Adyar', 'Velachery', 'OMR', 'Besant Nagar'], Central: ['T. Nagar'], North: ['Anna Nagar'], West: ['Porur'] }),
  ...zones({ West: ['Gachibowli', 'Kondapur', 'Madhapur', 'HITEC City'], Central: ['Banjara Hills', 'Jubilee Hills'], North: ['Kukatpally'] }),
  ...zones({ West: ['Upper West Side', 'Chelsea'], South: ['Tribeca', 'Financial District'], North: ['Harlem'], East: ['Williamsburg', 'Astoria', 'Park Slope'] }),
  ...zones({ West: ['Santa Monica', 'Westwood', 'Venice'], Central: ['Silver Lake', 'Koreatown', 'Echo Park', 'Downtown LA'], Outskirts: ['Pasadena'] }),
  ...zones({ North: ['Camden', 'Islington'], East: ['Shoreditch', 'Canary Wharf'], South: ['Clapham', 'Greenwich'], West: ['Hammersmith', 'Kensington'] }),
  ...zones({ West: ['Dubai Marina', 'JLT', 'Palm Jumeirah', 'Al Barsha', 'Jumeirah'], Central: ['Downtown Dubai', 'Business Bay'], North: ['Deira'] }),
  ...zones({ Central: ['City Centre', 'Old Town', 'Market Area'], North: ['Station Road'], East: ['Lakeside'], West: ['Riverside'], Outskirts: ['Ring Road'], South: ['Tech Park'] }),
}

function zones(byZone: Partial<Record<LocationZone, string[]>>): Record<string, LocationZone> {
  return Object.fromEntries(Object.entries(byZone).flatMap(([zone, names]) => names.map((name) => [name, zone as LocationZone])))
}

// A locality added above without its zone would give listings no zone: refused where every seed (and its test) starts.
for (const l of [...Object.values(LOCALITIES).flat(), ...GENERIC_LOCALITIES]) if (!ZONE_OF[l]) throw new Error(`demo locality without a zone: ${l}`)

const AVL_OPENERS: Record<PropertyCategory, string[]> = {
  home: ['Well-maintained', 'Newly renovated', 'Spacious', 'Bright, east-facing', 'Ready-to-move', 'Recently built'],
  commercial: ['Well-maintained', 'Newly renovated', 'Spacious', 'Ready-to-use', 'Prime'],
  land: ['Well-located', 'East-facing', 'Level', 'Prime', 'Freehold'],
}
const AVL_FEATURES: Record<PropertyCategory, string[]> = {
  home: ['with covered parking', 'with 24x7 security', 'with a private terrace', 'on a high floor with open views', 'with power backup', 'with a modular kitchen'],
  commercial: ['with glass frontage', 'with dedicated parking', 'with central air conditioning', 'on the ground floor', 'with high footfall', 'with a reception area'],
  land: ['with clear title', 'with a wide road frontage', 'with truck access', 'with all approvals in place', 'with boundary wall done', 'on a corner'],
}
const AVL_CLOSERS = ['close to the metro', 'walking distance to schools and markets', 'near the main road', 'in a gated community', 'with easy access to the highway', 'a short drive from the business district']
const REQ_CLIENTS: Record<PropertyCategory, string[]> = {
  home: ['Family of four', 'Young couple', 'NRI client', 'Working professional', 'Retired couple', 'Investor'],
  commercial: ['Corporate client', 'Retail chain', 'Start-up', 'Clinic owner', 'Investor'],
  land: ['Developer', 'Logistics company', 'Investor', 'Manufacturing firm'],
}
const REQ_NEEDS = ['budget flexible for the right property', 'ready to close within a month', 'prefers a higher floor', 'needs parking for two cars', 'wants possession within 60 days', 'open to semi-furnished options']
export const REFERENCES = ['Walk-in client', 'Referred by an existing client', 'Property portal enquiry', 'Newspaper advertisement', 'Builder tie-up', 'Repeat client', 'Society notice board']
export const COMMENTS = ['Price slightly negotiable.', 'Keys with the broker; visits on weekends.', 'Urgent: client travelling next week.', 'Brokerage as per market norms.', 'Documents verified.', 'Available from next month.', 'Call before 7 pm.']

export const STATUS_WEIGHTS: [ListingStatus, number][] = [
  ['ACTIVE', 80],
  ['ON_HOLD', 8],
  ['CLOSED', 9],
  ['SUSPENDED', 3],
]

// ---------------------------------------------------------------------------------------------------------------
// The whole demo

/**
 * Seeds geography, module admins, brokers and listings in one transaction: a failure leaves the database as it was.
 * Meant for a database without demo users (first start, tests); the demo emails would otherwise collide (on PostgreSQL,
 * a second instance seeding at the same moment fails on them: `isConflict`, db/dialect.ts).
 */
export async function seedDemoData(db: Queryable, opts: DemoSeedOptions): Promise<DemoSeedResult> {
  const rand = mulberry32(opts.seed ?? 42)
  const now = (opts.now ?? new Date()).getTime()
  const listingCount = opts.listings ?? 300
  const passwordHash = opts.passwordHash

  return db.tx(async (tx): Promise<DemoSeedResult> => {
    const { inserted, cityIds } = await insertGeography(tx, now)
    const cityId = (name: string) => {
      const id = cityIds.get(name)
      if (id === undefined) throw new Error(`demo city ${name} is not in DEMO_GEOGRAPHY`)
      return id
    }

    const adminRows = MODULE_ADMINS.map((a) => {
      const createdAt = now - (400 + Math.floor(rand() * 30)) * DAY_MS
      return {
        email: `admin.${slug(a.city)}@${DEMO_EMAIL_DOMAIN}`,
        password_hash: passwordHash,
        full_name: a.fullName,
        phone: phoneFor(CITY_PHONE[a.city]!, rand),
        role: 'MODULE_ADMIN',
        is_active: true,
        registration_status: 'APPROVED',
        rejection_reason: null,
        id_card_number: null,
        city_id: cityId(a.city),
        created_at: createdAt,
        updated_at: createdAt,
      }
    })

    const brokerRows = BROKERS.map((b, i) => {
      // Approved brokers joined before the listings window; applicants are recent so they sit at the top of approvals.
      const daysAgo = b.status === 'APPROVED' ? 130 + rand() * 230 : b.status === 'PENDING' ? rand() * 6 : 10 + rand() * 10
      const createdAt = now - Math.floor(daysAgo * DAY_MS)
      return {
        email: `${slug(b.first)}.${slug(b.last)}@${DEMO_EMAIL_DOMAIN}`,
        password_hash: passwordHash,
        full_name: `${b.first} ${b.last}`,
        phone: phoneFor(CITY_PHONE[b.city]!, rand),
        role: 'BROKER',
        is_active: b.status === 'APPROVED',
        registration_status: b.status,
        rejection_reason: b.rejectionReason ?? null,
        id_card_number: `IDC${String(100 + i).padStart(4, '0')}${String(Math.floor(rand() * 10_000)).padStart(4, '0')}`,
        city_id: cityId(b.city),
        created_at: createdAt,
        updated_at: b.status === 'REJECTED' ? createdAt + DAY_MS : createdAt,
      }
    })
    await insertRows(tx, 'users', adminRows)
    const back = await insertRows<{ id: number; email: string }>(tx, 'users', brokerRows, 'id, email')
    const idByEmail = new Map(back.map((r) => [r.email, r.id]))

    const owners = BROKERS.flatMap((b, i) => {
      if (b.status !== 'APPROVED') return []
      const row = brokerRows[i]!
      return [{ id: idByEmail.get(row.email)!, fullName: row.full_name, phone: row.phone, email: row.email, city: b.city, cityId: row.city_id }]
    })

    await insertListings(tx, rand, { count: listingCount, now, owners })
    // The demo cities' localities are theirs already (issue 30): only places brokers add later are offered to admins.
    await insertRows(
      tx,
      'city_localities',
      Object.entries(LOCALITIES).flatMap(([city, names]) =>
        names.map((name) => ({ city_id: cityId(city), name, key: name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''), zone: ZONE_OF[name]!, status: 'ACCEPTED', decided_by: null, created_at: now, updated_at: now })),
      ),
    )

    return { ...inserted, moduleAdmins: adminRows.length, brokers: brokerRows.length, listings: listingCount }
  })
}

type Owner = { id: number; fullName: string; phone: string; email: string; city: string; cityId: number }

/**
 * `count` listing ids no other writer can take, ascending. entry_id embeds the id, so ids are known before the insert
 * and each row is written once (inserting, then setting entry_id from the returned id as the API does, would run every
 * listing trigger twice). Neither backend has a portable way to reserve ids:
 * - SQLite: past AUTOINCREMENT's high-water mark (ids never reused, as it promises); the transaction holds the only
 *   writer, and the explicit ids move the mark;
 * - PostgreSQL: taken from the identity column's own sequence, as its inserts would take them.
 */
async function reserveListingIds(db: Queryable, count: number): Promise<number[]> {
  if (db.dialect === 'postgres') {
    const rows = await db.all<{ id: number }>("select nextval(pg_get_serial_sequence('listings', 'id')) as id from generate_series(1, ?)", [count])
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b)
  }
  const last = await db.get<{ seq: number; maxId: number }>(
    `select coalesce((select seq from sqlite_sequence where name = 'listings'), 0) as seq, coalesce((select max(id) from listings), 0) as "maxId"`,
  )
  const first = Math.max(last!.seq, last!.maxId) + 1
  return Array.from({ length: count }, (_, i) => first + i)
}

async function insertListings(db: Queryable, rand: Rand, p: { count: number; now: number; owners: Owner[] }): Promise<void> {
  if (p.count <= 0) return
  if (p.owners.length === 0) throw new Error('demo listings need at least one approved broker')
  const ids = await reserveListingIds(db, p.count)

  // Times are drawn first and sorted, so ids grow with created_at as they would in real use.
  const startOfToday = Math.floor(p.now / DAY_MS) * DAY_MS
  const todayCount = Math.min(p.count, Math.max(3, Math.round(p.count * 0.02)))
  const times = Array.from({ length: p.count }, (_, i) =>
    i < todayCount ? startOfToday + Math.floor(rand() * (p.now - startOfToday)) : p.now - Math.floor(rand() * LISTING_SPAN_DAYS * DAY_MS),
  ).sort((a, b) => a - b)

  const rows = ids.map((id, i) => {
    const owner = pick(rand, p.owners)
    const kind = pick(rand, PROPERTY_KINDS)
    // The first rows cycle through every value so even a tiny demo shows each zone, post type and deal type.
    const postType: PostType = i < 2 ? (['REQ', 'AVL'] as const)[i]! : rand() < 0.45 ? 'REQ' : 'AVL'
    const saleOrRent: SaleOrRent = i < 4 ? (i % 2 === 0 ? 'SALE' : 'RENT') : rand() < 0.55 ? 'SALE' : 'RENT'
    const firstZone = i < LOCATION_ZONES.length ? LOCATION_ZONES[i]! : null
    // Drawn and set aside past the first rows, so every later value of the demo stays what it was before zones
    // followed localities (the same owners, statuses and budgets the README and screenshots show).
    if (!firstZone) pick(rand, LOCATION_ZONES)
    const cityLocalities = LOCALITIES[owner.city] ?? GENERIC_LOCALITIES
    const inFirstZone = cityLocalities.filter((l) => ZONE_OF[l] === firstZone)
    const locality = pick(rand, inFirstZone.length ? inFirstZone : cityLocalities)
    const location = firstZone && !inFirstZone.length ? firstZone : ZONE_OF[locality]!
    const status = weighted(rand, STATUS_WEIGHTS)
    const createdAt = times[i]!
    // A status other than ACTIVE was set some time after posting, never after `now`.
    const updatedAt = status === 'ACTIVE' ? createdAt : createdAt + Math.floor(rand() * Math.min(p.now - createdAt, 10 * DAY_MS))
    return {
      id,
      entry_id: formatEntryId(postType, owner.city, id),
      post_type: postType,
      sale_or_rent: saleOrRent,
      property_type: kind.type,
      contact_value: rand() < 0.6 ? owner.phone : owner.email,
      contact_name: owner.fullName,
      budget: roundTo(logUniform(rand, ...(saleOrRent === 'SALE' ? kind.sale : kind.rent)), 1000),
      size: roundTo(kind.size[0] + rand() * (kind.size[1] - kind.size[0]), 10),
      location,
      locality,
      reference: rand() < 0.3 ? pick(rand, REFERENCES) : null,
      details: describe(rand, postType, saleOrRent, kind, locality),
      comments: rand() < 0.35 ? pick(rand, COMMENTS) : null,
      status,
      date: new Date(createdAt).toISOString().slice(0, 10),
      owner_user_id: owner.id,
      city_id: owner.cityId,
      created_at: createdAt,
      updated_at: updatedAt,
      expires_at: demoExpiry(id, saleOrRent, p.now),
    }
  })
  await insertRows(db, 'listings', rows)
}

/**
 * When a demo listing leaves the network: spread over its deal's default stay from now (issue 17), by id rather than by
 * the random draws, so the rest of the demo stays as it was. Some end within days, so reminders and expiry show soon.
 */
export const demoExpiry = (id: number, deal: SaleOrRent, now: number) =>
  now + 3_600_000 + ((id * 2_654_435_761) % ((deal === 'RENT' ? EXPIRY_DAYS.RENT : EXPIRY_DAYS.SALE) * 24)) * 3_600_000

/** One sentence in a broker's voice: what is on offer, or what the client wants. */
export function describe(rand: Rand, postType: PostType, saleOrRent: SaleOrRent, kind: PropertyKind, locality: string): string {
  const type = kind.type.toLowerCase().replace('bhk', 'BHK')
  if (postType === 'AVL') {
    const deal = saleOrRent === 'SALE' ? 'for sale' : 'for rent'
    return `${pick(rand, AVL_OPENERS[kind.category])} ${type} ${deal} in ${locality} ${pick(rand, AVL_FEATURES[kind.category])}, ${pick(rand, AVL_CLOSERS)}.`
  }
  const verb = saleOrRent === 'SALE' ? 'buy' : 'rent'
  return `${pick(rand, REQ_CLIENTS[kind.category])} looking to ${verb} ${article(type)} ${type} in or near ${locality}, ${pick(rand, REQ_NEEDS)}.`
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness: no Math.random, so a seed reproduces the demo exactly.

export type Rand = () => number

/** mulberry32: tiny, fast, and good enough for demo data. Returns floats in [0, 1). */
export function mulberry32(seed: number): Rand {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function pick<T>(rand: Rand, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!
}

export function weighted<T>(rand: Rand, options: [T, number][]): T {
  const total = options.reduce((s, [, w]) => s + w, 0)
  let r = rand() * total
  for (const [value, w] of options) if ((r -= w) < 0) return value
  return options[options.length - 1]![0]
}

/** Prices cluster at the low end of a range, as real ones do, instead of spreading evenly. */
export function logUniform(rand: Rand, min: number, max: number): number {
  return Math.exp(Math.log(min) + rand() * (Math.log(max) - Math.log(min)))
}

export const roundTo = (n: number, step: number) => Math.round(n / step) * step

const article = (word: string) => (/^[AEIOU]/i.test(word) ? 'an' : 'a')
