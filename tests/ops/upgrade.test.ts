// Upgrading (issue 19): a database written by an earlier Brokernet, through its API, is taken over by today's binary.
// Its migrations apply at start; every row the old program wrote is still there with the same values; every identity
// document downloads byte for byte; sessions signed in before the upgrade still work.
//
// The earlier program is built from this repository's own history (no release is tagged yet): a commit's `bun run
// build` in a temporary git worktree, cached under the system's temporary folder (tests/support/builds.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import * as schema from '../../db/schema'
import type { Queryable } from '../../db/sql'
import { binaryAt, currentBinary } from '../support/builds'
import { identityCardPdf, identityCardPng } from '../support/documents'
import { KEPT, kept, recounted } from '../support/kept-counts'
import { integrityCheck, lostOrChanged, readTables, type TableRows } from '../support/sqlite-rows'
import { startServer, type RunningServer } from '../support/server'

/**
 * 11c469c (23 November 2026): the first commit whose binary serves signed-in routes (before it, a minified build
 * answered 500 on every one, decision record 003), with registration and its identity documents, approvals, listings
 * and sessions complete; its schema is migration 0009, so 22 migrations since (kept counts rebuilt, the search index
 * recreated, columns added to listings and cities, a dozen new tables, listings' expiry filled in) run over its data.
 * SQLite only: DATABASE_URL came later (0feb203).
 */
const OLD_COMMIT = '11c469c2e7321e8e3dca01d5d7bd610a084b5f8e'

const root = new URL('../..', import.meta.url).pathname
const ADMIN = { email: 'owner@upgrade.example', password: 'Upgrade@2026!' }
const BROKER = { email: 'asha@upgrade.example', password: 'Asha@Broker1', full_name: 'Asha Kulkarni', phone: '9820012345', id_card_number: 'UPG-ASHA-1' }
const ADDED = { email: 'ravi@upgrade.example', password: 'Ravi@Broker2', full_name: 'Ravi Menon', phone: '9820054321', id_card_number: 'UPG-RAVI-2' }
const PENDING = { email: 'neha@upgrade.example', password: 'Neha@Broker3', full_name: 'Neha Shah', phone: '9820099887', id_card_number: 'UPG-NEHA-3' }

/** Tables whose rows are derived from the listings and were rebuilt by a later migration on purpose; checked apart. */
const REBUILT = [
  // 0013 recreated listing_counts keyed by property type too: checked below as equal to a recount of the listings.
  'listing_counts',
  // 0015 recreated both FTS5 indexes with filter tags (their shadow tables hold FTS5's own pages): checked by searching.
  /^listings_fts/,
]
const rebuilt = (table: string) => REBUILT.some((r) => (typeof r === 'string' ? r === table : r.test(table)))

let dataDir: string
let current: { path: string; cleanup: () => void }
let server: RunningServer | undefined
/** What the old program wrote: ids, tokens and the bytes of each uploaded document. */
const old = {
  adminToken: '',
  brokerToken: '',
  addedToken: '',
  brokerId: 0,
  documents: [] as { userId: number; bytes: Uint8Array; type: string }[],
  listings: [] as { id: number; entry_id: string; owner: 'broker' | 'added' | 'admin'; status: string; locality: string | null }[],
  deletedListing: 0,
}
let before: Map<string, TableRows>
let after: Map<string, TableRows>

/**
 * The old rows missing or changed in `now`, by table (at most five each); derived tables rebuilt on purpose aside, and
 * the tables in `skip`.
 */
function differencesFrom(now: Map<string, TableRows>, skip: string[] = []): Record<string, unknown> {
  const differences: Record<string, unknown> = {}
  for (const [name, rows] of before) {
    if (rebuilt(name) || skip.includes(name)) continue
    const table = now.get(name)
    if (!table) differences[name] = 'table gone'
    else {
      const lost = lostOrChanged(rows, table)
      if (lost.length) differences[name] = lost.slice(0, 5)
    }
  }
  return differences
}

/** Every kept count (docs/decisions/007-kept-counts.md) equals a recount of the listings. */
async function expectKeptCountsTrue() {
  const db = new Database(databaseFile(), { readonly: true })
  try {
    const queryable = { all: async (sql: string) => db.query(sql).all() } as unknown as Queryable
    for (const table of Object.keys(KEPT)) expect({ table, rows: await kept(queryable, table) }).toEqual({ table, rows: await recounted(queryable, table) })
  } finally {
    db.close()
  }
}

