import { expect, test } from 'bun:test'
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { WORKER_ENV } from '../src/platform/processes'
import { startServer } from './support/server'

const root = new URL('..', import.meta.url).pathname

test('bad configuration stops the start with one line saying what to fix', () => {
  const run = Bun.spawnSync([process.execPath, 'src/server.ts'], { cwd: root, env: { ...process.env, PORT: 'eighty' }, stdout: 'pipe', stderr: 'pipe' })
  expect(run.exitCode).toBe(1)
  expect(run.stderr.toString().trim()).toBe('Configuration error: PORT must be a whole number from 0 to 65535, not "eighty"')
})

test('a first start creates the master admin from ADMIN_EMAIL/ADMIN_PASSWORD once, and a restart keeps it', async () => {
  const env = { ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'Owner@12345' }
  const first = await startServer({ env })
  expect(first.output()).toContain('Master admin created: owner@example.com (password from ADMIN_PASSWORD)')
  expect(first.output()).not.toContain('Owner@12345')
  expect(first.output()).not.toContain('Demo data loaded')
  const dataDir = first.dataDir
  first.proc.kill('SIGTERM')
  await first.proc.exited
  const second = await startServer({ env: { ...env, DEMO_DATA: '1' }, dataDir })
  // Not created again, and demo data only ever goes into a new database.
  expect(second.output()).toContain('Master admin: owner@example.com')
  expect(second.output()).not.toContain('Demo data loaded')
  expect(await second.stop()).toBe(0)
})

test('identity documents no user refers to are swept after the start, once the server answers (issue 36)', async () => {
  const first = await startServer({ env: { ADMIN_PASSWORD: 'Owner@12345' } })
  const dataDir = first.dataDir
  expect(await first.stop()).toBe(0)
  // A crash between a document's write and its user's row leaves such a file; two minutes old, and one just written.
  const documents = join(dataDir, 'documents')
  mkdirSync(documents, { recursive: true })
  const [orphan, fresh] = [join(documents, `${'a'.repeat(32)}.png`), join(documents, `${'b'.repeat(32)}.png`)]
  for (const path of [orphan, fresh]) writeFileSync(path, 'not referenced')
  const old = new Date(Date.now() - 120_000)
  utimesSync(orphan, old, old)
  const second = await startServer({ env: { ADMIN_PASSWORD: 'Owner@12345' }, dataDir })
  try {
    for (let i = 0; i < 250 && existsSync(orphan); i++) await Bun.sleep(20)
    expect(existsSync(orphan)).toBe(false)
    expect(existsSync(fresh)).toBe(true)
    expect(second.output()).toContain('Removed 1 identity document(s) that no user refers to')
  } finally {
    expect(await second.stop()).toBe(0)
  }
})

test('without ADMIN_PASSWORD a password is generated, printed once, and it satisfies the password rules', async () => {
  const s = await startServer()
  const password = /Master admin created: admin@brokernet\.local \/ (\S+)/.exec(s.output())?.[1]
  expect(password).toBeDefined()
  expect(password!.length).toBeGreaterThanOrEqual(12)
  for (const rule of [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/]) expect(password).toMatch(rule)
  await s.stop()
})

test('bun src/server.ts raises Bun\'s limit on request heads in a primary and a worker alike: a head of 1 MB is the JSON 431', async () => {
  // The binary carries the flag (tests/processes.test.ts); under bun each process sets it through node:http. A worker of
  // the same database on a port of its own, so each answer's process is known.
  const primary = await startServer()
  const worker = await startServer({ dataDir: primary.dataDir, env: { [WORKER_ENV]: '1', PORT: String(freePort()) }, banner: false })
  try {
    for (const s of [primary, worker]) {
      const res = await fetch(`${s.url}/api/health?pad=${'x'.repeat(1024 * 1024)}`)
      expect([s.url, res.status, (await res.json()).detail]).toEqual([s.url, 431, 'Request headers too large: the address and headers may be at most 16 KB together'])
      expect(s.output()).not.toContain('Could not raise')
    }
  } finally {
    worker.proc.kill('SIGTERM')
    await worker.proc.exited
    await primary.stop()
  }
})

function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
