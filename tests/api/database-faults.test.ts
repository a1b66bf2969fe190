// The database's refusals as the API answers them (issue 29, findings 4 and 5; docs/decisions/028-database-faults.md):
// a unique key refused is a 409 with a detail on both backends, whichever table, mapped once in the data layer
// (db/faults.ts) and answered by the one error handler; SQLite's file locked past its busy timeout is a 503 with
// Retry-After. Run in process and against the binary, on SQLite and on PostgreSQL. (PostgreSQL out of reach:
// tests/ops/pg-outage.test.ts.)
import { Database as SQLite } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { UniqueViolation } from '../../db/faults'
import { errorHandler } from '../../src/platform/http/errors'
import { CHANGED_MEANWHILE, updateListingAsRead } from '../../src/modules/listings/store'
import { signIn, withJson, type SignedIn } from '../support/auth'
import { createTestApp, ON_POSTGRES } from '../support/app'
import { seedPlace, type Place } from '../support/fixtures'

const h = await createTestApp()
afterAll(() => h.close())

let master: SignedIn
let broker: SignedIn
let place: Place

beforeAll(async () => {
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null })
  place = await seedPlace(h.ctx.db, ['Nagpur', 'Wardha'])
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
})

const rejection = async (work: Promise<unknown>) => work.then(() => null, (e: unknown) => e)

describe('the data layer: a unique key refused is a UniqueViolation naming its table and key', () => {
  test('a unique index of named columns, outside a transaction and inside one', async () => {
    const now = Date.now()
    const insert = 'insert into cities (name, state_id, created_at, updated_at) values (?, ?, ?, ?)'
    const alone = await rejection(h.ctx.db.run(insert, ['Nagpur', place.state.id, now, now]))
    expect(alone).toBeInstanceOf(UniqueViolation)
    expect(alone).toMatchObject({ table: 'cities', columns: ['state_id', 'name'] })
    const inside = await rejection(h.ctx.db.tx((tx) => tx.run(insert, ['Wardha', place.state.id, now, now])))
    expect(inside).toBeInstanceOf(UniqueViolation)
    expect(inside).toMatchObject({ table: 'cities', columns: ['state_id', 'name'] })
    // PostgreSQL names the index too; its code is still the one a conflict is known by (db/dialect.ts).
    if (ON_POSTGRES) expect(inside).toMatchObject({ constraint: 'cities_state_name_unique', driverCode: '23505' })
  })

  test('a primary key, and an index on an expression (named by the index)', async () => {
    const pk = await rejection(h.ctx.db.run('insert into app_secrets (name, value) values (?, ?), (?, ?)', ['same', 'a', 'same', 'b']))
    expect(pk).toBeInstanceOf(UniqueViolation)
    expect(pk).toMatchObject({ table: 'app_secrets', columns: ['name'] })
    const now = Date.now()
    const search = 'insert into saved_searches (user_id, name, filters, alert, seen_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)'
    await h.ctx.db.run(search, [broker.user.id, 'Godowns', '{}', 'OFF', now, now, now])
    const expression = await rejection(h.ctx.db.run(search, [broker.user.id, 'GODOWNS', '{}', 'OFF', now, now, now]))
    expect(expression).toBeInstanceOf(UniqueViolation)
    expect(expression).toMatchObject({ constraint: 'saved_searches_user_name_unique' })
  })

  test('the error handler answers one that no service explained: 409 with a detail naming the fields', async () => {
    const app = new Elysia().use(errorHandler).post('/api/raw-insert', async () => {
      const now = Date.now()
      await h.ctx.db.run('insert into countries (name, code, created_at, updated_at) values (?, ?, ?, ?)', [place.country.name, 'ZZ', now, now])
      return 'inserted'
    })
    const res = await app.handle(new Request('http://localhost/api/raw-insert', { method: 'POST' }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ detail: 'Already exists: another record has the same name' })
  })
})

describe('a write whose row changed since it was read is a StaleWrite (issue 36)', () => {
  test('the error handler answers one that no service explained: 409 with the store’s detail', async () => {
    const res0 = await h.request('/api/listings', withJson(broker.browser, { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '9876543210', property_type: 'Shop', budget: 100 }))
    const { id } = (await res0.json()) as { id: number }
    const app = new Elysia().use(errorHandler).post('/api/raw-update', () =>
      // Read as ON_HOLD, though it is ACTIVE: the update finds no such row.
      h.ctx.db.tx((tx) => updateListingAsRead(tx, id, { budget: 200 }, { status: 'ON_HOLD', suspendedBy: null })),
    )
    const res = await app.handle(new Request('http://localhost/api/raw-update', { method: 'POST' }))
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ detail: CHANGED_MEANWHILE })
  })
})

