import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { createTestApp, ON_POSTGRES } from '../support/app'
import { signIn, type SignedIn } from '../support/auth'
import { auditTrail, seedPlace } from '../support/fixtures'

// The system screen's API (issue 19): the master admin's view of the installation, and Backup now. In process the
// backup runs in the test's process; against the binary, in a child process of it.
const METRICS_TOKEN = 'system-test-metrics-token'
const h = await createTestApp({ METRICS_TOKEN })
afterAll(() => h.close())
let master: SignedIn
let moduleAdmin: SignedIn
let broker: SignedIn

beforeAll(async () => {
  const place = await seedPlace(h.ctx.db, ['Alpha'])
  master = await signIn(h.ctx.db, 'MASTER_ADMIN', { cityId: null, fullName: 'Mona Master' })
  moduleAdmin = await signIn(h.ctx.db, 'MODULE_ADMIN', { cityId: place.cities[0]!.id })
  broker = await signIn(h.ctx.db, 'BROKER', { cityId: place.cities[0]!.id })
})

/** One unlabelled sample of /metrics, or undefined when the metric has none. */
async function metric(app: typeof h, name: string): Promise<number | undefined> {
  const res = await app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(res.status).toBe(200)
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.split(' ')[1])
}

const status = async (as: SignedIn = master) => {
  const res = await h.request('/api/system', { headers: as.bearer })
  expect(res.status).toBe(200)
  return res.json()
}

describe('GET /api/system', () => {
  test('tells the master admin the version, the database, the backups, the outbox and the caches', async () => {
    expect(await metric(h, 'brokernet_backup_age_seconds')).toBeUndefined() // no backup yet
    const s = await status()
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(s.uptime_s).toBeGreaterThanOrEqual(0)
    expect(s.database.backend).toBe(ON_POSTGRES ? 'postgres' : 'sqlite')
    expect(s.database.bytes).toBeGreaterThan(10_000)
    if (ON_POSTGRES) expect(s.database.location).not.toContain(':***@') // these test URLs carry no password
    else expect(s.database.location).toBe(h.config.databasePath)
    expect(s.backups).toMatchObject({ dir: h.config.backupDir, every: null, keep: 7, last_good: null, age_s: null, runs: [] })
    expect(s.outbox).toEqual({ pending: 0, failed: 0, last_failures: [] })
    // Signing in and this request looked sessions up: the caches have counted.
    expect(s.cache.hits + s.cache.misses).toBeGreaterThan(0)
    expect(s.cache.hit_ratio).toBeGreaterThanOrEqual(0)
    expect(s.event_streams).toBe(0)
  })

  test('shows the outbox backlog and its newest failures', async () => {
    const now = Date.now()
    await h.ctx.db.run(
      "insert into mail_outbox (to_address, subject, text_body, status, attempts, last_error, created_at) values ('a@example.com', 'Given up', 'x', 'FAILED', 5, 'connection refused', ?), ('b@example.com', 'Retrying', 'x', 'PENDING', 1, '421 try later', ?)",
      [now, now + 1],
    )
    const s = await status()
    expect(s.outbox.pending).toBe(1)
    expect(s.outbox.failed).toBe(1)
    expect(s.outbox.last_failures.map((f: { subject: string; error: string; status: string }) => [f.subject, f.error, f.status])).toEqual([
      ['Retrying', '421 try later', 'PENDING'],
      ['Given up', 'connection refused', 'FAILED'],
    ])
    // Addresses are not on the screen: a failure says what and why, not to whom.
    expect(JSON.stringify(s.outbox)).not.toContain('example.com')
    await h.ctx.db.run('delete from mail_outbox')
  })

  test('is for the master admin only', async () => {
    expect((await h.request('/api/system')).status).toBe(401)
    expect((await h.request('/api/system', { headers: moduleAdmin.bearer })).status).toBe(403)
    expect((await h.request('/api/system', { headers: broker.bearer })).status).toBe(403)
    expect((await h.request('/api/system/backups', { method: 'POST', headers: moduleAdmin.browser })).status).toBe(403)
    expect((await h.request('/api/system/backups', { method: 'POST', headers: broker.browser })).status).toBe(403)
  })
})

