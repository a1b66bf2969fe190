// WhatsApp in and out (issue 18): POST /api/listings/parse reads pasted messages into listing drafts (nothing posted),
// GET /api/listings/{id}/share writes a listing as one message; parsing a shared listing gives it back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PROPERTY_KINDS } from '../../db/seed/demo'
import { propertyKey } from '../../src/shared/property-key'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { insertRow } from '../support/fixtures'

const h = await createTestApp({ PUBLIC_URL: 'https://brokernet.example' })
afterAll(() => h.close())

type Draft = {
  post_type: string
  sale_or_rent: string
  property_type: string | null
  budget: number | null
  size: number | null
  locality: string | null
  location: string | null
  contact_value: string | null
  contact_name: string | null
  details: string
  confidence: number
  unparsed: string[]
}

const cities: Record<string, number> = {}
let mumbaiBroker: SignedIn
let puneBroker: SignedIn
let mumbaiAdmin: SignedIn
let master: SignedIn

async function seedCountry(country: string, code: string, city: string) {
  const now = Date.now()
  const c = await insertRow(h.ctx.db, 'countries', { name: country, code, createdAt: now, updatedAt: now })
  const s = await insertRow(h.ctx.db, 'states', { name: `${country} State`, code: `${code}S`, countryId: c.id, createdAt: now, updatedAt: now })
  const row = await insertRow(h.ctx.db, 'cities', { name: city, stateId: s.id, createdAt: now, updatedAt: now })
  cities[city] = row.id
  return row.id
}

const parse = async (as: SignedIn, text: unknown, extra: Record<string, unknown> = {}) => {
  const res = await h.request('/api/listings/parse', withJson(as.bearer, { text, ...extra }))
  return { status: res.status, body: (await res.json()) as { drafts: Draft[]; detail?: unknown } }
}
const post = async (as: SignedIn, body: Record<string, unknown>) => {
  const res = await h.request('/api/listings', withJson(as.bearer, body))
  expect(res.status).toBe(201)
  return (await res.json()) as { id: number; entry_id: string }
}
const share = async (as: SignedIn, id: number) => {
  const res = await h.request(`/api/listings/${id}/share`, { headers: as.bearer })
  return { status: res.status, body: (await res.json()) as { text: string; whatsapp_url: string; detail?: string } }
}

beforeAll(async () => {
  await seedCountry('India', 'IN', 'Mumbai')
  const now = Date.now()
  const india = (await h.ctx.db.get<{ id: number }>("select id from countries where code = 'IN'"))!.id
  const maharashtra = await insertRow(h.ctx.db, 'states', { name: 'Maharashtra', code: 'MH', countryId: india, createdAt: now, updatedAt: now })
  cities.Pune = (await insertRow(h.ctx.db, 'cities', { name: 'Pune', stateId: maharashtra.id, createdAt: now, updatedAt: now })).id
  await seedCountry('United States', 'US', 'New York')
  await seedCountry('United Kingdom', 'GB', 'London')
  await seedCountry('United Arab Emirates', 'AE', 'Dubai')
  mumbaiBroker = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Mumbai!, fullName: 'Asha Paste', phone: '+919820011111' })
  puneBroker = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Pune!, fullName: 'Kiran Paste' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: cities.Mumbai!, fullName: 'Mumbai Admin' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Paste Master' })
  // The localities the network knows in Mumbai: posted before anyone parses (the parser reads them once a minute).
  for (const [locality, location] of [
    ['Andheri West', 'West'],
    ['Andheri East', 'East'],
    ['Lokhandwala Complex', 'West'],
    ['Lower Parel', 'South'],
  ] as const)
    await post(mumbaiBroker, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '98200 11111', property_type: '1 BHK', locality, location, budget: 30_000 + locality.length })
})