// Issue 36: a write's last statements go out with its COMMIT (db/sql.ts `defer`; on PostgreSQL in one pipelined round
// trip). A refusal of one of them must still leave nothing of the write behind.
describe('a statement refused at the end of a write (sent with its COMMIT) leaves nothing of it', () => {
  test('the data layer: a deferred statement refused fails its transaction, and what came before is not kept', async () => {
    const now = Date.now()
    const insert = 'insert into cities (name, state_id, created_at, updated_at) values (?, ?, ?, ?)'
    const refused = await rejection(
      h.ctx.db.tx(async (tx) => {
        await tx.run(insert, ['Deferred Kept Not', place.state.id, now, now])
        tx.defer(tx.run(insert, ['Wardha', place.state.id, now, now]))
      }),
    )
    expect(refused).toBeInstanceOf(UniqueViolation)
    expect(await h.ctx.db.get('select id from cities where name = ?', ['Deferred Kept Not'])).toBeUndefined()
    // Outside a transaction there is nothing to end with.
    expect(() => h.ctx.db.defer(Promise.resolve())).toThrow('only inside a transaction')
  })

  test("a listing's POST and PATCH whose audit row is refused: no listing, no change, nothing queued, no audit", async () => {
    const created = await h.request('/api/listings/', withJson(broker.bearer, { post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '9800011122', property_type: 'Shop', details: 'Audit kept' }))
    expect(created.status).toBe(201)
    const kept = (await created.json()) as { id: number; details: string }
    const counts = async () =>
      h.ctx.db.get<{ listings: number; queued: number; audits: number }>(
        "select (select count(*) from listings where details like 'Audit refused%') as listings, (select count(*) from match_queue) as queued, (select count(*) from audit_events where action in ('listing.create', 'listing.update')) as audits",
      )
    await h.ctx.db.run('delete from match_queue')
    const before = await counts()
    // The refusal, made by the database itself (a rule on the audit trail's rows) for the length of the test.
    const refuse = ON_POSTGRES
      ? "alter table audit_events add constraint refuse_listing_audits check (action not in ('listing.create', 'listing.update')) not valid"
      : "create trigger refuse_listing_audits before insert on audit_events when new.action in ('listing.create', 'listing.update') begin select raise(abort, 'refused'); end"
    await h.ctx.db.run(refuse)
    try {
      const post = await h.request('/api/listings/', withJson(broker.bearer, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9800011133', property_type: 'Shop', details: 'Audit refused post' }))
      expect(post.status).toBe(500)
      const patch = await h.request(`/api/listings/${kept.id}`, withJson(broker.bearer, { details: 'Audit refused patch', budget: 1_234_567 }, 'PATCH'))
      expect(patch.status).toBe(500)
    } finally {
      await h.ctx.db.run(ON_POSTGRES ? 'alter table audit_events drop constraint refuse_listing_audits' : 'drop trigger refuse_listing_audits')
    }
    expect(await counts()).toEqual(before!)
    expect(((await (await h.request(`/api/listings/${kept.id}`, { headers: broker.bearer })).json()) as { details: string }).details).toBe('Audit kept')
  })
})

/** `n` requests at once: their statuses in order, and the details of those that were refused. */
async function race(n: number, send: (i: number) => Promise<Response>) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(i)))
  const statuses = answers.map((r) => r.status)
  const bodies = await Promise.all(answers.map((r) => r.json().catch(() => null) as Promise<{ detail?: unknown } | null>))
  return { statuses, details: bodies.filter((_, i) => statuses[i] === 409).map((b) => b?.detail) }
}

/** Exactly one succeeded, every other is a 409 saying `detail` (never a 500). */
function expectOneWinner({ statuses, details }: Awaited<ReturnType<typeof race>>, success: number, detail: string) {
  expect(statuses.filter((s) => s === success)).toHaveLength(1)
  expect(statuses.filter((s) => s !== success && s !== 409)).toEqual([])
  expect(details).toEqual(Array(statuses.length - 1).fill(detail))
}