describe('Backup now', () => {
  test('starts a backup that the screen then shows written, with its file, and an audit event', async () => {
    const res = await h.request('/api/system/backups', { method: 'POST', headers: master.browser })
    expect(res.status).toBe(202)
    const { id } = await res.json()
    let s = await status()
    const deadline = Date.now() + 60_000
    while (s.backups.runs[0]?.status === 'RUNNING' && Date.now() < deadline) {
      await Bun.sleep(100)
      s = await status()
    }
    const run = s.backups.runs[0]
    expect(run).toMatchObject({ id, trigger: 'MANUAL', status: 'OK', error: null })
    expect(run.file.startsWith(h.config.backupDir + '/')).toBe(true)
    expect(run.file).toMatch(/brokernet-.*\.tar\.gz$/)
    expect(existsSync(run.file)).toBe(true)
    expect(run.bytes).toBeGreaterThan(1000)
    expect(s.backups.last_good.id).toBe(id)
    expect(s.backups.age_s).toBeGreaterThanOrEqual(0)
    const listing = Bun.spawnSync(['tar', 'tzf', run.file]).stdout.toString().trim().split('\n')
    expect(listing[0]).toBe('manifest.json')
    expect(listing[1]).toBe(ON_POSTGRES ? 'database/postgres.dump' : 'database/brokernet.db')
    expect(await auditTrail(h.ctx.db, { action: 'backup.create', entityId: id })).toHaveLength(1)
    // /metrics tells a monitor the same: a backup seconds old, and no failure.
    const age = await metric(h, 'brokernet_backup_age_seconds')
    expect(age).toBeGreaterThanOrEqual(0)
    expect(age).toBeLessThan(60)
    expect(await metric(h, 'brokernet_backup_last_failed')).toBe(0)
  }, 90_000)

  test('while another backup runs it answers 409, and starts again once that one is over', async () => {
    // A backup under way elsewhere (`brokernet backup` by hand, or another instance): a RUNNING run.
    const { rows } = await h.ctx.db.run<{ id: number }>(
      "insert into backup_runs (trigger, status, started_at) values ('COMMAND', 'RUNNING', ?) returning id",
      [Date.now() - 1000],
    )
    const busy = await h.request('/api/system/backups', { method: 'POST', headers: master.browser })
    expect(busy.status).toBe(409)
    expect((await busy.json()).detail).toMatch(/^A backup is already running \(started \d{4}-/)
    // One left RUNNING for over an hour died with its process: it holds nothing back any more.
    await h.ctx.db.run('update backup_runs set started_at = ? where id = ?', [Date.now() - 2 * 3600_000, rows[0]!.id])
    const s = await status()
    expect(s.backups.runs.find((r: { id: number }) => r.id === Number(rows[0]!.id)).status).toBe('INTERRUPTED')
    const again = await h.request('/api/system/backups', { method: 'POST', headers: master.browser })
    expect(again.status).toBe(202)
    const { id } = await again.json()
    const deadline = Date.now() + 60_000
    while ((await status()).backups.runs.find((r: { id: number }) => r.id === id).status === 'RUNNING' && Date.now() < deadline) await Bun.sleep(100)
    expect((await status()).backups.runs.find((r: { id: number }) => r.id === id).status).toBe('OK')
  }, 90_000)

  test('a backup that cannot be written is recorded as failed with its reason, and the app goes on', async () => {
    const blocked = await createTestApp({ BACKUP_DIR: '/proc/brokernet-cannot-write-here', METRICS_TOKEN })
    try {
      const admin = await signIn(blocked.ctx.db, 'MASTER_ADMIN', { cityId: null })
      const res = await blocked.request('/api/system/backups', { method: 'POST', headers: admin.browser })
      expect(res.status).toBe(202)
      const { id } = await res.json()
      const read = async () => (await (await blocked.request('/api/system', { headers: admin.bearer })).json()).backups.runs.find((r: { id: number }) => r.id === id)
      const deadline = Date.now() + 60_000
      while ((await read()).status === 'RUNNING' && Date.now() < deadline) await Bun.sleep(100)
      const run = await read()
      expect(run.status).toBe('FAILED')
      expect(run.error).toBeTruthy()
      expect((await blocked.request('/api/health')).status).toBe(200)
      expect(await metric(blocked, 'brokernet_backup_last_failed')).toBe(1)
      expect(await metric(blocked, 'brokernet_backup_age_seconds')).toBeUndefined()
    } finally {
      await blocked.close()
    }
  }, 90_000)
})