describe('POST /api/listings/parse', () => {
  test('needs a session and the right to post', async () => {
    const res = await h.request('/api/listings/parse', withJson({}, { text: 'Req 2BHK' }))
    expect(res.status).toBe(401)
  })

  test('refuses an empty paste, a paste over 20,000 characters and anything but text, with the field named', async () => {
    for (const text of ['', 'x'.repeat(20_001), 42, null, ['Req 2BHK']]) {
      const { status, body } = await parse(mumbaiBroker, text)
      expect(status).toBe(422)
      expect(JSON.stringify(body.detail)).toContain('text')
    }
    expect((await parse(mumbaiBroker, 'Req 2BHK Andheri W rent 45k '.repeat(700).slice(0, 20_000))).status).toBe(200)
  })

  test('a user may have 100,000 characters read a minute in each process: beyond, 429 with Retry-After; another user is not held up', async () => {
    const busy = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Mumbai!, fullName: 'Busy Paster' })
    const processes = ((await (await h.request('/api/system', { headers: master.bearer })).json()) as { processes: number }).processes
    const paste = 'Req 2BHK Andheri W rent 45k\n\n'.repeat(800).slice(0, 20_000)
    // Five pastes of the largest size fit in one process's allowance; with several processes each has its own.
    for (let i = 0; i < 5; i++) expect((await parse(busy, paste)).status).toBe(200)
    let refused: Response | null = null
    for (let i = 5; i <= 5 * processes && !refused; i++) {
      const res = await h.request('/api/listings/parse', withJson(busy.bearer, { text: paste }))
      if (res.status === 429) refused = res
      else expect(res.status).toBe(200)
    }
    expect(refused?.status).toBe(429)
    const wait = Number(refused!.headers.get('retry-after'))
    expect(wait).toBeGreaterThanOrEqual(1)
    expect(wait).toBeLessThanOrEqual(60)
    expect(((await refused!.json()) as { detail: string }).detail).toMatch(/^Too many pastes read\. Please try again in 1 minute\.$/)
    const other = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Mumbai!, fullName: 'Calm Paster' })
    expect((await parse(other, paste)).status).toBe(200)
  })

  test('reads the issue’s two examples, and a greeting gives no draft', async () => {
    const { status, body } = await parse(
      mumbaiBroker,
      'Req 2BHK Andheri W rent 45k semi furnished\n\nGood morning all 🙏\n\nAvl 3 BHK andheri west 1800 sqft 4.5 Cr outright, call 98xxxxxx10',
    )
    expect(status).toBe(200)
    expect(body.drafts).toHaveLength(2)
    const [req, avl] = body.drafts
    expect(req).toMatchObject({ post_type: 'REQ', sale_or_rent: 'RENT', property_type: '2 BHK Apartment', budget: 45_000, size: null, locality: 'Andheri West', location: 'West', contact_value: null })
    expect(req!.details).toBe('Req 2BHK Andheri W rent 45k semi furnished')
    expect(req!.unparsed).toEqual([])
    expect(avl).toMatchObject({ post_type: 'AVL', sale_or_rent: 'SALE', property_type: '3 BHK Apartment', budget: 45_000_000, size: 1800, locality: 'Andheri West', contact_value: '98xxxxxx10' })
    expect(avl!.confidence).toBeGreaterThan(req!.confidence)
  })

  test('a chat export: one draft per message, the sender’s number as the contact when the message has none, system lines skipped', async () => {
    const paste = [
      '[12/03/24, 10:15:32 AM] Messages and calls are end-to-end encrypted. No one outside of this chat can read them.',
      '[12/03/24, 10:15:40 AM] +91 98200 12345: Avl office 650 sq ft lowerparel rent 1,20,000 deposit 6L',
      '[12/03/24, 10:16:02 AM] Rahul Mehta: Required 1RK near Lokhandwala',
      'budget 18k, family only',
      '[12/03/24, 10:17:10 AM] Rahul Mehta: <Media omitted>',
    ].join('\n')
    const { body } = await parse(mumbaiBroker, paste)
    expect(body.drafts.map((d) => [d.post_type, d.sale_or_rent, d.property_type, d.budget, d.size, d.locality, d.contact_value, d.contact_name])).toEqual([
      ['AVL', 'RENT', 'Office Space', 120_000, 650, 'Lower Parel', '+91 98200 12345', null],
      ['REQ', 'RENT', '1 RK', 18_000, null, 'Lokhandwala Complex', null, 'Rahul Mehta'],
    ])
    expect(body.drafts[1]!.details).toBe('Required 1RK near Lokhandwala\nbudget 18k, family only')
  })

  test('blank lines keep short messages apart: a figure makes a message, not a heading; a listing is no phone line', async () => {
    const { body } = await parse(
      mumbaiBroker,
      'Req rent Chembur budget 30k, 500 sqft urgent\n\nAVL 1 BHK for sale in Andheri West 85 lac. Call 98200 12345\n\nReq 2bhk rent Lower Parel 45k\n\nAvl on rent in Chembur, 500 sqft, 30k. Call 98201 55555',
    )
    expect(body.drafts.map((d) => [d.post_type, d.sale_or_rent, d.property_type, d.budget, d.locality, d.contact_value])).toEqual([
      ['REQ', 'RENT', null, 30_000, 'Chembur', null],
      ['AVL', 'SALE', '1 BHK Apartment', 8_500_000, 'Andheri West', '+91 98200 12345'],
      ['REQ', 'RENT', '2 BHK Apartment', 45_000, 'Lower Parel', null],
      ['AVL', 'RENT', null, 30_000, 'Chembur', '+91 98201 55555'],
    ])
  })

  test('a broadcast’s heading and phone line belong to its body across blank lines', async () => {
    const { body } = await parse(mumbaiBroker, '*AVAILABLE FOR RENT* 🏠\n\n📍 Lower Parel\n🛏 2 BHK\n💰 Rent: ₹95,000/-\n\n📞 Call: +91 98201 66543')
    expect(body.drafts).toHaveLength(1)
    expect(body.drafts[0]).toMatchObject({ post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2 BHK Apartment', budget: 95_000, locality: 'Lower Parel', contact_value: '+91 98201 66543' })
  })

  test('words it could not place are listed; a place the network does not know is taken as written', async () => {
    const { body } = await parse(mumbaiBroker, 'Avl 2bhk in bhandup w 32k, xyzzy tower, call Sunil 98200-54321')
    expect(body.drafts).toHaveLength(1)
    expect(body.drafts[0]).toMatchObject({ locality: 'Bhandup West', budget: 32_000, contact_value: '+91 98200 54321', contact_name: 'Sunil' })
    expect(body.drafts[0]!.unparsed).toContain('xyzzy')
  })

  test('the localities are the caller’s city’s: a Pune broker’s paste does not know Mumbai’s, a master admin names the city', async () => {
    // Known in Mumbai as "Lokhandwala Complex"; elsewhere the place is taken as written.
    const text = 'Req 2bhk lokhandwala 50k'
    expect((await parse(mumbaiBroker, text)).body.drafts[0]!.locality).toBe('Lokhandwala Complex')
    expect((await parse(mumbaiAdmin, text)).body.drafts[0]!.locality).toBe('Lokhandwala Complex')
    expect((await parse(puneBroker, text)).body.drafts[0]!.locality).toBe('Lokhandwala')
    // A broker cannot borrow another city's localities.
    expect((await parse(puneBroker, text, { city_id: cities.Mumbai })).body.drafts[0]!.locality).toBe('Lokhandwala')
    expect((await parse(master, text)).body.drafts[0]!.locality).toBe('Lokhandwala')
    expect((await parse(master, text, { city_id: cities.Mumbai })).body.drafts[0]!.locality).toBe('Lokhandwala Complex')
  })

  test('hostile and odd input gives drafts or none, never an error', async () => {
    const odd = [
      '\u0000\u0001\u202e[12/03/24, 10:15 AM] : :',
      '1) 2) 3)\n\n\n\n',
      '₹₹₹ 1,,,2 Cr ---- 45k-',
      '9'.repeat(5000),
      '🏠'.repeat(3000),
      '[' + '1/1/1, 1:1'.repeat(500),
      'Req 2BHK '.repeat(2000),
      'Avl 2bhk 1e400 Cr 99999999999999999999999 sqft',
    ]
    for (const text of odd) {
      const { status, body } = await parse(mumbaiBroker, text)
      expect(status).toBe(200)
      for (const d of body.drafts) {
        if (d.budget !== null) expect(Number.isFinite(d.budget)).toBe(true)
        if (d.size !== null) expect(Number.isFinite(d.size)).toBe(true)
        expect(d.details.length).toBeLessThanOrEqual(4000)
      }
    }
  })

  test('a draft posts through the normal create route as it comes', async () => {
    const { body } = await parse(mumbaiBroker, 'Avl 2 BHK Andheri E rent 38k 700 sqft call 98200 22222')
    const d = body.drafts[0]!
    const created = await post(mumbaiBroker, { ...d, confidence: undefined, unparsed: undefined })
    const got = await (await h.request(`/api/listings/${created.id}`, { headers: mumbaiBroker.bearer })).json()
    expect(got).toMatchObject({ post_type: 'AVL', sale_or_rent: 'RENT', property_type: '2 BHK Apartment', budget: 38_000, size: 700, locality: 'Andheri East', location: 'East', contact_value: '+91 98200 22222' })
  })
})

