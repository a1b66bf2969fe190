import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ftsQuery } from '../../src/modules/listings/store/read'
import { calendarDate } from '../../src/shared/dates'
import { postgresDb } from '../../db/postgres'
import { eventually } from '../support/eventually'
import { createTestApp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { auditTrail, seedPlace, type Place } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())
let mumbai: number
let pune: number
let otherCountryCity: number
let place: Place
let otherPlace: Place
let asha: SignedIn // broker, Mumbai
let ravi: SignedIn // broker, Pune
let mumbaiAdmin: SignedIn
let master: SignedIn

const base = { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: '2BHK' }
async function post(as: SignedIn, body: Record<string, unknown>) {
  const res = await h.request('/api/listings', withJson(as.browser, { ...base, ...body }))
  return { status: res.status, body: await res.json() }
}
const list = async (as: SignedIn, query = '') => (await h.request(`/api/listings/?${query}`, { headers: as.bearer })).json()
const patch = (as: SignedIn, id: number, body: unknown) => h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))

beforeAll(async () => {
  place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  otherPlace = await seedPlace(h.ctx.db, ['Dubai'])
  otherCountryCity = otherPlace.cities[0]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Verma' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: pune, fullName: 'Ravi Kumar' })
  mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai, fullName: 'Mira Admin' })
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  await post(asha, { locality: 'Andheri West', details: 'Sea-facing flat near the metro', budget: 2_500_000, location: 'West', size: 850 })
  await post(asha, { post_type: 'AVL', sale_or_rent: 'RENT', property_type: 'Shop', locality: 'Bandra', budget: 90_000, location: 'North' })
  await post(ravi, { post_type: 'AVL', locality: 'Koregaon Park', details: 'Villa with garden', budget: 15_000_000, location: 'East', property_type: 'villa' })
  await post(master, { city_id: otherCountryCity, details: 'Office in Downtown', property_type: 'Office', locality: 'Downtown' })
})