describe('duplicates sent at once (issue 29: 500 500 201 500 500 500 on PostgreSQL): one wins, the others are 409 in the words of the check', () => {
  const post = (path: string, body: unknown) => h.request(path, withJson(master.bearer, body))
  const put = (path: string, body: unknown) => h.request(path, withJson(master.bearer, body, 'PUT'))

  test('countries, by name and by code', async () => {
    // One key at a time: with both taken, which check speaks first depends on when the winner commits.
    expectOneWinner(await race(6, (i) => post('/api/geographic/countries', { name: 'Racing Land', code: `RL${i}` })), 201, 'A country named "Racing Land" already exists')
    expectOneWinner(await race(6, (i) => post('/api/geographic/countries', { name: `Coded Land ${i}`, code: 'CL' })), 201, 'Country code "CL" is already used by ' + (await codeOwner('countries', 'CL')))
  })

  test('states, by name in their country and by code', async () => {
    const body = (i: number) => ({ name: 'Racing State', code: `RS-${i}`, country_id: place.country.id })
    expectOneWinner(await race(6, (i) => post('/api/geographic/states', body(i))), 201, `A state named "Racing State" already exists in ${place.country.name}`)
    expectOneWinner(
      await race(6, (i) => post('/api/geographic/states', { name: `Coded State ${i}`, code: 'CS-1', country_id: place.country.id })),
      201,
      'State code "CS-1" is already used by ' + (await codeOwner('states', 'CS-1')),
    )
  })

  test('cities, by name in their state (the finding: RC3)', async () => {
    expectOneWinner(await race(6, () => post('/api/geographic/cities', { name: 'RC3', state_id: place.state.id })), 201, `A city named "RC3" already exists in ${place.state.name}`)
  })

  test('renames onto the same new name at once', async () => {
    const ids: number[] = []
    for (let i = 0; i < 4; i++) ids.push((await (await post('/api/geographic/cities', { name: `Renamed From ${i}`, state_id: place.state.id })).json()).id)
    expectOneWinner(await race(4, (i) => put(`/api/geographic/cities/${ids[i]}`, { name: 'Renamed To', state_id: place.state.id })), 200, `A city named "Renamed To" already exists in ${place.state.name}`)
  })

  test("a user's saved searches, by name in any case", async () => {
    const send = (i: number) => h.request('/api/saved-searches/', withJson(broker.bearer, { name: i % 2 ? 'Night Shift' : 'NIGHT SHIFT', filters: {} }))
    const result = await race(6, send)
    expect(result.statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(result.statuses.filter((s) => s !== 201 && s !== 409)).toEqual([])
    for (const detail of result.details) expect(detail).toMatch(/^You already have a saved search named "night shift"$/i)
  })

  test('users created by an admin with one email', async () => {
    const send = (i: number) => {
      const fd = new FormData()
      for (const [k, v] of Object.entries({ email: 'twin@example.com', password: 'Strong@123', full_name: `Twin ${i}`, phone: '9876543210', role: 'BROKER', city_id: String(place.cities[0]!.id) }))
        fd.set(k, v)
      return h.request('/api/users', { method: 'POST', headers: master.browser, body: fd })
    }
    expectOneWinner(await race(4, send), 201, 'email already registered')
  })
})

/** Which row holds a code now (the race's winner). */
const codeOwner = async (table: 'countries' | 'states', code: string) => (await h.ctx.db.get<{ name: string }>(`select name from ${table} where code = ?`, [code]))!.name

// On SQLite whichever backend the run tests: the run's app on a SQLite run, an app of its own on a SQLite file in a
// PostgreSQL run (in process, or the binary, as the run's).
describe('SQLite: the file locked past the busy timeout (another process holding a write)', () => {
  test('a write is a 503 with Retry-After, not a 500; reads still answer', async () => {
    const lite = ON_POSTGRES ? await createTestApp({}, {}, { backend: 'sqlite' }) : h
    try {
      const admin = ON_POSTGRES ? await signIn(lite.ctx.db, 'MASTER_ADMIN', { cityId: null }) : master
      const state = ON_POSTGRES ? (await seedPlace(lite.ctx.db, ['Nagpur'])).state : place.state
      const other = new SQLite(lite.config.databasePath)
      other.exec('BEGIN IMMEDIATE')
      try {
        const res = await lite.request('/api/geographic/cities', withJson(admin.bearer, { name: 'Locked Out', state_id: state.id }))
        expect(res.status).toBe(503)
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
        expect((await res.json()).detail).toMatch(/try again in a moment/)
        // WAL: readers do not wait for the writer.
        expect((await lite.request('/api/geographic/countries')).status).toBe(200)
      } finally {
        other.exec('ROLLBACK')
        other.close()
      }
      expect((await lite.request('/api/geographic/cities', withJson(admin.bearer, { name: 'Locked Out', state_id: state.id }))).status).toBe(201)
    } finally {
      if (lite !== h) await lite.close()
    }
  }, 60_000)
})