describe('property types as the network knows them (issue 30)', () => {
  test('a pasted 2BHK is a 2 BHK Apartment: the type filter and a saved search of that type find it once posted', async () => {
    const saver = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Mumbai!, fullName: 'Type Saver' })
    const saved = await h.request('/api/saved-searches', withJson(saver.bearer, { name: '2 BHK flats', filters: { property_type: '2 BHK Apartment', sale_or_rent: 'RENT' }, }))
    expect(saved.status).toBe(201)
    const { body } = await parse(mumbaiBroker, 'Avl 2BHK Powai rent 41k call 98200 41414')
    expect(body.drafts.map((d) => d.property_type)).toEqual(['2 BHK Apartment'])
    const created = await post(mumbaiBroker, { ...body.drafts[0]!, confidence: undefined, unparsed: undefined })
    const found = (await (await h.request(`/api/listings/?property_type=${encodeURIComponent('2 BHK Apartment')}&per_page=100`, { headers: mumbaiBroker.bearer })).json()) as { listings: { id: number }[] }
    expect(found.listings.map((l) => l.id)).toContain(created.id)
    const mine = (await (await h.request('/api/saved-searches', { headers: saver.bearer })).json()) as { saved_searches: { name: string; new_count: number }[] }
    expect(mine.saved_searches.find((s) => s.name === '2 BHK flats')!.new_count).toBe(1)
  })
})