describe('creating', () => {
  test('a broker’s listing takes their city and name, gets a readable entry ID, starts ACTIVE, and is audited', async () => {
    const { status, body } = await post(asha, { city_id: pune, contact_name: 'Someone Else', comments: '  ', google_location_url: 'https://maps.example.com/?q=1' })
    expect(status).toBe(201)
    expect(body).toMatchObject({ city_id: mumbai, city_name: 'Mumbai', contact_name: 'Asha Verma', owner_name: 'Asha Verma', status: 'ACTIVE', comments: null, is_editable: true })
    expect(body.entry_id).toBe(`REQ-MUM-${String(body.id).padStart(6, '0')}`)
    expect(body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(await auditTrail(h.ctx.db, { action: 'listing.create', entityId: body.id })).toHaveLength(1)
  })

  test('the broker form’s messages', async () => {
    const res = await h.request('/api/listings', withJson(asha.browser, { contact_value: 'abc', property_type: 'x', budget: -1, size: -5, google_location_url: 'not a url' }))
    expect(res.status).toBe(422)
    const msgs = Object.fromEntries((await res.json()).detail.map((d: { loc: string[]; msg: string }) => [d.loc[1], d.msg]))
    expect(msgs).toEqual({
      post_type: 'Please select a post type',
      sale_or_rent: 'Please select sale or rent',
      contact_value: 'Contact value must be at least 5 characters',
      property_type: 'Property type is required',
      budget: 'Budget must be positive',
      size: 'Size must be positive',
      google_location_url: 'Please enter a valid URL',
    })
  })

  test('admins: a module admin posts in their own city; a master admin must name a city, and details', async () => {
    const mod = await post(mumbaiAdmin, { city_id: pune, details: 'From the admin' })
    expect(mod.status).toBe(201)
    expect(mod.body).toMatchObject({ city_id: mumbai, contact_name: 'Mira Admin' })
    const noCity = await post(master, { details: 'x' })
    expect(noCity.status).toBe(422)
    expect(noCity.body.detail[0]).toMatchObject({ loc: ['body', 'city_id'], msg: 'City is required' })
    const noDetails = await post(master, { city_id: pune })
    expect(noDetails.body.detail[0]).toMatchObject({ loc: ['body', 'details'], msg: 'Details are required' })
    const ok = await post(master, { city_id: pune, details: 'Listed by HQ', contact_name: 'HQ Desk' })
    expect(ok.body).toMatchObject({ city_id: pune, contact_name: 'HQ Desk' })
  })
})

describe('filters', () => {
  const entries = (body: { listings: { entry_id: string; locality: string | null }[] }) => body.listings.map((l) => l.locality)

  test.each([
    ['post_type=AVL', (l: Record<string, unknown>) => l.post_type === 'AVL'],
    ['sale_or_rent=RENT', (l: Record<string, unknown>) => l.sale_or_rent === 'RENT'],
    ['location=East', (l: Record<string, unknown>) => l.location === 'East'],
    ['property_type=VILLA', (l: Record<string, unknown>) => String(l.property_type).toLowerCase() === 'villa'],
    ['min_budget=1000000&max_budget=3000000', (l: Record<string, unknown>) => (l.budget as number) >= 1e6 && (l.budget as number) <= 3e6],
    ['status=ACTIVE', (l: Record<string, unknown>) => l.status === 'ACTIVE'],
  ])('%s keeps only matching rows', async (query, keep) => {
    const all = (await list(master, 'per_page=100')).listings
    const body = await list(master, query)
    expect(body.listings.length).toBeGreaterThan(0)
    expect(body.listings.every(keep)).toBe(true)
    expect(body.total).toBe(all.filter(keep).length)
  })

  test('a budget range in a zone: the same pages whichever of the zone’s indexes the walk-or-sort choice takes', async () => {
    for (let i = 0; i < 14; i++) await post(i % 2 ? asha : ravi, { location: 'North', budget: 1_000_000 + i * 100_000, status: undefined })
    const { body: hidden } = await post(ravi, { location: 'North', budget: 1_050_000 })
    await patch(ravi, hidden.id, { status: 'SUSPENDED' })
    for (const as of [asha, master, mumbaiAdmin])
      for (const [range, sizes] of [
        ['min_budget=1&max_budget=10000000', [10, 25]], // every zone listing matches: walking the zone wins
        ['min_budget=1000000&max_budget=1100000', [10]], // a narrow range: sorting its few matches wins
      ] as const)
        for (const perPage of sizes)
          for (const page of [1, 2]) {
            const query = `location=North&${range}&per_page=${perPage}&page=${page}`
            const body = await list(as, query)
            const viewer = { id: as.user.id, role: as.user.role, cityId: as.user.cityId }
            const { allOf, filterWhere, visibleTo } = await import('../../src/modules/listings/store/where')
            const filters = Object.fromEntries([...new URLSearchParams(range)].map(([k, v]) => [k, Number(v)]))
            const where = allOf(visibleTo(viewer), filterWhere({ location: 'North', ...filters }))
            // The plain answer: on SQLite read without an index (NOT INDEXED is SQLite's), so not by the plan under test.
            const plain = h.ctx.db.dialect === 'sqlite' ? 'NOT INDEXED' : ''
            const expected = (
              await h.ctx.db.all<{ id: number }>(`SELECT id FROM listings ${plain} WHERE ${where.sql} ORDER BY id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`, where.params)
            ).map((r) => r.id)
            expect({ query, ids: body.listings.map((l: { id: number }) => l.id) }).toEqual({ query, ids: expected })
          }
  })

  test('city, state and country narrow by place', async () => {
    expect(new Set((await list(master, `city_id=${pune}`)).listings.map((l: { city_id: number }) => l.city_id))).toEqual(new Set([pune]))
    const byState = await list(master, `state_id=${place.state.id}`)
    expect(byState.listings.every((l: { city_id: number }) => l.city_id === mumbai || l.city_id === pune)).toBe(true)
    const byCountry = await list(master, `country_id=${place.country.id}&per_page=100`)
    expect(byCountry.listings.some((l: { city_id: number }) => l.city_id === otherCountryCity)).toBe(false)
    expect(byCountry.total).toBe((await list(master, 'per_page=100')).total - 1)
  })

  test('dates: from and to, inclusive', async () => {
    const today = (await list(master)).listings[0].date
    expect((await list(master, `date_from=${today}&date_to=${today}`)).total).toBe((await list(master)).total)
    expect((await list(master, 'date_to=2000-01-01')).total).toBe(0)
  })

  test('search: word prefixes across locality, broker name, property type and details, any case', async () => {
    expect(entries(await list(asha, 'search=andh'))).toEqual(['Andheri West'])
    expect(entries(await list(asha, 'search=KOREGAON'))).toEqual(['Koregaon Park'])
    expect((await list(asha, 'search=ravi')).listings.every((l: { owner_name: string }) => l.owner_name === 'Ravi Kumar')).toBe(true)
    expect(entries(await list(asha, 'search=garden villa'))).toEqual(['Koregaon Park'])
    expect((await list(asha, 'search=zzzz')).total).toBe(0)
    // Quotes and operators are text, never FTS syntax.
    expect((await h.request('/api/listings/?search=%22OR%20*%20NEAR(', { headers: asha.bearer })).status).toBe(200)
  })

  test('an entry ID typed in part finds it', async () => {
    const [first] = (await list(asha, 'search=andheri')).listings
    const id: string = first.entry_id
    expect((await list(asha, `search=${id}`)).listings.map((l: { entry_id: string }) => l.entry_id)).toEqual([id])
    expect((await list(asha, `search=${id.slice(4, -2)}`)).listings.map((l: { entry_id: string }) => l.entry_id)).toContain(id)
    expect((await list(asha, `search=${id.toLowerCase()}`)).total).toBe(1)
  })

  test('pages: newest first, stable, with totals', async () => {
    const all = (await list(master, 'per_page=100')).listings.map((l: { id: number }) => l.id)
    expect(all).toEqual([...all].sort((a, b) => b - a))
    const p1 = await list(master, 'per_page=10&page=1')
    expect(p1).toMatchObject({ page: 1, per_page: 10, total: all.length, total_pages: Math.ceil(all.length / 10) })
    expect((await h.request('/api/listings/?per_page=7', { headers: master.bearer })).status).toBe(422)
  })

  test('pages are cached until the data changes: a write here, or by another connection to the file, shows at once', async () => {
    const { Database } = await import('bun:sqlite')
    const { body } = await post(asha, { details: 'cache probe' })
    const first = await list(master, 'search=probe')
    expect(first.listings.map((l: { details: string }) => l.details)).toEqual(['cache probe'])
    expect(await list(master, 'search=probe')).toEqual(first) // served again
    // The page cache lives in the answering process: visible only when that is this one.
    if (h.inProcess) expect(h.ctx.pages.size).toBeGreaterThan(0)
    const mine = async () => (await (await h.request('/api/listings/my', { headers: asha.bearer })).json()).find((l: { id: number }) => l.id === body.id)
    expect((await mine()).details).toBe('cache probe')
    await patch(asha, body.id, { details: 'cache probe edited' })
    expect((await list(master, 'search=probe')).listings[0].details).toBe('cache probe edited')
    expect((await mine()).details).toBe('cache probe edited')
    // Another process: a second connection to the same SQLite file (as `bun run geo:import` or a backup tool would
    // be), seen at the next read; on PostgreSQL another instance's pool, seen once its notification arrives (waited for:
    // milliseconds usually, seconds on a busy machine).
    if (h.config.databaseUrl) {
      const other = postgresDb(h.config.databaseUrl, { max: 1 })
      await other.run('update listings set details = ? where id = ?', ['cache probe from elsewhere', body.id])
      await other.close()
      await eventually('the change of another pool seen', async () => (await list(master, 'search=probe')).listings[0].details === 'cache probe from elsewhere', 20_000, 10)
    } else {
      const other = new Database(h.config.databasePath)
      try {
        other.query('UPDATE listings SET details = ? WHERE id = ?').run('cache probe from elsewhere', body.id)
      } finally {
        other.close()
      }
    }
    expect((await list(master, 'search=probe')).listings[0].details).toBe('cache probe from elsewhere')
    // Each viewer has their own page: a broker's editable rows are theirs alone.
    const asAsha = (await list(asha, 'search=probe')).listings[0]
    const asRavi = (await list(ravi, 'search=probe')).listings[0]
    expect([asAsha.is_editable, asRavi.is_editable]).toEqual([true, false])
  })

  test('answers match the documented schemas (the read routes skip per-request response validation)', async () => {
    const { Value } = await import('@sinclair/typebox/value')
    const { Listing, ListingPage } = await import('../../src/modules/listings/model')
    await post(asha, { budget: 2500000, size: 900, location: 'West', locality: 'Bandra', details: 'sea view' })
    for (const as of [asha, mumbaiAdmin, master]) {
      const page = await list(as, 'per_page=10')
      expect(page.listings.length).toBeGreaterThan(0)
      expect([...Value.Errors(ListingPage, page)].map((e) => `${e.path} ${e.message}`)).toEqual([])
      const one = await (await h.request(`/api/listings/${page.listings[0].id}`, { headers: as.bearer })).json()
      expect(Value.Check(Listing, one)).toBe(true)
    }
    const mine = await (await h.request('/api/listings/my', { headers: asha.bearer })).json()
    expect(mine.length).toBeGreaterThan(0)
    for (const l of mine) expect(Value.Check(Listing, l)).toBe(true)
  })

  test('the ftsQuery builder', () => {
    // The words match the text columns only, never the tags beside them (a search for "c12" is not city 12).
    const text = (q: string) => `{entry_id owner_name locality property_type details} : (${q})`
    expect(ftsQuery('REQ-MUM-0001')).toBe(text('"req" + "mum" + "0001"*'))
    expect(ftsQuery('2bhk  Andheri')).toBe(text('"2bhk"* AND "andheri"*'))
    expect(ftsQuery(' "* ')).toBeNull()
  })
})

describe('scope and status', () => {
  test('a suspended listing is hidden from other brokers (list, detail, stats) and still shown to its owner', async () => {
    const { body: mine } = await post(ravi, { locality: 'Hidden Lane' })
    const before = await (await h.request('/api/analytics/dashboard', { headers: asha.bearer })).json()
    expect((await patch(ravi, mine.id, { status: 'SUSPENDED' })).status).toBe(200)
    expect((await list(asha, 'search=hidden')).total).toBe(0)
    expect((await h.request(`/api/listings/${mine.id}`, { headers: asha.bearer })).status).toBe(404)
    const after = await (await h.request('/api/analytics/dashboard', { headers: asha.bearer })).json()
    expect(after.total_requirements).toBe(before.total_requirements - 1)
    expect((await list(ravi, 'search=hidden')).total).toBe(1)
    expect((await (await h.request('/api/listings/my', { headers: ravi.bearer })).json()).map((l: { id: number }) => l.id)).toContain(mine.id)
    expect((await patch(ravi, mine.id, { status: 'ACTIVE' })).status).toBe(200)
    expect((await list(asha, 'search=hidden')).total).toBe(1)
  })

  test('status moves: SUSPENDED only from ACTIVE, out of SUSPENDED only to ACTIVE; the others move freely', async () => {
    const { body } = await post(asha, {})
    for (const [to, code] of [
      ['ON_HOLD', 200],
      ['SUSPENDED', 409],
      ['CLOSED', 200],
      ['ACTIVE', 200],
      ['SUSPENDED', 200],
      ['CLOSED', 409],
      ['ON_HOLD', 409],
      ['ACTIVE', 200],
    ] as const) {
      const res = await patch(asha, body.id, { status: to })
      expect({ to, status: res.status }).toEqual({ to, status: code })
      if (code === 409) expect((await res.json()).detail).toBeString()
    }
  })

  test('brokers change only their own; module admins their city’s (others are not found); master admins any', async () => {
    const { body: ashas } = await post(asha, {})
    const { body: ravis } = await post(ravi, {})
    expect((await patch(asha, ravis.id, { details: 'mine now' })).status).toBe(403)
    expect((await h.request(`/api/listings/${ravis.id}`, { method: 'DELETE', headers: asha.browser })).status).toBe(403)
    expect((await patch(mumbaiAdmin, ravis.id, { status: 'SUSPENDED' })).status).toBe(404)
    expect((await patch(mumbaiAdmin, ashas.id, { status: 'SUSPENDED', suspension_reason: 'Checking the contact' })).status).toBe(200)
    expect((await patch(master, ravis.id, { details: 'edited by master' })).status).toBe(200)
    const visible = await list(asha, 'per_page=100')
    expect(visible.listings.find((l: { id: number }) => l.id === ravis.id).is_editable).toBe(false)
    // A module admin reads only their city.
    const modList = await list(mumbaiAdmin, 'per_page=100')
    expect(modList.listings.every((l: { city_id: number }) => l.city_id === mumbai)).toBe(true)
    expect((await h.request(`/api/listings/${ravis.id}`, { headers: mumbaiAdmin.bearer })).status).toBe(404)
  })

  test('delete: gone from every answer, its last content kept in the audit trail', async () => {
    const { body } = await post(asha, { details: 'About to go' })
    const res = await h.request(`/api/listings/${body.id}`, { method: 'DELETE', headers: asha.browser })
    expect(res.status).toBe(204)
    expect((await h.request(`/api/listings/${body.id}`, { headers: asha.bearer })).status).toBe(404)
    expect((await list(asha, 'search=about')).total).toBe(0)
    expect(await h.ctx.db.get('select id from listings where id = ?', [body.id])).toBeUndefined()
    const [event] = await auditTrail(h.ctx.db, { action: 'listing.delete', entityId: body.id })
    expect((event!.before as { details: string }).details).toBe('About to go')
  })

  test('totals follow changes at once (the count cache never serves a stale total)', async () => {
    const before = (await list(asha)).total
    await post(asha, {})
    expect((await list(asha)).total).toBe(before + 1)
  })

  test('stats by scope', async () => {
    const stats = async (as: SignedIn) => (await h.request('/api/analytics/dashboard', { headers: as.bearer })).json()
    const g = await stats(master)
    const c = await stats(mumbaiAdmin)
    expect(g.scope).toBe('global')
    expect(c.scope).toBe('city')
    const cityCount = (await list(mumbaiAdmin, 'per_page=100')).listings
    expect(c.total_requirements + c.total_availabilities).toBe(cityCount.length)
    expect(c.new_posts_today).toBe(cityCount.length)
    expect(g.total_requirements + g.total_availabilities).toBe((await list(master)).total)
    expect(c.active_brokers).toBe(1)
  })
})

describe('export', () => {
  test('an .xlsx named listings-<date>.xlsx with the filtered rows, numbers and dates typed; same scope as the list', async () => {
    const { readSheet } = await import('read-excel-file/node')
    const res = await h.request('/api/listings/export/xlsx?post_type=REQ', { headers: asha.bearer })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('spreadsheetml')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="listings-\d{4}-\d{2}-\d{2}\.xlsx"$/)
    const rows = await readSheet(Buffer.from(await res.arrayBuffer()))
    const [header, ...data] = rows
    expect(header!.slice(0, 3)).toEqual(['Entry ID', 'Type', 'Date'])
    const listed = await list(asha, 'post_type=REQ&per_page=100')
    expect(data.map((r) => r[0])).toEqual(listed.listings.map((l: { entry_id: string }) => l.entry_id))
    expect(data.every((r) => r[1] === 'Requirement')).toBe(true)
    expect(data[0]![2]).toBeInstanceOf(Date)
    const budgetCol = header!.indexOf('Budget')
    const withBudget = data.find((r) => r[budgetCol] !== null)!
    expect(typeof withBudget[budgetCol]).toBe('number')
  })

  test('other brokers’ suspended listings are not exported', async () => {
    const { body } = await post(ravi, { locality: 'Secret Street' })
    await patch(ravi, body.id, { status: 'SUSPENDED' })
    const { readSheet } = await import('read-excel-file/node')
    const sheet = async (as: SignedIn) => readSheet(Buffer.from(await (await h.request('/api/listings/export/xlsx?search=secret', { headers: as.bearer })).arrayBuffer()))
    expect((await sheet(asha)).length).toBe(1) // the header only
    expect((await sheet(ravi)).length).toBe(2)
  })
})

