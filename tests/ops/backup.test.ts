// Backups and restore (issue 19), with the program self-hosters run: `brokernet backup` while a broker writes, the
// restore's checks and refusals, BACKUP_EVERY's schedule keeping BACKUP_KEEP, and the same on PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeTarGz } from '../../src/platform/backup/tar'
import { currentBinary } from '../support/builds'
import { sharedCluster } from '../support/postgres'
import { startServer, type RunningServer } from '../support/server'
import { integrityCheck } from '../support/sqlite-rows'
import { enrolByApi } from '../support/second-factor'
import { eventually } from '../support/eventually'

const BROKER = { email: 'rahul.sharma@brokernet.example', password: 'Demo@12345' } // a demo broker (DEMO_DATA=1)
const ADMIN = { ADMIN_EMAIL: 'owner@brokernet.example', ADMIN_PASSWORD: 'Owner@12345' }

let binary: { path: string; cleanup: () => void }
const scratch: string[] = []
const servers: RunningServer[] = []

beforeAll(() => {
  binary = currentBinary()
}, 300_000)

afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) await s.stop().catch(() => {})
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
  binary?.cleanup()
})

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `brokernet-${name}-`))
  scratch.push(dir)
  return dir
}

async function start(env: Record<string, string>, dataDir = tempDir('data')) {
  const server = await startServer({ command: [binary.path], cwd: dataDir, dataDir, env: { DEMO_DATA: '1', WORKERS: '1', NODE_ENV: '', ...ADMIN, ...env }, timeoutMs: 90_000 })
  servers.push(server)
  return server
}

/** SIGTERM, and the data stays (startServer's own stop removes DATA_DIR). */
async function stop(server: RunningServer) {
  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
}

/** `brokernet <args>` with the server's environment. */
async function brokernet(args: string[], env: Record<string, string>) {
  const proc = Bun.spawn([binary.path, ...args], { env: { ...process.env, NODE_ENV: '', ...env }, stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, out, err }
}

async function login(url: string, who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) })
  expect(res.status).toBe(200)
  return (await res.json()).token
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The master admin's session: their password opens only the setup of two-factor sign-in (issue 29), so it is set up. */
async function adminSession(url: string): Promise<string> {
  const token = await login(url, { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD })
  return (await enrolByApi((path, init) => fetch(url + path, init), token)).token
}

/** Posts listings with two requests always in flight until `stop()`; every 201 is recorded as it arrives. */
function writer(url: string, token: string) {
  const acknowledged: { id: number; at: number }[] = []
  let stopping = false
  let n = 0
  const lane = async () => {
    while (!stopping) {
      const i = n++
      const res = await fetch(`${url}/api/listings`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({
          post_type: i % 2 ? 'AVL' : 'REQ',
          sale_or_rent: 'RENT',
          property_type: '2BHK',
          contact_value: '9820012345',
          budget: 30_000 + i,
          details: `Backup writer ${i} ${crypto.randomUUID()}`,
          confirm_duplicate: true,
        }),
      })
      const body = await res.json()
      if (res.status !== 201) throw new Error(`a write answered ${res.status}: ${JSON.stringify(body)}`)
      acknowledged.push({ id: body.id, at: performance.now() })
    }
  }
  const lanes = [lane(), lane()]
  return {
    acknowledged,
    stop: async () => {
      stopping = true
      await Promise.all(lanes)
    },
  }
}

/**
 * Reads a database file and closes it again. A connection left for the garbage collector keeps its lock on the file
 * until it is collected (SQLite in WAL mode holds a shared lock for as long as a connection is open), and the restore
 * after the server stops then rightly refuses a database "another program" has open: issue 37.
 */
function readDb<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

const ids = (path: string, table: string) => readDb(path, (db) => new Set((db.query(`select id from ${table}`).values() as [number][]).map((r) => r[0])))

/** A command's exit code with its error output, so a failing expectation says why it failed. */
const outcome = (r: { code: number; err: string }) => ({ code: r.code, err: r.err })

