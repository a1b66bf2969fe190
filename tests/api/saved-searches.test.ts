// Saved searches (issue 17): a user's named listing filters with their new counts, limits, scope and alerts. Run in
// process, against the binary and on PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { DAILY_MS, runSavedSearchDigest } from '../../src/modules/saved-searches/digest'
import { NEW_COUNT_CAP, SAVED_SEARCH_LIMIT } from '../../src/modules/saved-searches/model'
import { createTestAppWithSmtp } from '../support/app'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { eventStreamReader } from '../support/events'
import { auditTrail, seedPlace } from '../support/fixtures'
import { decodeQp } from '../support/smtp'

const PUBLIC_URL = 'https://brokernet.test'
const { h, smtp, close } = await createTestAppWithSmtp({ PUBLIC_URL })
afterAll(close)

let asha: SignedIn // saves the searches
let ravi: SignedIn // another broker of the city: posts listings, and must not reach Asha's searches
let kiran: SignedIn // a broker with a search at the limit
let mumbai: number
let pune: number

type Saved = { id: number; name: string; filters: Record<string, unknown>; alert: string; new_count: number; seen_at: string }
const call = (as: SignedIn, path: string, method = 'GET', body?: unknown) =>
  h.request(`/api/saved-searches${path}`, body === undefined ? { method, headers: as.browser } : withJson(as.browser, body, method))
const save = async (as: SignedIn, body: Record<string, unknown>, status = 201) => {
  const res = await call(as, '', 'POST', body)
  if (res.status !== status) throw new Error(`POST ${res.status}: ${await res.text()}`)
  return (await res.json()) as Saved & { detail?: unknown }
}
const mine = async (as: SignedIn) => ((await (await call(as, '')).json()) as { saved_searches: Saved[]; limit: number }).saved_searches
const countOf = async (as: SignedIn, id: number) => (await mine(as)).find((s) => s.id === id)!.new_count
const post = async (as: SignedIn, body: Record<string, unknown>) => {
  const res = await h.request('/api/listings', withJson(as.browser, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Saved Flat', ...body }))
  if (res.status !== 201) throw new Error(`listing ${res.status}: ${await res.text()}`)
  return (await res.json()) as { id: number; entry_id: string }
}
const patchListing = (as: SignedIn, id: number, body: Record<string, unknown>) => h.request(`/api/listings/${id}`, withJson(as.browser, body, 'PATCH'))

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Mumbai', 'Pune'])
  mumbai = place.cities[0]!.id
  pune = place.cities[1]!.id
  asha = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Asha Saver' })
  ravi = await signIn(h.ctx.db, 'BROKER', { cityId: mumbai, fullName: 'Ravi Poster' })
  kiran = await signIn(h.ctx.db, 'BROKER', { cityId: pune, fullName: 'Kiran Limit' })
})