const databaseFile = () => join(dataDir, 'brokernet.db')
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

/** Everything a self-hoster's first weeks would leave, written through the old program's own API (its routes as of OLD_COMMIT). */
async function writeThroughOldApi(url: string) {
  const api = (path: string) => `${url}/api${path}`
  const login = (email: string, password: string) => call<{ token: string; user: { id: number } }>(api('/auth/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }, 200)

  old.adminToken = (await login(ADMIN.email, ADMIN.password)).token
  const country = await call(api('/geographic/countries'), jsonBody(old.adminToken, { name: 'India', code: 'IN' }), 201)
  const state = await call(api('/geographic/states'), jsonBody(old.adminToken, { name: 'Maharashtra', code: 'MH', country_id: country.id }), 201)
  const city = await call(api('/geographic/cities'), jsonBody(old.adminToken, { name: 'Mumbai', state_id: state.id, newsco_region: 'West' }), 201)

  // A broker registers with a PNG identity card and is approved; another with a PDF stays pending.
  const register = async (who: typeof BROKER, file: File) => {
    const form = new FormData()
    for (const [k, v] of Object.entries(who)) form.set(k, v)
    form.set('city_id', String(city.id))
    form.set('id_card_file', file)
    return call<{ id: number }>(api('/auth/register'), { method: 'POST', body: form }, 201)
  }
  const png = identityCardPng(BROKER.full_name, BROKER.id_card_number)
  old.brokerId = (await register(BROKER, new File([png], 'id card.png', { type: 'image/png' }))).id
  old.documents.push({ userId: old.brokerId, bytes: png, type: 'image/png' })
  const pendingPdf = identityCardPdf(`${PENDING.full_name} ${PENDING.id_card_number}`)
  const pending = await register(PENDING, new File([pendingPdf], 'card.pdf', { type: 'application/pdf' }))
  old.documents.push({ userId: pending.id, bytes: pendingPdf, type: 'application/pdf' })
  await call(api(`/users/${old.brokerId}/approve`), bearer(old.adminToken, { method: 'POST' }), 200)

  // The admin adds a broker with a PDF document (approved and active at once).
  const addedPdf = identityCardPdf(`${ADDED.full_name} ${ADDED.id_card_number}`)
  const form = new FormData()
  for (const [k, v] of Object.entries(ADDED)) form.set(k, v)
  form.set('role', 'BROKER')
  form.set('city_id', String(city.id))
  form.set('id_card_document', new File([addedPdf], 'ravi.pdf', { type: 'application/pdf' }))
  const added = await call<{ id: number }>(api('/users'), bearer(old.adminToken, { method: 'POST', body: form }), 201)
  old.documents.push({ userId: added.id, bytes: addedPdf, type: 'application/pdf' })

  old.brokerToken = (await login(BROKER.email, BROKER.password)).token
  old.addedToken = (await login(ADDED.email, ADDED.password)).token

  const post = async (owner: 'broker' | 'added' | 'admin', body: Record<string, unknown>) => {
    const token = { broker: old.brokerToken, added: old.addedToken, admin: old.adminToken }[owner]
    const listing = await call(api('/listings'), jsonBody(token, { contact_value: '9820012345', ...body }), 201)
    old.listings.push({ id: listing.id, entry_id: listing.entry_id, owner, status: listing.status, locality: listing.locality })
    return listing
  }
  await post('broker', { post_type: 'REQ', sale_or_rent: 'SALE', property_type: '2BHK', budget: 15_000_000, size: 850, location: 'West', locality: 'Andheri West', details: 'Client needs a 2BHK near the metro, ready to move' })
  await post('broker', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '1BHK', budget: 35_000, size: 550, location: 'North', locality: 'Borivali', details: 'Furnished flat, family preferred', comments: 'Keys with the watchman' })
  const onHold = await post('broker', { post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Shop', budget: 9_500_000, size: 300, location: 'Central', locality: 'Dadar', reference: 'Owner direct', google_location_url: 'https://maps.example.com/dadar' })
  await call(api(`/listings/${onHold.id}`), jsonBody(old.brokerToken, { status: 'ON_HOLD' }, 'PATCH'), 200)
  const suspended = await post('broker', { post_type: 'REQ', sale_or_rent: 'RENT', property_type: 'Office', budget: 120_000, size: 1_200, location: 'South', locality: 'Lower Parel', type_details: 'Plug and play, 20 seats' })
  await call(api(`/listings/${suspended.id}`), jsonBody(old.adminToken, { status: 'SUSPENDED' }, 'PATCH'), 200)
  const gone = await post('broker', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: '3BHK', budget: 80_000, locality: 'Powai', details: 'Lake view' })
  await call(api(`/listings/${gone.id}`), bearer(old.brokerToken, { method: 'DELETE' }), 204)
  old.listings = old.listings.filter((l) => l.id !== gone.id)
  old.deletedListing = gone.id
  await post('added', { post_type: 'AVL', sale_or_rent: 'SALE', property_type: 'Villa', budget: 45_000_000, size: 4_000, location: 'Outskirts', locality: 'Karjat', details: 'Villa with a garden and a pool' })
  await post('added', { post_type: 'REQ', sale_or_rent: 'RENT', property_type: '2BHK', budget: 55_000, location: 'East', locality: 'Chembur' })
  await post('admin', { post_type: 'AVL', sale_or_rent: 'RENT', property_type: 'Warehouse', budget: 250_000, size: 10_000, location: 'Outskirts', locality: 'Bhiwandi', details: 'Warehouse by the highway', city_id: city.id })
  for (const l of old.listings) l.status = l.id === onHold.id ? 'ON_HOLD' : l.id === suspended.id ? 'SUSPENDED' : l.status
}

beforeAll(async () => {
  const oldBinary = binaryAt(OLD_COMMIT)
  current = currentBinary()
  dataDir = mkdtempSync(join(tmpdir(), 'brokernet-upgrade-'))
  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, NODE_ENV: '', DATABASE_URL: '' }

  const first = await startServer({ command: [oldBinary], cwd: dataDir, dataDir, env, timeoutMs: 60_000 })
  try {
    await writeThroughOldApi(first.url)
  } catch (e) {
    throw new Error(`${(e as Error).message}\nold server's output:\n${first.output()}`)
  } finally {
    expect(await stopKeepingData(first)).toBe(0)
  }
  before = readTables(databaseFile())

  server = await startServer({ command: [current.path], cwd: dataDir, dataDir, env, timeoutMs: 60_000 })
  // Read before any request of this test: nothing here has touched the data yet (a session's sliding expiry would).
  after = readTables(databaseFile())
}, 600_000)

afterAll(async () => {
  if (server) await stopKeepingData(server)
  current?.cleanup()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe(`upgrade from ${OLD_COMMIT.slice(0, 7)}`, () => {
  test('the old program wrote what this test relies on', () => {
    expect(before.get('users')!.rows.length).toBe(4)
    expect(before.get('listings')!.rows.length).toBe(old.listings.length)
    expect(before.get('sessions')!.rows.length).toBe(3)
    expect(before.get('__drizzle_migrations')!.rows.length).toBe(10)
    expect(before.has('rate_limits')).toBe(false) // a table of a later migration
  })

  test('every migration applied: the journal is recorded and every table and column of the schema exists', () => {
    const journal = JSON.parse(readFileSync(join(root, 'db/migrations/meta/_journal.json'), 'utf8')) as { entries: { when: number }[] }
    const recorded = after.get('__drizzle_migrations')!.rows
    expect(recorded.length).toBe(journal.entries.length)
    expect(recorded.map((r) => Number(r.created_at)).sort((a, b) => a - b)).toEqual(journal.entries.map((e) => e.when))
    const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable))
    expect(tables.length).toBeGreaterThan(before.size / 2) // the schema's tables were found (not a vacuous check)
    const missing: string[] = []
    for (const value of tables) {
      const config = getTableConfig(value)
      const table = after.get(config.name)
      if (!table) missing.push(config.name)
      else for (const c of config.columns) if (!table.columns.includes(c.name)) missing.push(`${config.name}.${c.name}`)
    }
    expect(missing).toEqual([])
    expect(integrityCheck(databaseFile())).toBe('ok')
  })

  test('every row of every table is still there, with the same values in the columns it had', () => {
    expect(differencesFrom(after)).toEqual({})
    // Not vacuous: the tables the API wrote to were compared row by row.
    for (const name of ['users', 'sessions', 'listings', 'countries', 'states', 'cities', 'audit_events', 'mail_outbox'])
      expect(before.get(name)?.rows.length ?? 0).toBeGreaterThan(0)
  })

  test('the rebuilt kept counts equal a recount of the listings', expectKeptCountsTrue)

  test("old sessions still authenticate: each user's token, as a bearer token and as the browser's cookie", async () => {
    const me = (init: RequestInit) => call(`${server!.url}/api/auth/me`, init, 200)
    expect((await me(bearer(old.adminToken))).email).toBe(ADMIN.email)
    expect((await me(bearer(old.brokerToken))).email).toBe(BROKER.email)
    expect((await me(bearer(old.addedToken))).email).toBe(ADDED.email)
    expect((await me({ headers: { cookie: `brokernet_session=${old.brokerToken}` } })).email).toBe(BROKER.email)
    // And passwords hashed by the old program still sign in.
    await call(`${server!.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: BROKER.email, password: BROKER.password }) }, 200)
  })

  test('every identity document downloads byte for byte, by the admin, through the current API', async () => {
    expect(old.documents.length).toBe(3)
    for (const doc of old.documents) {
      const res = await fetch(`${server!.url}/api/users/${doc.userId}/id-card`, bearer(old.adminToken))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(doc.type)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect({ length: bytes.length, sha256: Bun.SHA256.hash(bytes, 'hex') }).toEqual({ length: doc.bytes.length, sha256: Bun.SHA256.hash(doc.bytes, 'hex') })
    }
  })

  test('every listing reads back through the current API, in its status, and its owners can still write', async () => {
    for (const l of old.listings) {
      const token = { broker: old.brokerToken, added: old.addedToken, admin: old.adminToken }[l.owner]
      const listing = await call(`${server!.url}/api/listings/${l.id}`, bearer(token), 200)
      expect({ id: listing.id, entry_id: listing.entry_id, status: listing.status, locality: listing.locality }).toEqual({ id: l.id, entry_id: l.entry_id, status: l.status, locality: l.locality })
      expect(listing.expires_at).toBeString() // filled in by migration 0029
    }
    await call(`${server!.url}/api/listings/${old.deletedListing}`, bearer(old.adminToken), 404)
    const mine = await call(`${server!.url}/api/listings/my`, bearer(old.brokerToken), 200)
    expect(JSON.stringify(mine)).toContain(old.listings.find((l) => l.owner === 'broker')!.entry_id)
    const created = await call(`${server!.url}/api/listings`, jsonBody(old.brokerToken, { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9820012345', property_type: '1RK', locality: 'Goregaon', details: 'Posted after the upgrade' }), 201)
    expect(created.id).toBeGreaterThan(Math.max(...old.listings.map((l) => l.id), old.deletedListing))
  })

  test('the search index was rebuilt over the old listings', async () => {
    const search = async (words: string, token: string) =>
      (await call<{ listings: { id: number }[] }>(`${server!.url}/api/listings?search=${encodeURIComponent(words)}`, bearer(token), 200)).listings.map((l) => l.id)
    for (const l of old.listings.filter((l) => l.status !== 'SUSPENDED' && l.locality))
      expect(await search(l.locality!, old.brokerToken)).toContain(l.id)
    const suspended = old.listings.find((l) => l.status === 'SUSPENDED')!
    expect(await search(suspended.locality!, old.adminToken)).toContain(suspended.id)
    expect(await search(suspended.locality!, old.addedToken)).not.toContain(suspended.id) // another broker's suspended listing
  })

  test('after this use it stops cleanly, the old rows unchanged, and starts again on its database', async () => {
    expect(await stopKeepingData(server!)).toBe(0)
    // Everything since the upgrade (sign-ins, document views, a new listing, whatever the server did in the background)
    // added rows but changed none of the old ones; but the kept counts, which the new listing changed (checked below).
    expect(differencesFrom(readTables(databaseFile()), Object.keys(KEPT))).toEqual({})
    await expectKeptCountsTrue()
    expect(integrityCheck(databaseFile())).toBe('ok')
    server = await startServer({ command: [current.path], cwd: dataDir, dataDir, env: { NODE_ENV: '', DATABASE_URL: '' }, timeoutMs: 60_000 })
    expect((await call(`${server.url}/api/auth/me`, bearer(old.brokerToken), 200)).email).toBe(BROKER.email)
  })
})
