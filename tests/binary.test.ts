import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { closeDatabase, openDatabase } from '../db/client'
import { signIn, withJson } from './support/auth'
import { seedPlace } from './support/fixtures'
import { startPushService } from './support/push-service'
import { startServer, type RunningServer } from './support/server'
import { eventually } from './support/eventually'

// Builds dist/brokernet, copies it ALONE into an empty folder (no node_modules, no sources) and runs it there.
const root = new URL('..', import.meta.url).pathname
let server: RunningServer
let dir: string

beforeAll(async () => {
  // `bun run test` builds it once for this file and the API suites' HTTP run (BROKERNET_BUILT); alone, this file builds.
  let built = process.env.BROKERNET_BUILT
  if (!built) {
    const build = Bun.spawnSync([process.execPath, 'scripts/build-binary.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`)
    built = join(root, 'dist/brokernet')
  }
  dir = mkdtempSync(join(tmpdir(), 'brokernet-bin-'))
  copyFileSync(built, join(dir, 'brokernet'))
  Bun.spawnSync(['chmod', '+x', join(dir, 'brokernet')])
  server = await startServer({ command: [join(dir, 'brokernet')], cwd: dir, env: { DEMO_DATA: '1', NODE_ENV: '', PUSH_ALLOW_HOSTS: '127.0.0.1', READ_THREADS: '2' } })
}, 240_000)

afterAll(async () => {
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('the binary alone serves a page, its script, its CSS and the API document', async () => {
  const landing = await fetch(server.url + '/')
  expect(landing.status).toBe(200)
  const css = /href="(\/assets\/app-[^"]+\.css)"/.exec(await landing.text())?.[1]
  expect(css).toBeDefined()
  const cssRes = await fetch(server.url + css)
  expect(cssRes.headers.get('content-type')).toContain('text/css')
  expect((await cssRes.text()).length).toBeGreaterThan(1000)

  const login = await (await fetch(server.url + '/login')).text()
  const script = /<script type="module" src="([^"]+)"/.exec(login)?.[1]
  expect(script).toBeDefined()
  const js = await fetch(server.url + script)
  expect(js.headers.get('content-type')).toContain('javascript')
  expect((await js.text()).length).toBeGreaterThan(10_000)

  const doc = await (await fetch(server.url + '/swagger/json')).json()
  expect(Object.keys(doc.paths)).toContain('/api/health')
  const swagger = await (await fetch(server.url + '/swagger')).text()
  for (const asset of swagger.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) expect((await fetch(server.url + asset[1])).status).toBe(200)
})

test('the binary migrated its database, created the admin and loaded demo data in DATA_DIR', async () => {
  expect(statSync(join(server.dataDir, 'brokernet.db')).size).toBeGreaterThan(0)
  expect(server.output()).toContain('Master admin created: admin@brokernet.local / ')
  expect(server.output()).toMatch(/Demo data loaded: \d+ cities/)
  const health = await (await fetch(server.url + '/api/health')).json()
  expect(health.database.ok).toBe(true)
})

test('the binary answers an unknown API path with a JSON 404 that does not echo the request', async () => {
  const res = await fetch(server.url + '/api/nothing-here', { method: 'POST', body: '{"password":"hunter2"}' })
  expect(res.status).toBe(404)
  expect(await res.text()).not.toContain('hunter2')
})

test('the binary writes one JSON line per request to stdout, with the request id it answered', async () => {
  const res = await fetch(server.url + '/api/health?secret=s3cr3t-q', { headers: { 'x-request-id': 'binary-check-1' } })
  expect(res.headers.get('x-request-id')).toBe('binary-check-1')
  const line = await eventually('its log line', () =>
    server.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)).find((l) => l.request_id === 'binary-check-1'),
  20_000)
  expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/api/health', status: 200, user_id: null })
  expect(server.output()).not.toContain('s3cr3t-q')
})