describe('totals from the counts table', () => {
  test('agree with counting the rows, for every role and combination of the common filters, after every kind of change', async () => {
    const { allOf, filterWhere, searchWhere, visibleTo } = await import('../../src/modules/listings/store/where')
    const today = calendarDate(Date.now(), h.config.timeZone)
    // Changes of every kind first: status moves, a zone change, a move of city, a deletion.
    const { body: a } = await post(ravi, { location: 'South' })
    await patch(ravi, a.id, { status: 'SUSPENDED' })
    const { body: b } = await post(asha, {})
    await patch(asha, b.id, { location: 'Central', post_type: 'AVL', sale_or_rent: 'RENT' })
    await patch(master, b.id, { city_id: pune })
    const { body: c } = await post(asha, {})
    await h.request(`/api/listings/${c.id}`, { method: 'DELETE', headers: asha.browser })
    // Suspended and searched: edited while suspended, reactivated, deleted while suspended.
    const { body: d } = await post(asha, { details: 'lakeside villa' })
    await patch(asha, d.id, { status: 'SUSPENDED' })
    await patch(asha, d.id, { details: 'lakeside villa renovated' })
    const { body: e } = await post(ravi, { details: 'lakeside plot' })
    await patch(ravi, e.id, { status: 'SUSPENDED' })
    await patch(ravi, e.id, { status: 'ACTIVE' })
    const { body: g } = await post(ravi, { details: 'lakeside shop' })
    await patch(ravi, g.id, { status: 'SUSPENDED' })
    const { body: k } = await post(ravi, { details: 'lakeside office' })
    await patch(ravi, k.id, { status: 'SUSPENDED' })
    await h.request(`/api/listings/${k.id}`, { method: 'DELETE', headers: ravi.browser })
    // Kept to its owner (issue 35): a zone-and-budget total of another broker leaves it out (counted status by status).
    await post(ravi, { location: 'South', budget: 2_000_000, visibility: 'ONLY_ME' })
    // Suspended in a zone, with a budget: in its owner's zone-and-budget totals only.
    const { body: m } = await post(ravi, { location: 'South', budget: 3_000_000 })
    await patch(ravi, m.id, { status: 'SUSPENDED' })

    const combos = [
      '',
      'post_type=REQ',
      'status=SUSPENDED',
      'status=ACTIVE&sale_or_rent=SALE',
      `city_id=${pune}`,
      `city_id=${mumbai}&post_type=AVL`,
      `state_id=${place.state.id}&location=Central`,
      `country_id=${place.country.id}&status=SUSPENDED`,
      'location=South',
      `state_id=${otherPlace.state.id}`,
      `country_id=${otherPlace.country.id}&post_type=REQ`,
      'search=lakeside',
      'search=renovated',
      'search=2bhk',
      'search=lakeside&status=SUSPENDED',
      // A search within filters: narrowed by a tag inside the search index (city, zone, status, type, deal).
      `search=lakeside&city_id=${mumbai}`,
      // Words in sequence within a city, and in the other order (PostgreSQL's index of a city's words keeps no
      // positions: the sequence is judged on the rows), and both words in any order.
      `search=lakeside-villa&city_id=${mumbai}`,
      `search=villa-lakeside&city_id=${mumbai}`,
      `search=villa lakeside&city_id=${mumbai}`,
      `search=lakeside&city_id=${mumbai}&state_id=${otherPlace.state.id}`,
      `search=lakeside&city_id=${pune}&post_type=AVL`,
      `search=lakeside&state_id=${place.state.id}&status=SUSPENDED`,
      `search=2bhk&country_id=${otherPlace.country.id}`,
      'search=lakeside&location=South',
      'search=villa&status=ON_HOLD',
      'search=lakeside&status=ACTIVE&post_type=REQ',
      'search=2bhk&post_type=AVL&sale_or_rent=RENT',
      'search=lakeside&sale_or_rent=SALE',
      `search=lakeside&date_from=${today}&city_id=${mumbai}`,
      'search=2bhk&min_budget=1000000&location=Central',
      // Date ranges (read from the kept counts by day): every listing here is from today, in the app's calendar.
      `date_from=${today}`,
      `date_to=${today}&status=SUSPENDED`,
      `date_from=${today}&date_to=${today}&city_id=${mumbai}&post_type=AVL`,
      `date_from=2000-01-01&date_to=2000-12-31`,
      `date_to=2000-12-31&state_id=${place.state.id}`,
      // Property types (kept counts, compared without case) and budget ranges (zone by zone).
      'property_type=2bhk',
      `property_type=VILLA&city_id=${pune}`,
      `property_type=2BHK&city_id=${mumbai}&status=SUSPENDED`,
      `property_type=2bhk&date_from=${today}`,
      'min_budget=1000000',
      'max_budget=5000000&post_type=REQ',
      `min_budget=1&max_budget=99999999&date_from=${today}`,
      // A zone within a budget range: through the (zone, status, budget) index, a broker's total taken apart.
      'location=South&min_budget=1&max_budget=99999999',
      'location=South&max_budget=5000000&status=SUSPENDED',
      'location=South&min_budget=1000000&status=ACTIVE',
      'location=Central&min_budget=0&max_budget=99999999',
    ]
    for (const who of [asha, ravi, mumbaiAdmin, master]) {
      const viewer = { id: who.user.id, role: who.user.role, cityId: who.user.cityId }
      for (const q of combos) {
        const filters = Object.fromEntries(new URLSearchParams(q)) as Record<string, string>
        const typed = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, k.endsWith('_id') ? Number(v) : v]))
        const where = allOf(visibleTo(viewer), filterWhere(typed), searchWhere(typed, h.ctx.db.dialect))
        const rows = (await h.ctx.db.get<{ n: number }>(`SELECT count(*) AS n FROM listings WHERE ${where.sql}`, where.params))!.n
        const api = await list(who, `${q}&per_page=100`)
        expect({ who: who.user.fullName, q, total: api.total }).toEqual({ who: who.user.fullName, q, total: rows })
        if (q.includes('search=')) {
          const ids = await h.ctx.db.all<{ id: number }>(`SELECT id FROM listings WHERE ${where.sql} ORDER BY id DESC LIMIT 100`, where.params)
          expect({ q, ids: api.listings.map((l: { id: number }) => l.id) }).toEqual({ q, ids: ids.map((r) => r.id) })
        }
      }
    }
    // SQLite only: its full-text index keeps suspended listings in a table of their own (PostgreSQL searches a column).
    if (h.ctx.db.dialect === 'sqlite')
      expect(await h.ctx.db.all('SELECT rowid AS id FROM listings_fts_suspended ORDER BY rowid')).toEqual(
        await h.ctx.db.all("SELECT id FROM listings WHERE status = 'SUSPENDED' ORDER BY id"),
      )
    // The analytics counts kept by the same changes agree with grouping the rows. A kept row's n is summed over its
    // key: PostgreSQL splits the network's rows (city 0) in shards, SQLite keeps one row per key.
    const q = (text: string) => h.ctx.db.all(text)
    expect(await q('SELECT date, city_id, post_type, sum(n) AS n FROM listing_daily_counts WHERE city_id <> 0 GROUP BY 1, 2, 3 HAVING sum(n) > 0 ORDER BY 1, 2, 3')).toEqual(
      await q('SELECT date, city_id, post_type, count(*) AS n FROM listings GROUP BY 1, 2, 3 ORDER BY 1, 2, 3'),
    )
    expect(await q('SELECT date, post_type, sum(n) AS n FROM listing_daily_counts WHERE city_id = 0 GROUP BY 1, 2 HAVING sum(n) > 0 ORDER BY 1, 2')).toEqual(
      await q('SELECT date, post_type, count(*) AS n FROM listings GROUP BY 1, 2 ORDER BY 1, 2'),
    )
    expect(await q('SELECT owner_user_id, city_id, sum(n) AS n FROM owner_listing_counts GROUP BY 1, 2 HAVING sum(n) > 0 ORDER BY 1, 2')).toEqual(
      await q('SELECT owner_user_id, city_id, count(*) AS n FROM listings GROUP BY 1, 2 ORDER BY 1, 2'),
    )
    expect(
      await q('SELECT city_id, date, post_type, sale_or_rent, status, location, sum(n) AS n FROM listing_day_counts WHERE city_id <> 0 GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) > 0 ORDER BY 1, 2, 3, 4, 5, 6'),
    ).toEqual(
      await q("SELECT city_id, date, post_type, sale_or_rent, status, coalesce(location, '') AS location, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6"),
    )
    expect(await q('SELECT date, post_type, sale_or_rent, status, location, sum(n) AS n FROM listing_day_counts WHERE city_id = 0 GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) > 0 ORDER BY 1, 2, 3, 4, 5')).toEqual(
      await q("SELECT date, post_type, sale_or_rent, status, coalesce(location, '') AS location, count(*) AS n FROM listings GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5"),
    )
  })
})