describe('SQLite', () => {
  let server: RunningServer
  let archive: string

  test('a backup taken while a broker writes holds every write answered before it started, and restores whole', async () => {
    server = await start({})
    const token = await login(server.url, BROKER)
    const writes = writer(server.url, token)
    while (writes.acknowledged.length < 20) await Bun.sleep(20)

    const startedAt = performance.now()
    const before = writes.acknowledged.filter((w) => w.at < startedAt).map((w) => w.id)
    const out = tempDir('backups')
    const made = await brokernet(['backup', out], { DATA_DIR: server.dataDir })
    const countDuring = writes.acknowledged.length
    await writes.stop()
    expect(outcome(made)).toEqual({ code: 0, err: '' })
    expect(made.out).toMatch(/^Backup written: .*brokernet-.*\.tar\.gz \(.*sqlite, \d+ rows in \d+ tables, \d+ identity documents\)/)
    // The writer went on while the backup ran (it is online), and answered more after.
    expect(writes.acknowledged.length).toBeGreaterThan(before.length)
    expect(countDuring).toBeGreaterThan(before.length)
    archive = join(out, readdirSync(out)[0]!)
    expect(readdirSync(out)).toHaveLength(1) // no partial files left beside it

    // The archive is a plain tar.gz whose first entry is the manifest.
    const listing = Bun.spawnSync(['tar', 'tzf', archive]).stdout.toString().trim().split('\n')
    expect(listing[0]).toBe('manifest.json')
    expect(listing[1]).toBe('database/brokernet.db')
    expect(listing.filter((l) => l.startsWith('documents/')).length).toBeGreaterThan(0)

    const target = tempDir('restored')
    const restored = await brokernet(['restore', archive], { DATA_DIR: target })
    expect(outcome(restored)).toEqual({ code: 0, err: '' })
    expect(restored.out).toContain('identity documents, checked.')

    const db = join(target, 'brokernet.db')
    expect(integrityCheck(db)).toBe('ok')
    const present = ids(db, 'listings')
    expect(before.filter((id) => !present.has(id))).toEqual([])
    // Every identity document the restored users refer to is there, byte for byte as in the live DATA_DIR.
    const docs = readDb(db, (d) => (d.query('select id_card_document from users where id_card_document is not null').values() as [string][]).map((r) => r[0]))
    expect(docs.length).toBeGreaterThan(0)
    for (const name of docs) expect(readFileSync(join(target, 'documents', name)).equals(readFileSync(join(server.dataDir, 'documents', name)))).toBe(true)
    // The command recorded its run in the live database.
    const runs = readDb(join(server.dataDir, 'brokernet.db'), (d) => d.query('select status, trigger, file from backup_runs').all())
    expect(runs).toEqual([{ status: 'OK', trigger: 'COMMAND', file: archive }])

    // The restored copy serves: the broker signs in, a listing written before the backup is there, and the admin
    // downloads a document.
    const again = await start({}, target)
    const brokerAgain = await login(again.url, BROKER)
    expect((await fetch(`${again.url}/api/listings/${before.at(-1)}`, { headers: bearer(brokerAgain) })).status).toBe(200)
    const admin = await adminSession(again.url)
    const owner = readDb(db, (d) => d.query('select id, id_card_document as doc from users where id_card_document is not null limit 1').get() as { id: number; doc: string })
    const download = await fetch(`${again.url}/api/users/${owner.id}/id-card`, { headers: bearer(admin) })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(readFileSync(join(server.dataDir, 'documents', owner.doc)))).toBe(true)
    await stop(again)
  }, 180_000)

  test('restore refuses a DATA_DIR that holds data, a running server, and damaged or foreign archives, and changes nothing', async () => {
    const live = { DATA_DIR: server.dataDir }
    const listingsBefore = ids(join(server.dataDir, 'brokernet.db'), 'listings').size

    const full = await brokernet(['restore', archive], live)
    expect(full.code).toBe(1)
    expect(full.err).toContain('Restore refused: DATA_DIR')
    expect(full.err).toContain('already holds a database and identity documents')
    const running = await brokernet(['restore', archive, '--force'], live)
    expect(running.code).toBe(1)
    expect(running.err).toContain('open: stop it first')
    expect(ids(join(server.dataDir, 'brokernet.db'), 'listings').size).toBeGreaterThanOrEqual(listingsBefore)
    expect(readdirSync(server.dataDir).filter((n) => n.startsWith('.restore-') || n.startsWith('replaced-'))).toEqual([])

    expect((await brokernet(['restore'], live)).code).toBe(2)
    expect((await brokernet(['frobnicate'], live)).code).toBe(2)

    // Damaged in the middle: gzip's own check or the manifest's SHA-256 finds it; the empty DATA_DIR stays empty.
    const damaged = join(tempDir('damaged'), 'damaged.tar.gz')
    const bytes = readFileSync(archive)
    for (let i = 0; i < 64; i++) bytes[Math.floor(bytes.length / 2) + i] ^= 0xff
    writeFileSync(damaged, bytes)
    const empty = tempDir('empty')
    const bad = await brokernet(['restore', damaged], { DATA_DIR: empty })
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/^Restore failed: .*cannot be restored/)
    expect(readdirSync(empty)).toEqual([])

    // Cut short: the end is missing.
    const cut = join(tempDir('cut'), 'cut.tar.gz')
    writeFileSync(cut, readFileSync(archive).subarray(0, Math.floor(bytes.length * 0.8)))
    const short = await brokernet(['restore', cut], { DATA_DIR: empty })
    expect(short.code).toBe(1)
    expect(readdirSync(empty)).toEqual([])

    // An archive whose entries climb out of DATA_DIR, or that a newer Brokernet wrote, or of the other backend.
    const craft = async (manifest: object, extra: { name: string; text: string }[] = []) => {
      const dir = tempDir('craft')
      writeFileSync(join(dir, 'm'), JSON.stringify(manifest))
      const sources = [{ name: 'manifest.json', path: join(dir, 'm'), bytes: statSync(join(dir, 'm')).size }]
      extra.forEach((e, i) => {
        writeFileSync(join(dir, `e${i}`), e.text)
        sources.push({ name: e.name, path: join(dir, `e${i}`), bytes: e.text.length })
      })
      await writeTarGz(join(dir, 'a.tar.gz'), sources)
      return join(dir, 'a.tar.gz')
    }
    const real = JSON.parse(Bun.spawnSync(['tar', 'xzOf', archive, 'manifest.json']).stdout.toString())
    const evil = await craft({ ...real, files: [...real.files, { name: '../../evil.txt', bytes: 4, sha256: '0'.repeat(64) }] }, [{ name: '../../evil.txt', text: 'evil' }])
    const climbing = await brokernet(['restore', evil], { DATA_DIR: empty })
    expect(climbing.code).toBe(1)
    expect(climbing.err).toContain('which its manifest does not list')
    expect(existsSync(join(empty, '..', '..', 'evil.txt'))).toBe(false)
    const newer = await brokernet(['restore', await craft({ ...real, version: '9.0.0', migrations: { ...real.migrations, lastWhen: 4_102_444_800_000 } })], {
      DATA_DIR: empty,
    })
    expect(newer.code).toBe(1)
    expect(newer.err).toContain('written by Brokernet 9.0.0, whose database is newer than this version knows')
    const other = await brokernet(['restore', archive], { DATA_DIR: empty, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
    expect(other.code).toBe(1)
    expect(other.err).toContain('this is a backup of a SQLite database: unset DATABASE_URL')
    const notOurs = await brokernet(['restore', await craft({ hello: 'world' })], { DATA_DIR: empty })
    expect(notOurs.code).toBe(1)
    expect(notOurs.err).toContain('not a Brokernet backup')
    expect(readdirSync(empty)).toEqual([])

    // Stopped, --force replaces the data and keeps what was there aside.
    await stop(server)
    const forced = await brokernet(['restore', archive, '--force'], live)
    expect(outcome(forced)).toEqual({ code: 0, err: '' })
    const aside = /What was there before is in (\S+)/.exec(forced.out)?.[1]
    expect(aside).toBeDefined()
    expect(readdirSync(aside!).sort()).toContain('brokernet.db')
    expect(ids(join(aside!, 'brokernet.db'), 'listings').size).toBeGreaterThan(ids(join(server.dataDir, 'brokernet.db'), 'listings').size)
    expect(integrityCheck(join(server.dataDir, 'brokernet.db'))).toBe('ok')
  }, 120_000)

  test('BACKUP_EVERY writes backups on schedule and keeps the newest BACKUP_KEEP; a failing one is logged and recorded, and the server goes on', async () => {
    const dir = tempDir('scheduled')
    writeFileSync(join(dir, 'notes.txt'), 'not a backup: never removed')
    writeFileSync(join(dir, 'brokernet-2001-01-01T00-00-00-000Z.tar.gz'), 'an old one of ours')
    const blocked = join(tempDir('blocked'), 'a-file')
    writeFileSync(blocked, 'BACKUP_DIR cannot be a folder here')
    const [ok, failing] = await Promise.all([
      start({ BACKUP_EVERY: '10s', BACKUP_KEEP: '2', BACKUP_DIR: dir }),
      start({ BACKUP_EVERY: '10s', BACKUP_DIR: blocked }),
    ])
    expect(ok.output()).toContain(`Backups: every 10s into ${dir}, keeping the newest 2`)
    const runs = (s: RunningServer) =>
      readDb(join(s.dataDir, 'brokernet.db'), (d) => d.query('select status, trigger, file, error from backup_runs order by id').all()) as {
        status: string
        trigger: string
        file: string | null
        error: string | null
      }[]
    await eventually('three scheduled backups written', () => runs(ok).filter((r) => r.status === 'OK').length >= 3, 120_000, 250)
    // Stopped (it waits for a run in flight), so that no fourth backup lands between reading the runs and the folder.
    await stop(ok)
    const done = runs(ok).filter((r) => r.status === 'OK')
    expect(done.every((r) => r.trigger === 'SCHEDULE')).toBe(true)
    const kept = readdirSync(dir).filter((n) => n.startsWith('brokernet-')).sort()
    expect(kept).toEqual(done.slice(-2).map((r) => r.file!.split('/').at(-1)!).sort())
    expect(readdirSync(dir)).toContain('notes.txt')

    const failed = runs(failing)
    expect(failed.length).toBeGreaterThan(0)
    expect(failed[0]).toMatchObject({ status: 'FAILED', trigger: 'SCHEDULE' })
    expect(failed[0]!.error).toBeTruthy()
    expect(failing.output()).toContain('"msg":"backup failed"')
    expect((await fetch(`${failing.url}/api/health`)).status).toBe(200)
    await stop(failing)
  }, 240_000)
})