describe('GET /api/listings/{id}/share', () => {
  let listing: { id: number; entry_id: string }
  beforeAll(async () => {
    listing = await post(mumbaiBroker, { post_type: 'REQ', sale_or_rent: 'RENT', contact_value: '+91 98200 12345', property_type: '2 BHK', budget: 45_000, size: 650, locality: 'Andheri West', location: 'West' })
  })

  test('the issue’s shorthand, ending with the listing’s link on PUBLIC_URL, and a wa.me link carrying it', async () => {
    const { status, body } = await share(puneBroker, listing.id)
    expect(status).toBe(200)
    expect(body.text).toBe(`REQ | RENT | 2 BHK | ₹45K | 650 sq ft | Andheri West (West) | Contact Asha Paste +91 98200 12345 | https://brokernet.example/dashboard/listings?search=${listing.entry_id}`)
    expect(body.whatsapp_url).toBe(`https://wa.me/?text=${encodeURIComponent(body.text)}`)
  })

  test('at most 500 characters, however long the fields, the link kept whole', async () => {
    const long = await post(mumbaiBroker, {
      post_type: 'AVL',
      sale_or_rent: 'SALE',
      contact_value: 'x'.repeat(180) + '@example.com',
      property_type: 'P'.repeat(100),
      locality: 'L'.repeat(200),
      budget: 12_345_678,
      details: 'd'.repeat(3000),
    })
    const { body } = await share(mumbaiBroker, long.id)
    expect(body.text.length).toBeLessThanOrEqual(500)
    // The owner's share links to the listing's public page (issue 34), kept whole.
    expect(body.text).toMatch(/ https:\/\/brokernet\.example\/l\/[A-Za-z0-9_-]{22}$/)
    expect(body.text).toContain('₹1,23,45,678')
  })

  test('needs a session; a listing the caller may not see is not found', async () => {
    expect((await h.request(`/api/listings/${listing.id}/share`)).status).toBe(401)
    expect((await share(mumbaiBroker, 987_654)).status).toBe(404)
    const hidden = await post(puneBroker, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '98200 33333', property_type: 'Shop', budget: 50_000 })
    const res = await h.request(`/api/listings/${hidden.id}`, withJson(master.bearer, { status: 'SUSPENDED', suspension_reason: 'Checking the contact' }, 'PATCH'))
    expect(res.status).toBe(200)
    expect((await share(mumbaiBroker, hidden.id)).status).toBe(404)
    expect((await share(puneBroker, hidden.id)).status).toBe(200)
    expect((await share(mumbaiAdmin, hidden.id)).status).toBe(404)
    expect((await h.request('/api/listings/abc/share', { headers: mumbaiBroker.bearer })).status).toBe(422)
  })
})