describe('zone counts (the admin grid\'s chips)', () => {
  test('every zone and the total agree with grouping the visible rows, for every role, common and other filters; a zone filter is set aside', async () => {
    const { Value } = await import('@sinclair/typebox/value')
    const { ZoneCounts } = await import('../../src/modules/listings/model')
    const { allOf, filterWhere, searchWhere, visibleTo } = await import('../../src/modules/listings/store/where')
    const { LOCATION_ZONES } = await import('../../src/shared/constants')
    await post(asha, { location: 'Outskirts', details: 'farmhouse near the ghats', budget: 4_000_000 })
    await post(ravi, { location: 'Outskirts', post_type: 'AVL' })
    const today = calendarDate(Date.now(), h.config.timeZone)
    const combos = ['', 'post_type=AVL', 'status=SUSPENDED', `city_id=${pune}`, `country_id=${otherPlace.country.id}`, 'search=farmhouse', 'min_budget=1000000', 'location=North', 'location=Outskirts&post_type=REQ', `date_from=${today}&post_type=AVL`, 'date_to=2000-01-01']
    for (const who of [asha, ravi, mumbaiAdmin, master]) {
      const viewer = { id: who.user.id, role: who.user.role, cityId: who.user.cityId }
      for (const q of combos) {
        const res = await h.request(`/api/listings/zones?${q}`, { headers: who.bearer })
        expect(res.status).toBe(200)
        const body = await res.json()
        expect(Value.Check(ZoneCounts, body)).toBe(true)
        const { location: _zone, ...filters } = Object.fromEntries(new URLSearchParams(q)) as Record<string, string>
        const typed = Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, k.endsWith('_id') || k.endsWith('budget') ? Number(v) : v]))
        const where = allOf(visibleTo(viewer), filterWhere(typed), searchWhere(typed, h.ctx.db.dialect))
        const grouped = await h.ctx.db.all<{ location: string | null; n: number }>(`SELECT location, count(*) AS n FROM listings WHERE ${where.sql} GROUP BY location`, where.params)
        const expected = {
          total: grouped.reduce((n, r) => n + r.n, 0),
          zones: Object.fromEntries(LOCATION_ZONES.map((z) => [z, grouped.find((r) => r.location === z)?.n ?? 0])),
        }
        expect({ who: who.user.fullName, q, body }).toEqual({ who: who.user.fullName, q, body: expected })
        // All Zones is the list's own total for the same filters without a zone.
        expect(body.total).toBe((await list(who, new URLSearchParams(filters).toString())).total)
      }
    }
    expect((await h.request('/api/listings/zones')).status).toBe(401)
  })
})

