// Upgrading (issue 19): a database written by an earlier Brokernet, through its API, is taken over by today's binary.
// Its migrations apply at start; every row the old program wrote is still there with the same values; every identity
// document downloads byte for byte; sessions signed in before the upgrade still work. On SQLite, and on PostgreSQL
// (a throwaway cluster, tests/support/postgres.ts) from the first commit that kept documents there.
//
// The earlier programs are built from this repository's own history (no release is tagged yet): a commit's `bun run
// build` in a temporary git worktree, cached under the system's temporary folder (tests/support/builds.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { is } from 'drizzle-orm'
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as pgSchema from '../../db/pg/schema'
import * as sqliteSchema from '../../db/schema'
import type { Queryable } from '../../db/sql'
import { binaryAt, currentBinary } from '../support/builds'
import { identityCardPdf, identityCardPng } from '../support/documents'
import { KEPT, kept, PG_KEPT, recounted } from '../support/kept-counts'
import { connect, readPgTables } from '../support/pg-rows'
import { startCluster, type Cluster } from '../support/postgres'
import { startServer, type RunningServer } from '../support/server'
import { integrityCheck, lostOrChanged, readTables, type TableRows } from '../support/sqlite-rows'
import { sessionIdOf } from '../../src/platform/sessions'
import { enrolByApi } from '../support/second-factor'

const root = new URL('../..', import.meta.url).pathname
const ADMIN = { email: 'owner@upgrade.example', password: 'Upgrade@2026!' }
const BROKER = { email: 'asha@upgrade.example', password: 'Asha@Broker1', full_name: 'Asha Kulkarni', phone: '9820012345', id_card_number: 'UPG-ASHA-1' }
const ADDED = { email: 'ravi@upgrade.example', password: 'Ravi@Broker2', full_name: 'Ravi Menon', phone: '9820054321', id_card_number: 'UPG-RAVI-2' }
const PENDING = { email: 'neha@upgrade.example', password: 'Neha@Broker3', full_name: 'Neha Shah', phone: '9820099887', id_card_number: 'UPG-NEHA-3' }

/** A database of one backend, for one run of the suite. */
type Store = {
  /** Given to both programs. */
  env: Record<string, string>
  readTables: () => Promise<Map<string, TableRows>>
  /** A connection for the kept-count checks. */
  open: () => Promise<{ db: Queryable; close: () => Promise<void> }>
  /** SQLite's `PRAGMA integrity_check` (null: the backend has no such check here). */
  integrity: () => string | null
  tearDown: () => Promise<void>
}

type Backend = {
  name: string
  /** The earlier program: a commit of this repository. */
  commit: string
  /** How many migrations that commit's schema has (a check that the pinned commit is what this file believes). */
  migrationsThen: number
  /** The current migrations' journal. */
  journal: string
  /** The current schema's tables and their columns. */
  schemaColumns: () => { table: string; columns: string[] }[]
  /** Derived tables a later migration rebuilt on purpose: not compared row by row, but checked otherwise (below). */
  rebuilt: (string | RegExp)[]
  setUp: (dataDir: string) => Promise<Store>
}

