import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  server = await startServer({ command: [join(dir, 'brokernet')], cwd: dir, env: { DEMO_DATA: '1', NODE_ENV: '' } })
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

test('SIGTERM stops it cleanly', async () => {
  const code = await server.stop()
  expect(code).toBe(0)
  expect(server.output()).toContain('Stopped')
  server = undefined as unknown as RunningServer
})