describe('date ranges over months', () => {
  // PostgreSQL sums a range's whole months from listing_month_counts and its edge days from listing_day_counts, each
  // edge either as its days or as its month less the days outside (read.ts, datedSum); SQLite sums the days. Every
  // way of cutting a range at a month's edges must give the rows' own count, for every role.
  test('totals and zone chips of ranges cut anywhere in a month agree with counting the rows, for every role', async () => {
    const { allOf, filterWhere, visibleTo } = await import('../../src/modules/listings/store/where')
    const { LOCATION_ZONES } = await import('../../src/shared/constants')
    const DATES = ['2025-12-31', '2026-01-01', '2026-01-14', '2026-01-15', '2026-01-16', '2026-01-17', '2026-01-31', '2026-02-01', '2026-02-15', '2026-02-28', '2026-03-01', '2026-03-20', '2026-04-30', '9999-12-20']
    const STATUSES = ['ACTIVE', 'ON_HOLD', 'SUSPENDED', 'CLOSED', 'ACTIVE']
    const ZONES = ['North', 'South', null, 'Central']
    const made: number[] = []
    for (let i = 0; i < DATES.length * 2; i++) {
      const who = [asha, ravi, master][i % 3]!
      const { status, body } = await post(who, { details: `month edges ${i}`, location: ZONES[i % ZONES.length], ...(who === master ? { city_id: i % 2 ? mumbai : pune } : {}) })
      expect(status).toBe(201)
      made.push(body.id)
    }
    // Dates and statuses set in the rows themselves (the kept counts follow through their triggers), before any of
    // these ranges is asked for.
    for (const [i, id] of made.entries()) await h.ctx.db.run('UPDATE listings SET date = ?, status = ? WHERE id = ?', [DATES[i % DATES.length]!, STATUSES[i % STATUSES.length]!, id])
    const bounds = ['2025-12-01', '2025-12-31', '2026-01-01', '2026-01-14', '2026-01-16', '2026-01-17', '2026-01-31', '2026-02-15', '2026-02-16', '2026-03-31']
    const ranges: string[] = []
    for (const from of bounds) {
      ranges.push(`date_from=${from}`, `date_to=${from}`)
      for (const to of bounds) if (to >= from) ranges.push(`date_from=${from}&date_to=${to}`)
    }
    ranges.push('date_from=2026-01-20&date_to=2026-01-10', 'date_from=2026-13-01&date_to=2026-02-20', 'date_from=2026-01-10&date_to=2026-02-99', 'date_from=2026-02-01&date_to=9999-12-31', 'date_from=0000-01-01', 'date_from=9999-12-05')
    for (const who of [asha, mumbaiAdmin, master]) {
      const viewer = { id: who.user.id, role: who.user.role, cityId: who.user.cityId }
      for (const range of ranges)
        for (const extra of ['', '&location=North', `&city_id=${mumbai}&status=ACTIVE`]) {
          const q = range + extra
          const typed = Object.fromEntries([...new URLSearchParams(q)].map(([k, v]) => [k, k.endsWith('_id') ? Number(v) : v]))
          const where = allOf(visibleTo(viewer), filterWhere(typed))
          const rows = (await h.ctx.db.get<{ n: number }>(`SELECT count(*) AS n FROM listings WHERE ${where.sql}`, where.params))!.n
          expect({ who: who.user.fullName, q, total: (await list(who, q)).total }).toEqual({ who: who.user.fullName, q, total: Number(rows) })
        }
      for (const range of ['date_from=2025-12-31&date_to=2026-02-16', 'date_from=2026-01-17&date_to=2026-03-31', 'date_to=2026-01-16']) {
        const typed = Object.fromEntries(new URLSearchParams(range))
        const where = allOf(visibleTo(viewer), filterWhere(typed))
        const grouped = await h.ctx.db.all<{ location: string | null; n: number }>(`SELECT location, count(*) AS n FROM listings WHERE ${where.sql} GROUP BY location`, where.params)
        const body = await (await h.request(`/api/listings/zones?${range}`, { headers: who.bearer })).json()
        expect({ who: who.user.fullName, range, body }).toEqual({
          who: who.user.fullName,
          range,
          body: { total: grouped.reduce((n, r) => n + Number(r.n), 0), zones: Object.fromEntries(LOCATION_ZONES.map((z) => [z, Number(grouped.find((r) => r.location === z)?.n ?? 0)])) },
        })
      }
    }
  }, 120_000)
})