// Without PostgreSQL installed it fails, saying so (tests/support/postgres.ts), as every PostgreSQL suite does.
describe('PostgreSQL', () => {
  test('pg_dump of a live database restores into an empty one, checked by its counts; a database in use or not empty is refused', async () => {
    const cluster = await sharedCluster()
    const [source, target] = [await cluster.createDatabase(), await cluster.createDatabase()]
    const server = await start({ DATABASE_URL: source })
    const token = await login(server.url, BROKER)
    const writes = writer(server.url, token)
    while (writes.acknowledged.length < 10) await Bun.sleep(20)
    const startedAt = performance.now()
    const before = writes.acknowledged.filter((w) => w.at < startedAt).map((w) => w.id)
    const out = tempDir('pg-backups')
    const made = await brokernet(['backup', out], { DATA_DIR: server.dataDir, DATABASE_URL: source })
    await writes.stop()
    expect(outcome(made)).toEqual({ code: 0, err: '' })
    expect(made.out).toContain('postgres,')
    const archive = join(out, readdirSync(out)[0]!)
    expect(Bun.spawnSync(['tar', 'tzf', archive]).stdout.toString().trim().split('\n')).toEqual(['manifest.json', 'database/postgres.dump'])

    const busy = await brokernet(['restore', archive], { DATA_DIR: tempDir('pg-r'), DATABASE_URL: source })
    expect(busy.code).toBe(1)
    expect(busy.err).toContain('other connection(s) are open on this database')

    const restored = await brokernet(['restore', archive], { DATA_DIR: tempDir('pg-r'), DATABASE_URL: target })
    expect(outcome(restored)).toEqual({ code: 0, err: '' })
    const again = await start({ DATABASE_URL: target })
    const broker = await login(again.url, BROKER)
    for (const id of before.slice(-5)) expect((await fetch(`${again.url}/api/listings/${id}`, { headers: bearer(broker) })).status).toBe(200)
    const admin = await adminSession(again.url)
    const users = await (await fetch(`${again.url}/api/users?role=BROKER`, { headers: bearer(admin) })).json()
    const withDocument = users.users.find((u: { id_card_document_url: string | null }) => u.id_card_document_url)
    expect(withDocument).toBeDefined()
    const document = await fetch(`${again.url}${withDocument.id_card_document_url}`, { headers: bearer(admin) })
    expect(document.status).toBe(200)
    expect((await document.arrayBuffer()).byteLength).toBeGreaterThan(100)
    await stop(again)
    // Not empty any more: refused without --force.
    const full = await brokernet(['restore', archive], { DATA_DIR: tempDir('pg-r'), DATABASE_URL: target })
    expect(full.code).toBe(1)
    expect(full.err).toContain('already holds tables')
    await stop(server)
  }, 180_000)
})
