import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { calendarDate } from '../../src/shared/dates'
import { createTestApp } from '../support/app'
import { signIn, type SignedIn } from '../support/auth'
import { insertListing, seedPlace } from '../support/fixtures'

// A known dataset, written straight into the table, so every figure below is computed by hand.
const h = await createTestApp({ TZ: 'Asia/Kolkata' })
afterAll(() => h.close())
const DAY = 86_400_000
const today = calendarDate(Date.now(), 'Asia/Kolkata')
const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10)

let cityA: number
let cityB: number
let master: SignedIn
let adminA: SignedIn
let brokers: SignedIn[]
let seq = 0

async function add(owner: SignedIn, cityId: number, postType: 'REQ' | 'AVL', date: string, status: 'ACTIVE' | 'SUSPENDED' = 'ACTIVE') {
  seq++
  await insertListing(h.ctx.db, {
    entryId: `${postType}-TST-${String(seq).padStart(6, '0')}`,
    postType,
    saleOrRent: 'SALE',
    propertyType: 'Flat',
    contactValue: '9876543210',
    contactName: 'x',
    status,
    date,
    ownerUserId: owner.user.id,
    cityId,
  })
}

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha', 'Beta'])
  cityA = place.cities[0]!.id
  cityB = place.cities[1]!.id
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
  adminA = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: cityA })
  brokers = [
    await signIn(h.ctx.db, 'BROKER', { cityId: cityA, fullName: 'First' }),
    await signIn(h.ctx.db, 'BROKER', { cityId: cityA, fullName: 'Second' }),
    await signIn(h.ctx.db, 'BROKER', { cityId: cityB, fullName: 'Third' }),
  ]
  // City A: today 2 REQ + 1 AVL; 2 days ago 1 AVL; 40 days ago 1 REQ. City B: today 1 REQ (suspended), 3 days ago 2 AVL.
  await add(brokers[0]!, cityA, 'REQ', today)
  await add(brokers[1]!, cityA, 'REQ', today)
  await add(brokers[0]!, cityA, 'AVL', today)
  await add(brokers[1]!, cityA, 'AVL', daysAgo(2))
  await add(brokers[0]!, cityA, 'REQ', daysAgo(40))
  await add(brokers[2]!, cityB, 'REQ', today, 'SUSPENDED')
  await add(brokers[2]!, cityB, 'AVL', daysAgo(3))
  await add(brokers[2]!, cityB, 'AVL', daysAgo(3))
})

const get = async (as: SignedIn, path: string) => {
  const res = await h.request(path, { headers: as.bearer })
  return { status: res.status, body: await res.json() }
}

describe('dashboard figures', () => {
  test('by scope: global, a city, and a broker’s view of the network', async () => {
    expect((await get(master, '/api/analytics/dashboard')).body).toEqual({ total_requirements: 4, total_availabilities: 4, active_brokers: 3, new_posts_today: 4, scope: 'global' })
    expect((await get(adminA, '/api/analytics/dashboard')).body).toEqual({ total_requirements: 3, total_availabilities: 2, active_brokers: 2, new_posts_today: 3, scope: 'city' })
    // Brokers do not see another broker's suspended listing.
    expect((await get(brokers[0]!, '/api/analytics/dashboard')).body).toMatchObject({ total_requirements: 3, total_availabilities: 4, new_posts_today: 3, scope: 'global' })
    expect((await get(brokers[2]!, '/api/analytics/dashboard')).body).toMatchObject({ total_requirements: 4, new_posts_today: 4 })
  })
})