describe('a zone within a budget range', () => {
  // PostgreSQL sums the buckets wholly inside the range from listing_budget_counts (thresholds 1,000 × 10^(k/20):
  // 1,000, 1,122, 1,259, 1,413 …) and counts the two edges in the index (read.ts, bucketedZoneBudget); SQLite counts
  // the index. Ranges that start and end on, just off and between thresholds must give the rows' own count.
  test('totals agree with counting the rows for ranges cut on, beside and between bucket thresholds, for every role', async () => {
    const { allOf, filterWhere, visibleTo } = await import('../../src/modules/listings/store/where')
    const BUDGETS = [999, 1000, 1000.5, 1121, 1122, 1200, 1259, 1300, 1413, 5000, 1_000_000, 2_000_000_000_000]
    const STATUSES = ['ACTIVE', 'ON_HOLD', 'SUSPENDED', 'CLOSED', 'EXPIRED']
    for (const [i, budget] of BUDGETS.entries())
      for (const who of [asha, ravi]) {
        const { status, body } = await post(who, { details: `bucket edges ${i}`, location: i % 3 ? 'South' : 'Central', budget })
        expect(status).toBe(201)
        if ((i + (who === ravi ? 1 : 0)) % 2) await h.ctx.db.run('UPDATE listings SET status = ? WHERE id = ?', [STATUSES[i % STATUSES.length]!, body.id])
      }
    const edges = ['0', '999', '1000', '1000.5', '1001', '1121', '1122', '1123', '1259', '1413', '5000', '2000000', '1000000000000', '3000000000000']
    const ranges: string[] = []
    for (const min of edges) {
      ranges.push(`min_budget=${min}`, `max_budget=${min}`)
      for (const max of edges) if (Number(max) >= Number(min)) ranges.push(`min_budget=${min}&max_budget=${max}`)
    }
    for (const who of [asha, master])
      for (const range of ranges)
        for (const extra of ['&location=South', '&location=Central&status=ACTIVE', '&location=South&status=SUSPENDED']) {
          const viewer = { id: who.user.id, role: who.user.role, cityId: who.user.cityId }
          const q = range + extra
          const typed = Object.fromEntries([...new URLSearchParams(q)].map(([k, v]) => [k, k.endsWith('budget') ? Number(v) : v]))
          const where = allOf(visibleTo(viewer), filterWhere(typed))
          const rows = (await h.ctx.db.get<{ n: number }>(`SELECT count(*) AS n FROM listings WHERE ${where.sql}`, where.params))!.n
          expect({ who: who.user.fullName, q, total: (await list(who, q)).total }).toEqual({ who: who.user.fullName, q, total: Number(rows) })
        }
  }, 120_000)
})

describe('search totals', () => {
  test('a master admin’s search with no other filter is counted by the search index alone, and agrees', async () => {
    const viaIndex = await list(master, 'search=andheri')
    const narrowed = await list(master, 'search=andheri&per_page=100&status=ACTIVE')
    expect(viaIndex.total).toBeGreaterThan(0)
    expect(viaIndex.total).toBe(viaIndex.listings.length)
    expect(narrowed.total).toBeLessThanOrEqual(viaIndex.total)
  })
})