const SQLITE: Backend = {
  name: 'SQLite',
  /**
   * 11c469c (23 November 2026): the first commit whose binary serves signed-in routes (before it, a minified build
   * answered 500 on every one, decision record 003), with registration and its identity documents, approvals, listings
   * and sessions complete; its schema is migration 0009, so 22 migrations since (kept counts rebuilt, the search index
   * recreated, columns added to listings and cities, a dozen new tables, listings' expiry filled in) run over its data.
   */
  commit: '11c469c2e7321e8e3dca01d5d7bd610a084b5f8e',
  migrationsThen: 10,
  journal: 'db/migrations/meta/_journal.json',
  schemaColumns: () =>
    (Object.values(sqliteSchema) as unknown[])
      .filter((v): v is SQLiteTable => is(v, SQLiteTable))
      .map((t) => sqliteTableConfig(t))
      .map((c) => ({ table: c.name, columns: c.columns.map((col) => col.name) })),
  rebuilt: [
    // 0013 recreated listing_counts keyed by property type too: checked as equal to a recount of the listings.
    'listing_counts',
    // 0015 recreated both FTS5 indexes with filter tags (their shadow tables hold FTS5's own pages): checked by searching.
    /^listings_fts/,
  ],
  async setUp(dataDir) {
    const file = join(dataDir, 'brokernet.db')
    return {
      env: { DATABASE_URL: '' },
      readTables: async () => readTables(file),
      async open() {
        const db = new Database(file, { readonly: true })
        return { db: { all: async (sql: string) => db.query(sql).all() } as unknown as Queryable, close: async () => db.close() }
      },
      integrity: () => integrityCheck(file),
      tearDown: async () => {},
    }
  },
}

const POSTGRES: Backend = {
  name: 'PostgreSQL',
  /**
   * eaa5692 (24 November 2026): the first commit that keeps identity documents in the database on PostgreSQL (before
   * it they were files in DATA_DIR even there), with DATABASE_URL wired since 0feb203; its PostgreSQL schema is
   * migration 0004, and every later one (kept counts through writes, the session feed, duplicates, the hotsheet,
   * expiry, ...) runs over its data.
   */
  commit: 'eaa5692c2e9e4368e2287d4f93bf5d6d4e6c6e61',
  migrationsThen: 5,
  journal: 'db/pg/migrations/meta/_journal.json',
  schemaColumns: () =>
    (Object.values(pgSchema) as unknown[])
      .filter((v): v is PgTable => is(v, PgTable))
      .map((t) => pgTableConfig(t))
      .map((c) => ({ table: c.name, columns: c.columns.map((col) => col.name) })),
  rebuilt: [],
  // This suite found that db/pg/migrations/0010_expiry.sql could not upgrade a database holding any listing: its
  // `(CASE ... THEN 30 ELSE 90 END) * 86400000` was int4 arithmetic, and 30 days in ms overflows it ('integer out of
  // range'). It multiplies in bigint now (`* 86400000::bigint`). Without PostgreSQL installed (nor PG_TEST_URL) it
  // fails, saying so, as every PostgreSQL suite does: a test that skips itself promises what it does not check.
  async setUp() {
    const cluster: Cluster = await startCluster()
    const url = await cluster.createDatabase(`brokernet_upgrade_${process.pid}`)
    return {
      env: { DATABASE_URL: url },
      readTables: () => readPgTables(url),
      async open() {
        const sql = connect(url)
        return { db: { all: async (text: string) => sql.unsafe(text) } as unknown as Queryable, close: () => sql.end() }
      },
      integrity: () => null,
      tearDown: () => cluster.stop(),
    }
  },
}

const bearer = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as object), authorization: `Bearer ${token}` } })
const jsonBody = (token: string, body: unknown, method = 'POST') =>
  bearer(token, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })

async function call<T = any>(url: string, init: RequestInit, expected: number): Promise<T> {
  const res = await fetch(url, init)
  const text = await res.text()
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status}, expected ${expected}: ${text}`)
  return (text ? JSON.parse(text) : undefined) as T
}

/** SIGTERM and wait: the server finishes what is in flight and closes the database; DATA_DIR is kept. */
async function stopKeepingData(s: RunningServer): Promise<number> {
  s.proc.kill('SIGTERM')
  return s.proc.exited
}

type Owner = 'broker' | 'added' | 'admin'
/** What the old program was given and answered: tokens, ids and the bytes of each uploaded document. */
type Written = {
  tokens: Record<Owner, string>
  documents: { userId: number; bytes: Uint8Array; type: string }[]
  listings: { id: number; entry_id: string; owner: Owner; status: string; locality: string | null }[]
  deletedListing: number
}

/**
 * Everything a self-hoster's first weeks would leave, written through the old program's own API (its routes as of
 * both pinned commits, which agree on these): the first admin (from ADMIN_EMAIL / ADMIN_PASSWORD) sets up a city, a
 * broker registers with a PNG identity card and is approved, another registers with a PDF and stays pending, the admin
 * adds a broker with a PDF; listings REQ and AVL, for sale and rent, ACTIVE, ON_HOLD and SUSPENDED, one deleted.
 */
async function writeThroughOldApi(url: string): Promise<Written> {
  const api = (path: string) => `${url}/api${path}`
  const login = (email: string, password: string) =>
    call<{ token: string }>(api('/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }, 200)
  const documents: Written['documents'] = []

  const adminToken = (await login(ADMIN.email, ADMIN.password)).token
  const country = await call(api('/geographic/countries'), jsonBody(adminToken, { name: 'India', code: 'IN' }), 201)
  const state = await call(api('/geographic/states'), jsonBody(adminToken, { name: 'Maharashtra', code: 'MH', country_id: country.id }), 201)
  const city = await call(api('/geographic/cities'), jsonBody(adminToken, { name: 'Mumbai', state_id: state.id, newsco_region: 'West' }), 201)

  const register = async (who: typeof BROKER, file: File) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(who)) form.set(k, v)
    form.set('city_id', String(city.id))
    form.set('id_card_file', file)
    return call<{ id: number }>(api('/auth/register'), { method: 'POST', body: form }, 201)
  }
  const png = identityCardPng(BROKER.full_name, BROKER.id_card_number)
  const broker = await register(BROKER, new File([png], 'id card.png', { type: 'image/png' }))
  documents.push({ userId: broker.id, bytes: png, type: 'image/png' })
  const pendingPdf = identityCardPdf(`${PENDING.full_name} ${PENDING.id_card_number}`)
  const pending = await register(PENDING, new File([pendingPdf], 'card.pdf', { type: 'application/pdf' }))
  documents.push({ userId: pending.id, bytes: pendingPdf, type: 'application/pdf' })
  await call(api(`/users/${broker.id}/approve`), bearer(adminToken, { method: 'POST' }), 200)

  const addedPdf = identityCardPdf(`${ADDED.full_name} ${ADDED.id_card_number}`)
  const form = new FormData()
  for (const [k, v] of Object.entries(ADDED)) form.set(k, v)
  form.set('role', 'BROKER')
  form.set('city_id', String(city.id))
  form.set('id_card_document', new File([addedPdf], 'ravi.pdf', { type: 'application/pdf' }))
  const added = await call<{ id: number }>(api('/users'), bearer(adminToken, { method: 'POST', body: form }), 201)
  documents.push({ userId: added.id, bytes: addedPdf, type: 'application/pdf' })

  const tokens: Written['tokens'] = { admin: adminToken, broker: (await login(BROKER.email, BROKER.password)).token, added: (await login(ADDED.email, ADDED.password)).token }
  let listings: Written['listings'] = []
  const post = async (owner: Owner, body: Record<string, unknown>) => {
    const listing = await call(api('/listings'), jsonBody(tokens[owner], { contact_value: '9820012345', ...body }), 201)
    listings.push({ id: listing.id, entry_id: listing.entry_id, owner, status: listing.status, locality: listing.locality })
    return listing
  }
  const setStatus = async (id: number, status: string, by: Owner) => {
    await call(api(`/listings/${id}`), jsonBody(tokens[by], { status }, 'PATCH'), 200)
    listings.find((l) => l.id === id)!.status = status
  }
  await post('broker', { post_type: 'REQ', sale_or_rent: 'SALE', property_type: '2BHK', budget: 15_000_000, size: 850, location: 'West', locality: 'Andheri West', details: 'Client needs a 2BHK near the metro, ready to move' })
  await post('broker', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '1BHK', budget: 35_000, size: 550, location: 'North', locality: 'Borivali', details: 'Furnished flat, family preferred', comments: 'Keys with the watchman' })
  const shop = await post('broker', { post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Shop', budget: 9_500_000, size: 300, location: 'Central', locality: 'Dadar', reference: 'Owner direct', google_location_url: 'https://maps.example.com/dadar' })
  await setStatus(shop.id, 'ON_HOLD', 'broker')
  const office = await post('broker', { post_type: 'REQ', sale_or_rent: 'RENT', property_type: 'Office', budget: 120_000, size: 1_200, location: 'South', locality: 'Lower Parel', type_details: 'Plug and play, 20 seats' })
  await setStatus(office.id, 'SUSPENDED', 'admin')
  const gone = await post('broker', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '3BHK', budget: 80_000, locality: 'Powai', details: 'Lake view' })
  await call(api(`/listings/${gone.id}`), bearer(tokens.broker, { method: 'DELETE' }), 204)
  listings = listings.filter((l) => l.id !== gone.id)
  await post('added', { post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Villa', budget: 45_000_000, size: 4_000, location: 'Outskirts', locality: 'Karjat', details: 'Villa with a garden and a pool' })
  await post('added', { post_type: 'REQ', sale_or_rent: 'RENT', property_type: '2BHK', budget: 55_000, location: 'East', locality: 'Chembur' })
  await post('admin', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: 'Warehouse', budget: 250_000, size: 10_000, location: 'Outskirts', locality: 'Bhiwandi', details: 'Warehouse by the highway', city_id: city.id })
  return { tokens, documents, listings, deletedListing: gone.id }
}

let current: { path: string; cleanup: () => void } | undefined
const currentProgram = () => (current ??= currentBinary()).path
afterAll(() => current?.cleanup())

function describeUpgrade(backend: Backend) {
  let dataDir: string
  let store: Store
  let server: RunningServer | undefined
  let old: Written
  /** Every table after the old program stopped, and right after the current one started (before any request of ours). */
  let before: Map<string, TableRows>
  let after: Map<string, TableRows>
  const rebuilt = (table: string) => backend.rebuilt.some((r) => (typeof r === 'string' ? r === table : r.test(table)))
  const start = (command: string, env: Record<string, string> = {}) =>
    startServer({ command: [command], cwd: dataDir, dataDir, env: { NODE_ENV: '', ...store.env, ...env }, timeoutMs: 60_000 })

  /** Sessions this test ended on purpose (ids as stored): gone from `sessions` as they should be. */
  const ended: string[] = []
  /**
   * Work queues: a row is work to do, deleted once done by whichever program runs then. The old program, stopped right
   * after its writes, may leave one (on a busy machine it had not announced its last listing's matches yet), and the
   * current one does that work: gone as it should be (issue 37). A queued row is never changed.
   */
  const QUEUES = ['match_queue']
  /** The old rows missing or changed in `now`, by table (at most five each); rebuilt tables, `skip`, `ended` and done work aside. */
  function differencesFrom(now: Map<string, TableRows>, skip: string[] = []): Record<string, unknown> {
    const differences: Record<string, unknown> = {}
    for (const [name, rows] of before) {
      if (rebuilt(name) || skip.includes(name)) continue
      const table = now.get(name)
      if (!table) differences[name] = 'table gone'
      else {
        const lost = lostOrChanged(rows, table).filter(({ row, now }) => !(!now && (QUEUES.includes(name) || (name === 'sessions' && ended.includes(String(row.id))))))
        if (lost.length) differences[name] = lost.slice(0, 5)
      }
    }
    return differences
  }

  /** Every kept count (docs/decisions/007-kept-counts.md) equals a recount of the listings. */
  async function expectKeptCountsTrue() {
    const { db, close } = await store.open()
    try {
      for (const table of Object.keys(KEPT)) expect({ table, rows: await kept(db, table) }).toEqual({ table, rows: await recounted(db, table) })
      // PostgreSQL's own (month and budget-bucket counts): filled by their migrations from the old rows, then kept.
      if (backend.name === 'PostgreSQL') for (const table of Object.keys(PG_KEPT)) expect({ table, rows: await kept(db, table) }).toEqual({ table, rows: await recounted(db, table) })
    } finally {
      await close()
    }
  }

  describe(`upgrade on ${backend.name} from ${backend.commit.slice(0, 7)}`, () => {
    beforeAll(async () => {
      const oldBinary = binaryAt(backend.commit)
      currentProgram()
      dataDir = mkdtempSync(join(tmpdir(), 'brokernet-upgrade-'))
      store = await backend.setUp(dataDir)
      const first = await start(oldBinary, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
      try {
        old = await writeThroughOldApi(first.url)
      } catch (e) {
        throw new Error(`${(e as Error).message}\nthe old server's output:\n${first.output()}`)
      } finally {
        expect(await stopKeepingData(first)).toBe(0)
      }
      before = await store.readTables()

      server = await start(currentProgram())
      // Nothing of this test has touched the data yet (a request could, e.g. a session's sliding expiry).
      after = await store.readTables()
    }, 600_000)

    afterAll(async () => {
      if (server) await stopKeepingData(server)
      await store?.tearDown()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    test('the old program wrote what this test relies on', () => {
      expect(before.get('users')!.rows.length).toBe(4)
      expect(before.get('listings')!.rows.length).toBe(old.listings.length)
      expect(before.get('sessions')!.rows.length).toBe(3)
      expect(before.get('__drizzle_migrations')!.rows.length).toBe(backend.migrationsThen)
      expect(before.has('listing_reminders')).toBe(false) // a table of a later migration
    })

    test('every migration applied: the journal is recorded and every table and column of the schema exists', () => {
      const journal = JSON.parse(readFileSync(join(root, backend.journal), 'utf8')) as { entries: { when: number }[] }
      const recorded = after.get('__drizzle_migrations')!.rows
      expect(recorded.length).toBe(journal.entries.length)
      expect(recorded.map((r) => Number(r.created_at)).sort((a, b) => a - b)).toEqual(journal.entries.map((e) => e.when))
      const declared = backend.schemaColumns()
      expect(declared.length).toBeGreaterThan(20) // the schema's tables were found: not a vacuous check
      const missing = declared.flatMap(({ table, columns }) => {
        const found = after.get(table)
        return found ? columns.filter((c) => !found.columns.includes(c)).map((c) => `${table}.${c}`) : [table]
      })
      expect(missing).toEqual([])
      expect(store.integrity() ?? 'ok').toBe('ok')
    })

    test('every row of every table is still there, with the same values in the columns it had', () => {
      expect(differencesFrom(after)).toEqual({})
      // Not vacuous: the tables the API wrote to were compared row by row.
      for (const name of ['users', 'sessions', 'listings', 'countries', 'states', 'cities', 'audit_events', 'mail_outbox'])
        expect(before.get(name)?.rows.length ?? 0).toBeGreaterThan(0)
    })

    test('the kept counts equal a recount of the listings', () => expectKeptCountsTrue())

    test("old sessions still authenticate: each user's token, as a bearer token and as the browser's cookie", async () => {
      const me = (init: RequestInit) => call(`${server!.url}/api/auth/me`, init, 200)
      expect((await me(bearer(old.tokens.admin))).email).toBe(ADMIN.email)
      expect((await me(bearer(old.tokens.broker))).email).toBe(BROKER.email)
      expect((await me(bearer(old.tokens.added))).email).toBe(ADDED.email)
      expect((await me({ headers: { cookie: `brokernet_session=${old.tokens.broker}` } })).email).toBe(BROKER.email)
      // Issue 29: the master admin's session from before may only set up two-factor sign-in. Setting it up through that
      // session ends it and answers a full one, which the tests below use.
      const refused = await fetch(`${server!.url}/api/users/${old.documents[0]!.userId}/id-card`, bearer(old.tokens.admin))
      expect(refused.status).toBe(403)
      expect((await refused.json()).detail).toContain('Set up two-factor sign-in')
      ended.push(sessionIdOf(old.tokens.admin))
      old.tokens.admin = (await enrolByApi((path, init) => fetch(server!.url + path, init), old.tokens.admin)).token
      // And passwords hashed by the old program still sign in.
      await call(`${server!.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BROKER.email, password: BROKER.password }) }, 200)
    })

    test('every identity document downloads byte for byte, by the admin, through the current API', async () => {
      expect(old.documents.length).toBe(3)
      for (const doc of old.documents) {
        const res = await fetch(`${server!.url}/api/users/${doc.userId}/id-card`, bearer(old.tokens.admin))
        expect(res.status).toBe(200)
        expect(res.headers.get('content-type')).toBe(doc.type)
        const bytes = new Uint8Array(await res.arrayBuffer())
        expect({ length: bytes.length, sha256: Bun.SHA256.hash(bytes, 'hex') }).toEqual({ length: doc.bytes.length, sha256: Bun.SHA256.hash(doc.bytes, 'hex') })
      }
    })

    test('every listing reads back through the current API, in its status, and its owners can still write', async () => {
      for (const l of old.listings) {
        const listing = await call(`${server!.url}/api/listings/${l.id}`, bearer(old.tokens[l.owner]), 200)
        expect({ id: listing.id, entry_id: listing.entry_id, status: listing.status, locality: listing.locality }).toEqual({ id: l.id, entry_id: l.entry_id, status: l.status, locality: l.locality })
        expect(listing.expires_at).toBeString() // filled in by the expiry migration
      }
      await call(`${server!.url}/api/listings/${old.deletedListing}`, bearer(old.tokens.admin), 404)
      const mine = await call(`${server!.url}/api/listings/my`, bearer(old.tokens.broker), 200)
      expect(JSON.stringify(mine)).toContain(old.listings.find((l) => l.owner === 'broker')!.entry_id)
      const created = await call(`${server!.url}/api/listings`, jsonBody(old.tokens.broker, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9820012345', property_type: '1RK', locality: 'Goregaon', details: 'Posted after the upgrade' }), 201)
      expect(created.id).toBeGreaterThan(Math.max(...old.listings.map((l) => l.id), old.deletedListing))
    })

    test('the search index covers the old listings', async () => {
      const search = async (words: string, token: string) =>
        (await call<{ listings: { id: number }[] }>(`${server!.url}/api/listings?search=${encodeURIComponent(words)}`, bearer(token), 200)).listings.map((l) => l.id)
      for (const l of old.listings.filter((l) => l.status !== 'SUSPENDED' && l.locality)) expect(await search(l.locality!, old.tokens.broker)).toContain(l.id)
      const suspended = old.listings.find((l) => l.status === 'SUSPENDED')!
      expect(await search(suspended.locality!, old.tokens.admin)).toContain(suspended.id)
      expect(await search(suspended.locality!, old.tokens.added)).not.toContain(suspended.id) // another broker's suspended listing
    })

    test('after this use it stops cleanly, the old rows unchanged, and starts again on its database', async () => {
      expect(await stopKeepingData(server!)).toBe(0)
      server = undefined
      // Everything since the upgrade (sign-ins, document views, a new listing, whatever the server did in the
      // background) added rows but changed none of the old ones; but the kept counts, which the new listing changed.
      expect(differencesFrom(await store.readTables(), Object.keys(KEPT))).toEqual({})
      await expectKeptCountsTrue()
      expect(store.integrity() ?? 'ok').toBe('ok')
      server = await start(currentProgram())
      expect((await call(`${server.url}/api/auth/me`, bearer(old.tokens.broker), 200)).email).toBe(BROKER.email)
    })
  })
}

describeUpgrade(SQLITE)
describeUpgrade(POSTGRES)