describe('trends', () => {
  test('every day of the period present, zeros included, counted by type', async () => {
    const { body } = await get(master, '/api/analytics/trends?days=7')
    expect(body.period_days).toBe(7)
    expect(Object.keys(body.daily_stats)).toHaveLength(7)
    expect(Object.keys(body.daily_stats).at(-1)).toBe(today)
    expect(body.daily_stats[today]).toEqual({ requirements: 3, availabilities: 1, total: 4 })
    expect(body.daily_stats[daysAgo(2)]).toEqual({ requirements: 0, availabilities: 1, total: 1 })
    expect(body.daily_stats[daysAgo(3)]).toEqual({ requirements: 0, availabilities: 2, total: 2 })
    expect(body.daily_stats[daysAgo(1)]).toEqual({ requirements: 0, availabilities: 0, total: 0 })
  })

  test('a module admin’s series holds only their city; the default period is 30 days', async () => {
    const { body } = await get(adminA, '/api/analytics/trends')
    expect(body.period_days).toBe(30)
    expect(body.scope).toBe('city')
    const sum = Object.values(body.daily_stats as Record<string, { total: number }>).reduce((a, d) => a + d.total, 0)
    expect(sum).toBe(4) // the 40-day-old one is outside, city B is not theirs
  })

  test('a custom range, inclusive; one date alone means that day', async () => {
    const { body } = await get(master, `/api/analytics/trends?start_date=${daysAgo(40)}&end_date=${daysAgo(39)}`)
    expect(body.period_days).toBe(2)
    expect(body.daily_stats[daysAgo(40)]).toEqual({ requirements: 1, availabilities: 0, total: 1 })
    const single = await get(master, `/api/analytics/trends?start_date=${today}`)
    expect(Object.keys(single.body.daily_stats)).toEqual([today])
  })

  test('ranges refused with the form’s messages: start after end, over 365 days', async () => {
    const after = await get(master, `/api/analytics/trends?start_date=${today}&end_date=${daysAgo(1)}`)
    expect(after.status).toBe(422)
    expect(after.body.detail[0].msg).toBe('Start date must be before or equal to end date')
    const long = await get(master, `/api/analytics/trends?start_date=${daysAgo(365)}&end_date=${today}`)
    expect(long.status).toBe(422)
    expect(long.body.detail[0].msg).toBe('Date range cannot exceed 365 days')
    expect((await get(master, `/api/analytics/trends?start_date=${daysAgo(364)}&end_date=${today}`)).status).toBe(200)
    expect((await get(master, '/api/analytics/trends?days=366')).body.detail[0].msg).toBe('Date range cannot exceed 365 days')
  })

  test('brokers get no trends or rankings', async () => {
    expect((await get(brokers[0]!, '/api/analytics/trends')).status).toBe(403)
    expect((await get(brokers[0]!, '/api/analytics/top-brokers')).status).toBe(403)
  })
})

describe('top brokers', () => {
  test('ranked by listings, ties broken by the earlier account; scoped', async () => {
    const { body } = await get(master, '/api/analytics/top-brokers?limit=10')
    expect(body.top_brokers.map((b: { full_name: string; listing_count: number }) => [b.full_name, b.listing_count])).toEqual([
      ['First', 3],
      ['Third', 3],
      ['Second', 2],
    ])
    expect(body.top_brokers[0]).toMatchObject({ user_id: brokers[0]!.user.id, email: brokers[0]!.user.email })
    const city = await get(adminA, '/api/analytics/top-brokers?limit=1')
    expect(city.body.top_brokers.map((b: { full_name: string }) => b.full_name)).toEqual(['First'])
  })

  test('figures follow changes at once; invalidate and health answer', async () => {
    await add(brokers[1]!, cityA, 'REQ', today)
    await add(brokers[1]!, cityA, 'REQ', today)
    const { body } = await get(master, '/api/analytics/top-brokers')
    expect(body.top_brokers[0]).toMatchObject({ full_name: 'Second', listing_count: 4 })
    const inv = await h.request('/api/analytics/cache/invalidate', { method: 'POST', headers: master.bearer })
    expect(inv.status).toBe(200)
    const health = await get(master, '/api/analytics/health')
    expect(health.body).toMatchObject({ status: 'ok', listings: 10, time_zone: 'Asia/Kolkata' })
  })
})
