// The compiled program on PostgreSQL with DEMO_DATA=1 (docs/decisions/013-postgres.md): a new database starts with the
// same demo as a new SQLite file, a restart does not load it again, and instances started together load it once.
// The database is a throwaway cluster of this file's own.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { postgresDb, type PostgresDb } from '../db/postgres'
import { DEMO_EMAIL_DOMAIN } from '../db/seed/demo'
import { DEMO_PASSWORD } from '../src/bootstrap'
import { startCluster, type Cluster } from './support/postgres'
import { startServer, type RunningServer } from './support/server'
import { enrolByApi } from './support/second-factor'

const root = new URL('..', import.meta.url).pathname
const binary = () => process.env.BROKERNET_BUILT ?? join(root, 'dist/brokernet')
let cluster: Cluster
const opened: PostgresDb[] = []
const running: RunningServer[] = []

beforeAll(async () => {
  // `bun run test` builds it once for every file (BROKERNET_BUILT); alone, this file builds.
  if (!process.env.BROKERNET_BUILT) {
    const build = Bun.spawnSync([process.execPath, 'scripts/build-binary.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`)
  }
  cluster = await startCluster()
}, 240_000)

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()))
  await Promise.all(opened.map((db) => db.close()))
  await cluster?.stop()
})

async function instance(url: string): Promise<RunningServer> {
  const server = await startServer({ command: [binary()], env: { DATABASE_URL: url, DEMO_DATA: '1', MATCH_DIGEST_HOURS: '0' }, timeoutMs: 60_000 })
  running.push(server)
  return server
}

async function stopped(server: RunningServer): Promise<number> {
  running.splice(running.indexOf(server), 1)
  return server.stop()
}

function database(url: string): PostgresDb {
  const db = postgresDb(url, { max: 2 })
  opened.push(db)
  return db
}

const count = async (db: PostgresDb, sql: string, params: string[] = []) => (await db.get<{ n: number }>(sql, params))!.n
/** Rows the demo adds; on a restart they must stay as they are. */
const totals = async (db: PostgresDb) => ({
  users: await count(db, 'select count(*) as n from users'),
  cities: await count(db, 'select count(*) as n from cities'),
  listings: await count(db, 'select count(*) as n from listings'),
  documents: await count(db, 'select count(*) as n from documents'),
  matches: await count(db, 'select count(*) as n from listing_matches'),
})

async function signIn(server: RunningServer, email: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(server.url + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  expect(res.status).toBe(200)
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` }
}

const get = async <T>(server: RunningServer, path: string, headers: Record<string, string>): Promise<T> => {
  const res = await fetch(server.url + path, { headers })
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

describe('the binary on PostgreSQL with DEMO_DATA=1', () => {
  test('a new database starts with the demo: brokers, listings, inboxes and identity cards, served over HTTP', async () => {
    const url = await cluster.createDatabase()
    const server = await instance(url)
    const out = server.output()
    expect(out).toMatch(/Demo data loaded: \d+ cities, 24 brokers, 5 module admins, 300 listings\./)
    expect(out).not.toContain('SQLite only')
    const [, adminEmail, adminPassword] = /Master admin created: (\S+) \/ (\S+)/.exec(out)!
    const sampleBroker = /Demo users share the password \S+, e\.g\. (\S+) \(broker\)/.exec(out)![1]!

    // Issue 29: the first sign-in of the master admin sets up two-factor sign-in, as the banner says.
    expect(out).toContain('Master admins set up two-factor sign-in')
    const setup = await signIn(server, adminEmail!, adminPassword!)
    const master = { authorization: `Bearer ${(await enrolByApi((path, init) => fetch(server.url + path, init), setup.authorization!.slice(7))).token}` }
    expect((await get<{ total: number }>(server, '/api/listings/?per_page=10', master)).total).toBe(300)
    const brokers = await get<{ users: { id: number; email: string; id_card_document_url: string | null }[]; total: number }>(
      server,
      `/api/users?role=BROKER&per_page=100`,
      master,
    )
    const demo = brokers.users.filter((u) => u.email.endsWith(`@${DEMO_EMAIL_DOMAIN}`))
    expect(demo).toHaveLength(24)
    // Identity cards are rows of the documents table on PostgreSQL, downloaded like uploaded ones.
    const card = await fetch(server.url + demo[0]!.id_card_document_url!, { headers: master })
    expect(card.status).toBe(200)
    expect(card.headers.get('content-type')).toBe('image/png')

    const broker = await signIn(server, sampleBroker, DEMO_PASSWORD)
    expect((await get<{ total: number }>(server, '/api/listings/?per_page=10', broker)).total).toBeGreaterThan(250)
    expect((await get<{ unseen: number }>(server, '/api/matches', broker)).unseen).toBeGreaterThan(0)

    // A restart on the same database (a new DATA_DIR: nothing of it is on disk) finds it prepared: nothing loaded again.
    const db = database(url)
    const before = await totals(db)
    expect(before).toMatchObject({ users: 30, listings: 300, documents: 24 })
    expect(before.matches).toBeGreaterThan(0)
    expect(await stopped(server)).toBe(0)
    const again = await instance(url)
    expect(again.output()).toContain(`Master admin: ${adminEmail}`)
    expect(again.output()).not.toContain('Demo data loaded')
    expect(await totals(db)).toEqual(before)
    expect((await get<{ total: number }>(again, '/api/listings/?per_page=10', await signIn(again, sampleBroker, DEMO_PASSWORD))).total).toBeGreaterThan(250)
  }, 120_000)

  test('two instances started together on a new database load the demo once', async () => {
    const url = await cluster.createDatabase()
    const [a, b] = await Promise.all([instance(url), instance(url)])
    // Both may find the database new; the second's seed then conflicts with the first's rows and is rolled back.
    expect([a, b].filter((s) => s.output().includes('Demo data loaded'))).toHaveLength(1)
    const db = database(url)
    expect(await totals(db)).toMatchObject({ users: 30, listings: 300, documents: 24 })
    expect(await count(db, 'select count(*) as n from users where email like ?', [`%@${DEMO_EMAIL_DOMAIN}`])).toBe(29)
    for (const s of [a, b]) expect((await fetch(s.url + '/api/health')).status).toBe(200)
  }, 120_000)
})