test('the binary alone encrypts and signs a push message (web-push inside it) with the VAPID key its first start made', async () => {
  // The key the server serves, as its first start stored it (read from the file, as another process would).
  const served = () => {
    const db = new Database(join(server.dataDir, 'brokernet.db'), { readonly: true })
    try {
      return JSON.parse(db.query<{ value: string }, []>("select value from app_secrets where name = 'vapid'").get()!.value).publicKey as string
    } finally {
      db.close()
    }
  }
  const service = await startPushService({ vapidPublicKey: served })
  try {
    const sub = await service.subscribe()
    const check = Bun.spawn([join(dir, 'brokernet'), 'push-check', sub.endpoint, sub.keys.p256dh, sub.keys.auth, '--json'], {
      cwd: dir,
      env: { ...process.env, DATA_DIR: server.dataDir, PUSH_ALLOW_HOSTS: '127.0.0.1', NODE_ENV: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr] = await Promise.all([new Response(check.stdout).text(), new Response(check.stderr).text()])
    expect(await check.exited, stderr).toBe(0)
    expect(JSON.parse(stdout.trim())).toEqual({ ok: true, status: 201, publicKey: served() })
    expect(service.refused).toEqual([])
    const [got] = service.delivered(sub)
    expect(JSON.parse(got!.payload)).toEqual({ title: 'Brokernet', body: 'Push alerts reach this device.', url: '/', tag: 'push-check' })
    expect(got!.claims.aud).toBe(service.origin)
  } finally {
    await service.stop()
  }
})

test('the binary alone sends a match alert from its push thread (a second entry point inside it), and /metrics counts it', async () => {
  const file = openDatabase(join(server.dataDir, 'brokernet.db'), { migrate: false })
  const served = async () => (await (await fetch(server.url + '/api/notifications/key', { headers: asha.bearer })).json()).public_key as string
  const place = await seedPlace(file, ['Nashik'])
  const [asha, ravi] = [await signIn(file, 'BROKER', { cityId: place.cities[0]!.id }), await signIn(file, 'BROKER', { cityId: place.cities[0]!.id })]
  closeDatabase(file, { checkpoint: false })
  const service = await startPushService({ vapidPublicKey: served })
  const send = (path: string, body: unknown, method = 'POST') => fetch(server.url + path, withJson({ ...asha.bearer }, body, method))
  try {
    const sub = await service.subscribe()
    expect((await send('/api/notifications/devices', { endpoint: sub.endpoint, keys: sub.keys })).status).toBe(201)
    expect((await send('/api/notifications/settings', { quiet_hours: null }, 'PUT')).status).toBe(200)
    const listing = { sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Binary Push Flat', budget: 40_000 }
    expect((await send('/api/listings', { ...listing, post_type: 'REQ' })).status).toBe(201)
    const theirs = await fetch(server.url + '/api/listings', withJson(ravi.bearer, { ...listing, post_type: 'AVL' }))
    expect(theirs.status).toBe(201)
    const [alert] = await eventually('the match alert at the stand-in', () => service.delivered(sub).length > 0 && service.delivered(sub), 30_000)
    expect(JSON.parse(alert!.payload)).toMatchObject({ title: expect.stringContaining('New match'), url: '/dashboard/matches' })
    expect(service.refused).toEqual([])
    // The thread's outcome reaches the server's counters (sent in batches, a quarter of a second apart).
    const sent = await eventually('the sent count', async () => /^brokernet_push_messages_total\{result="sent"\} 1$/m.test(await (await fetch(server.url + '/metrics')).text()), 20_000)
    expect(sent).toBe(true)
    expect(server.output()).not.toContain('sender thread failed')
  } finally {
    await service.stop()
  }
})

test('the binary alone answers SQLite reads from its read threads (their code inside it), and /metrics counts them', async () => {
  const file = openDatabase(join(server.dataDir, 'brokernet.db'), { migrate: false })
  const place = await seedPlace(file, ['Thread Town'])
  const broker = await signIn(file, 'BROKER', { cityId: place.cities[0]!.id })
  closeDatabase(file, { checkpoint: false })
  const reads = async () => Number(/^brokernet_sqlite_thread_reads_total (\d+)$/m.exec(await (await fetch(server.url + '/metrics')).text())?.[1] ?? -1)
  const before = await reads()
  expect(before).toBeGreaterThanOrEqual(0)
  const listing = { post_type: 'AVL', sale_or_rent: 'RENT', contact_value: '9876543210', property_type: 'Thread Read Flat', budget: 41_000 }
  expect((await fetch(server.url + '/api/listings', withJson(broker.bearer, listing))).status).toBe(201)
  // A filter nobody has asked for: its count and page are read cold, on a thread, and show the listing just written.
  const page = await (await fetch(server.url + '/api/listings?search=Thread%20Read&sale_or_rent=RENT', { headers: broker.bearer })).json()
  expect(page.listings.map((l: { property_type: string }) => l.property_type)).toContain('Thread Read Flat')
  // Any process may answer the scrape; it adds up every process's count.
  expect(await eventually('the threads\' reads counted', async () => (await reads()) > before, 20_000)).toBe(true)
  expect(server.output()).not.toContain('read thread failed')
})

test('SIGTERM stops it cleanly', async () => {
  const code = await server.stop()
  expect(code).toBe(0)
  expect(server.output()).toContain('Stopped')
  server = undefined as unknown as RunningServer
})