// A deterministic generator, so a failure names a listing that fails again.
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('round trip: parsing a shared listing gives it back', () => {
  test('post type, deal, property type, budget, size and locality of 240 listings in four currencies', async () => {
    const rand = mulberry32(18)
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!
    const owners: Record<string, SignedIn> = {}
    for (const city of ['Mumbai', 'New York', 'London', 'Dubai']) owners[city] = await signIn(h.ctx.db, 'BROKER', { cityId: cities[city]!, fullName: `Owner ${city.replace(' ', '')}` })
    const localities = ['Andheri West', 'Bandra (W)', 'T. Nagar', 'Sector 15', 'Upper West Side', 'Palm Jumeirah', 'Canary Wharf', 'HSR Layout 2nd Stage', null]
    const types = [...PROPERTY_KINDS.map((k) => k.type), '1 RK', '2.5 BHK', 'Godown cum office', 'Independent House']
    const zones = ['North', 'East', 'West', 'South', 'Central', 'Outskirts', null]
    const budgets = () => {
      const r = rand()
      if (r < 0.1) return null
      if (r < 0.3) return Math.round(rand() * 99_000) + 1_000 // anything
      if (r < 0.6) return Math.round(rand() * 300) * 1_000 // whole thousands
      if (r < 0.8) return Math.round(rand() * 990) * 100_000 // whole lakhs
      return Math.round(rand() * 500) * 1_000_000 + 12_345 // odd crores
    }
    const sizes = () => (rand() < 0.15 ? null : rand() < 0.8 ? Math.round(rand() * 9_000) + 100 : Math.round(rand() * 90_000) / 10 + 50)
    const made: { id: number; sent: Record<string, unknown> }[] = []
    for (let i = 0; i < 240; i++) {
      const city = pick(Object.keys(owners))
      const sent = {
        post_type: pick(['REQ', 'AVL']),
        sale_or_rent: pick(['SALE', 'RENT']),
        contact_value: pick(['+91 98200 12345', '9876543210', 'broker@example.com', '+1 212 555 0100']),
        property_type: pick(types),
        budget: budgets(),
        size: sizes(),
        locality: pick(localities),
        location: pick(zones),
        details: pick(['Semi furnished, 12th floor', 'Family only', 'Near metro, 2 car parks']),
        confirm_duplicate: true,
      }
      made.push({ id: (await post(owners[city]!, sent)).id, sent })
    }
    const failures: string[] = []
    const reader = await signIn(h.ctx.db, 'BROKER', { cityId: cities.Mumbai!, fullName: 'Round Trip' })
    for (const { id, sent } of made) {
      const { text } = (await share(master, id)).body
      const drafts = (await parse(reader, text)).body.drafts
      const d = drafts[0]
      const got = d && { post_type: d.post_type, sale_or_rent: d.sale_or_rent, property_type: propertyKey(d.property_type ?? ''), budget: d.budget, size: d.size, locality: d.locality }
      const want = { post_type: sent.post_type, sale_or_rent: sent.sale_or_rent, property_type: propertyKey(String(sent.property_type)), budget: sent.budget, size: sent.size, locality: sent.locality }
      if (drafts.length !== 1 || JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${text}\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)} (${drafts.length} drafts)`)
    }
    expect(failures).toEqual([])
  })
})