describe('saved searches: create, read, change, delete', () => {
  test('a search is saved with its filters, trimmed name and alert, and listed with a new count of 0', async () => {
    const saved = await save(asha, { name: '  Rentals in Mumbai  ', filters: { city_id: mumbai, sale_or_rent: 'RENT', search: '' }, alert: 'DAILY' })
    expect(saved).toMatchObject({ name: 'Rentals in Mumbai', filters: { city_id: mumbai, sale_or_rent: 'RENT' }, alert: 'DAILY', new_count: 0 })
    expect(Date.parse(saved.seen_at)).toBeGreaterThan(Date.now() - 60_000)
    const list = await (await call(asha, '')).json()
    expect(list.limit).toBe(SAVED_SEARCH_LIMIT)
    expect(list.saved_searches.map((s: Saved) => s.name)).toContain('Rentals in Mumbai')
    // The alert defaults to OFF.
    expect((await save(asha, { name: 'Everything', filters: {} })).alert).toBe('OFF')
    const [audited] = await auditTrail(h.ctx.db, { action: 'saved_search.create', entityId: saved.id })
    expect(audited).toBeDefined()
  })

  test('PATCH renames, changes filters and alert; DELETE removes it; both only for the owner (others get 404)', async () => {
    const saved = await save(asha, { name: 'To change', filters: { post_type: 'REQ' } })
    const renamed = (await (await call(asha, `/${saved.id}`, 'PATCH', { name: 'Changed', alert: 'INSTANT' })).json()) as Saved
    expect(renamed).toMatchObject({ name: 'Changed', alert: 'INSTANT', filters: { post_type: 'REQ' } })
    const refiltered = (await (await call(asha, `/${saved.id}`, 'PATCH', { filters: { post_type: 'AVL', location: 'West' } })).json()) as Saved
    expect(refiltered.filters).toEqual({ location: 'West', post_type: 'AVL' })
    // Another user reaches none of it: not listed, not changed, not deleted, not marked seen.
    expect((await mine(ravi)).map((s) => s.id)).not.toContain(saved.id)
    for (const [path, method, body] of [[`/${saved.id}`, 'PATCH', { name: 'Mine now' }], [`/${saved.id}`, 'DELETE'], [`/${saved.id}/seen`, 'POST']] as const) {
      const res = await call(ravi, path, method, body)
      expect(res.status).toBe(404)
      expect((await res.json()).detail).toBe('Saved search not found')
    }
    expect((await call(asha, `/${saved.id}`, 'DELETE')).status).toBe(204)
    expect((await mine(asha)).map((s) => s.id)).not.toContain(saved.id)
    expect((await call(asha, `/${saved.id}`, 'DELETE')).status).toBe(404)
  })

  test('names are unique per user in any case (409), and another user may use the same name', async () => {
    await save(asha, { name: 'Sea View', filters: {} })
    const res = await call(asha, '', 'POST', { name: 'sea view', filters: {} })
    expect(res.status).toBe(409)
    expect((await res.json()).detail).toBe('You already have a saved search named "sea view"')
    const other = await save(asha, { name: 'Hill View', filters: {} })
    expect((await call(asha, `/${other.id}`, 'PATCH', { name: 'SEA VIEW' })).status).toBe(409)
    expect((await call(asha, `/${other.id}`, 'PATCH', { name: 'hill view' })).status).toBe(200) // its own name, in another case
    expect((await save(ravi, { name: 'Sea View', filters: {} })).name).toBe('Sea View')
  })

  test(`at most ${SAVED_SEARCH_LIMIT} per user: the next is a 409 saying what to do`, async () => {
    for (let i = 0; i < SAVED_SEARCH_LIMIT; i++) await save(kiran, { name: `Search ${i}`, filters: { location: 'North' } })
    const res = await call(kiran, '', 'POST', { name: 'One too many', filters: {} })
    expect(res.status).toBe(409)
    expect((await res.json()).detail).toBe(`You can keep at most ${SAVED_SEARCH_LIMIT} saved searches: delete one to save another`)
    const first = (await mine(kiran))[0]!
    expect((await call(kiran, `/${first.id}`, 'DELETE')).status).toBe(204)
    await save(kiran, { name: 'One too many', filters: {} })
  })

  test('bad input is a 4xx with detail, never a 500: names, alerts, the list filters’ own rules', async () => {
    const bad: unknown[] = [
      { name: '', filters: {} },
      { name: '   ', filters: {} },
      { name: 'x'.repeat(61), filters: {} },
      { name: 'Line\nbreak', filters: {} },
      { name: 'No filters' },
      { name: 'Filters not an object', filters: 'city=1' },
      { name: 'Bad alert', filters: {}, alert: 'HOURLY' },
      { name: 'Bad status', filters: { status: 'SOLD' } },
      { name: 'Bad city', filters: { city_id: 0 } },
      { name: 'Huge city', filters: { city_id: 6e154 } },
      { name: 'Bad date', filters: { date_from: '24/11/2026' } },
      { name: 'Bad moment', filters: { changed_since: 'yesterday' } },
      { name: 'Negative budget', filters: { min_budget: -1 } },
      { name: 'Long search', filters: { search: 's'.repeat(201) } },
    ]
    for (const body of bad) {
      const res = await call(asha, '', 'POST', body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect((await res.json()).detail).toBeDefined()
    }
    const sixty = await save(asha, { name: 'y'.repeat(60), filters: {} })
    expect(sixty.name).toHaveLength(60)
    expect((await call(asha, '/abc', 'DELETE')).status).toBe(422)
    expect((await call(asha, `/${sixty.id}`, 'PATCH', { name: ' ' })).status).toBe(422)
    expect((await call(asha, `/${sixty.id}`, 'PATCH', { filters: { post_type: 'SELL' } })).status).toBe(422)
    expect((await h.request('/api/saved-searches')).status).toBe(401)
  })
})

describe('new counts', () => {
  test('count the listings the user sees, posted or with news since it was opened, and drop to 0 when opened', async () => {
    const old = await post(ravi, { budget: 50_000, details: 'Posted before the search' })
    const search = await save(asha, { name: 'Mumbai rentals', filters: { city_id: mumbai, sale_or_rent: 'RENT' } })
    expect(search.new_count).toBe(0)
    await Bun.sleep(5)
    await post(ravi, { details: 'New after the search' })
    await post(ravi, { details: 'Another' })
    await post(ravi, { sale_or_rent: 'SALE', details: 'For sale: not in the search' })
    expect(await countOf(asha, search.id)).toBe(2)
    // A price change is news; an edit of the details is not.
    expect((await patchListing(ravi, old.id, { budget: 45_000 })).status).toBe(200)
    expect(await countOf(asha, search.id)).toBe(3)
    // Suspended by an admin: other brokers no longer see it, so it leaves Asha's count (but not Ravi's view).
    const hidden = await post(ravi, { details: 'To be suspended' })
    expect(await countOf(asha, search.id)).toBe(4)
    const master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
    expect((await patchListing(master, hidden.id, { status: 'SUSPENDED', suspension_reason: 'Checking the contact' })).status).toBe(200)
    expect(await countOf(asha, search.id)).toBe(3)
    // Opened: 0 until news comes again.
    expect((await call(asha, `/${search.id}/seen`, 'POST')).status).toBe(204)
    expect(await countOf(asha, search.id)).toBe(0)
    await post(ravi, { details: 'After opening' })
    expect(await countOf(asha, search.id)).toBe(1)
    // Back on the market counts too.
    expect((await patchListing(ravi, old.id, { status: 'ON_HOLD' })).status).toBe(200)
    expect(await countOf(asha, search.id)).toBe(1)
    expect((await patchListing(ravi, old.id, { status: 'ACTIVE' })).status).toBe(200)
    expect(await countOf(asha, search.id)).toBe(2)
    // Kept through those writes without counting again: the same as a count from scratch.
    if (h.inProcess) {
      h.ctx.counts.clear()
      expect(await countOf(asha, search.id)).toBe(2)
    }
  })

  test('a search word and the rest of the list filters narrow the count as they narrow the list', async () => {
    const words = await save(asha, { name: 'Bandra words', filters: { search: 'bandra', post_type: 'AVL' } })
    await Bun.sleep(5)
    await post(ravi, { locality: 'Bandra West', details: 'Sea facing' })
    await post(ravi, { locality: 'Andheri', details: 'Near Bandra station' })
    await post(ravi, { post_type: 'REQ', locality: 'Bandra', details: 'Wanted' })
    await post(ravi, { locality: 'Juhu', details: 'Elsewhere' })
    expect(await countOf(asha, words.id)).toBe(2)
    const list = await (await h.request(`/api/listings/?search=bandra&post_type=AVL&changed_since=${encodeURIComponent(words.seen_at)}`, { headers: asha.bearer })).json()
    expect(list.total).toBe(2)
  })

  test(`the count stops at ${NEW_COUNT_CAP}`, async () => {
    const broad = await save(asha, { name: 'Capped', filters: { property_type: 'Cap Flat' } })
    await Bun.sleep(5)
    const now = Date.now()
    // Written straight into the table: 105 listings of another broker, posted after the search was saved.
    for (let i = 0; i < NEW_COUNT_CAP + 5; i++)
      await h.ctx.db.run(
        `insert into listings (entry_id, post_type, sale_or_rent, property_type, contact_value, contact_name, status, date, owner_user_id, city_id, created_at, updated_at, expires_at)
         values (?, 'AVL', 'RENT', 'Cap Flat', '9876543210', 'Ravi', 'ACTIVE', '2026-01-01', ?, ?, ?, ?, ?)`,
        [`AVL-CAP-${100000 + i}`, ravi.user.id, mumbai, now + i, now + i, now + 86_400_000],
      )
    expect(await countOf(asha, broad.id)).toBe(NEW_COUNT_CAP)
  })
})

describe('alerts', () => {
  const open: Array<{ abort: AbortController; cancel: () => Promise<unknown> }> = []
  async function connect(as: SignedIn) {
    const abort = new AbortController()
    const res = await h.request('/api/events', { headers: as.bearer, signal: abort.signal })
    expect(res.status).toBe(200)
    const stream = eventStreamReader(res)
    open.push({ abort, cancel: stream.cancel })
    await stream.expect('matches') // connected: the stream's first event
    return stream
  }
  afterEach(async () => {
    for (const s of open.splice(0)) {
      s.abort.abort()
      await s.cancel()
    }
  })

  test('INSTANT: a listing posted, repriced or back on the market that the search lets through is an event on the owner’s stream; not their own, not what they may not see', async () => {
    const penthouses = await save(asha, { name: 'Penthouses', filters: { search: 'penthouse', post_type: 'REQ' }, alert: 'INSTANT' })
    await save(asha, { name: 'Quiet penthouses', filters: { search: 'penthouse' } }) // OFF: never an event
    const mumbaiAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: mumbai })
    const cityWide = await save(mumbaiAdmin, { name: 'All of my city', filters: { property_type: 'Alert Penthouse' }, alert: 'INSTANT' })
    const stream = await connect(asha)
    const adminStream = await connect(mumbaiAdmin)

    const offer = await post(ravi, { post_type: 'AVL', property_type: 'Alert Penthouse', details: 'A penthouse on offer: not a requirement' })
    const hers = await post(asha, { post_type: 'REQ', property_type: 'Alert Penthouse', details: 'Her own penthouse requirement' })
    const wanted = await post(ravi, { post_type: 'REQ', property_type: 'Alert Penthouse', details: 'Wants a penthouse', budget: 9_000_000 })
    const event = await stream.expect('saved_search')
    expect(event).toEqual({ id: penthouses.id, name: 'Penthouses', listing: { id: wanted.id, entry_id: wanted.entry_id } })

    // A price change is news; another edit is not.
    expect((await patchListing(ravi, wanted.id, { details: 'Wants a penthouse, urgently' })).status).toBe(200)
    expect((await patchListing(ravi, wanted.id, { budget: 9_500_000 })).status).toBe(200)
    expect((await stream.expect('saved_search')).listing.id).toBe(wanted.id)
    expect(await stream.next('saved_search', 500)).toBeNull()

    // The module admin of Mumbai hears of Mumbai's listings, Kiran's in Pune are not theirs to see.
    await post(kiran, { post_type: 'REQ', property_type: 'Alert Penthouse', details: 'Pune penthouse' })
    const seen = []
    for (let i = 0; i < 4; i++) seen.push(await adminStream.expect('saved_search'))
    expect(seen.every((e) => e.id === cityWide.id)).toBe(true)
    // Which alerts, not in which order: against the binary (two processes) each alert is raised after its write by the
    // process that answered it, and reaches a stream the other process holds through the change feed, so alerts of
    // two listings raised by different processes may come in either order (a full run on PostgreSQL got the offer's
    // after the two others'). The ids were given in posting order.
    expect(seen.map((e) => e.listing.id).sort((a, b) => a - b)).toEqual([offer.id, hers.id, wanted.id, wanted.id])
    expect(await adminStream.next('saved_search', 500)).toBeNull()
  })

  test('DAILY: at most one mail a day per search, with the listings new in it since the last (not the user’s own), through the real SMTP server', async () => {
    // This search's mails (Asha's first search, of the first test, is a DAILY one too).
    const mailsTo = (who: SignedIn) =>
      smtp.received
        .filter((m) => m.to.includes(who.user.email))
        .map((m) => Buffer.from(decodeQp(m.raw), 'latin1').toString('utf8'))
        .filter((m) => m.includes('Subject: Daily duplexes'))
    const digest = async (now: number) => {
      const sent = await runSavedSearchDigest({ db: h.ctx.db, mail: h.ctx.mail, config: h.config }, now)
      await h.ctx.mail.idle()
      return sent
    }
    const daily = await save(asha, { name: 'Daily duplexes', filters: { property_type: 'Daily Duplex' }, alert: 'DAILY' })
    const first = await post(ravi, { property_type: 'Daily Duplex', budget: 120_000, locality: 'Powai' })
    const second = await post(ravi, { property_type: 'Daily Duplex', post_type: 'REQ' })
    const own = await post(asha, { property_type: 'Daily Duplex' })
    const other = await post(ravi, { property_type: 'Other Duplex' })
    // Not a day since it was saved: nothing yet.
    expect(await digest(Date.now())).toBe(0)
    // A day passes (the search saved a day earlier, in its rows).
    await h.ctx.db.run('update saved_searches set alerted_at = alerted_at - ?, created_at = created_at - ? where id = ?', [DAILY_MS, DAILY_MS, daily.id])
    const now = Date.now()
    expect(await digest(now)).toBe(1)
    const [mail, ...more] = mailsTo(asha)
    expect(more).toHaveLength(0)
    expect(mail).toContain('Subject: Daily duplexes: 2 new listings - Brokernet')
    for (const l of [first, second]) expect(mail).toContain(l.entry_id)
    for (const l of [own, other]) expect(mail).not.toContain(l.entry_id)
    expect(mail).toContain('Powai')
    expect(mail).toContain(`${PUBLIC_URL}/dashboard/listings?property_type=Daily+Duplex`)
    // Once a day: not again now, even with news.
    const third = await post(ravi, { property_type: 'Daily Duplex', status: 'ON_HOLD' })
    expect(await digest(now + 60_000)).toBe(0)
    // A day later, only what came since the last mail.
    expect(await digest(now + DAILY_MS + 1)).toBeGreaterThanOrEqual(1)
    const latest = mailsTo(asha).at(-1)!
    expect(latest).toContain('Subject: Daily duplexes: 1 new listing - Brokernet')
    expect(latest).toContain(third.entry_id)
    expect(latest).not.toContain(first.entry_id)
    expect(mailsTo(asha)).toHaveLength(2)
    const rows = await h.ctx.db.all<{ status: string }>("select status from mail_outbox where subject like '%Daily duplexes%'")
    expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT'])
  })
})
