// `bun run bench`: the foundation's speed and weight, measured in one run and reported as medians.
//  - the binary's size and its time from start to first answer (dist/brokernet, built if missing)
//  - the bytes of script and CSS the landing page downloads (raw and gzip)
//  - median latency of a page and of /api/health through app.handle
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestApp } from '../tests/support/app'

const root = new URL('..', import.meta.url).pathname
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const fmt = (ms: number) => `${ms.toFixed(ms < 1 ? 3 : 1)} ms`

// 1. Binary.
const binary = join(root, 'dist/brokernet')
if (!existsSync(binary)) {
  console.log('building dist/brokernet...')
  const b = Bun.spawnSync([process.execPath, 'run', 'build'], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
  if (b.exitCode !== 0) process.exit(1)
}
/** Milliseconds from spawning the binary to its first successful answer. */
async function timeStart(dataDir: string): Promise<number> {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const t0 = performance.now()
  const proc = Bun.spawn([binary], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench@12345' },
    stdout: 'ignore',
    stderr: 'ignore',
  })
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break
    } catch {}
    await Bun.sleep(2)
  }
  const ms = performance.now() - t0
  proc.kill('SIGTERM')
  await proc.exited
  return ms
}
// A first start creates the database and hashes the admin's password (argon2id, about 250 ms by design);
// every later start opens an existing database.
const firstStarts: number[] = []
const restarts: number[] = []
for (let i = 0; i < 7; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'brokernet-bench-'))
  firstStarts.push(await timeStart(dataDir))
  restarts.push(await timeStart(dataDir))
  rmSync(dataDir, { recursive: true, force: true })
}

// 2. Landing page weight and 3. in-process latency.
const h = createTestApp()
const landing = await (await h.request('/')).text()
const linked = [...landing.matchAll(/<(?:script[^>]*src|link[^>]*rel="stylesheet"[^>]*href)="([^"]+)"/g)].map((m) => m[1]!)
let raw = 0
let gz = 0
let scriptBytes = 0
for (const url of linked) {
  const r = await h.request(url)
  const bytes = (await r.arrayBuffer()).byteLength
  raw += bytes
  if (url.endsWith('.js')) scriptBytes += bytes
  gz += (await (await h.request(url, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer()).byteLength
}
const loginHtml = await (await h.request('/login')).text()
const clientUrl = /<script type="module" src="([^"]+)"/.exec(loginHtml)?.[1]
const client = clientUrl ? await h.request(clientUrl) : undefined
const clientRaw = client ? (await client.arrayBuffer()).byteLength : 0
const clientGz = clientUrl ? (await (await h.request(clientUrl, { headers: { 'accept-encoding': 'gzip' } })).arrayBuffer()).byteLength : 0

async function latency(path: string, n = 2000) {
  for (let i = 0; i < 200; i++) await (await h.request(path)).arrayBuffer()
  const xs: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await (await h.request(path)).arrayBuffer()
    xs.push(performance.now() - t0)
  }
  return median(xs)
}
const landingMs = await latency('/')
const healthMs = await latency('/api/health')
h.close()

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`
console.log('\nBrokernet benchmark (medians of one run)')
console.log(`  binary size                       ${(statSync(binary).size / 1024 / 1024).toFixed(1)} MB`)
console.log(`  binary start to first answer      ${fmt(median(restarts))} (existing database; 7 starts)`)
console.log(`  first start (new database)        ${fmt(median(firstStarts))} (migrations + admin password hash; 7 starts)`)
console.log(`  landing page downloads            ${kb(raw)} raw / ${kb(gz)} gzip (script ${kb(scriptBytes)}), ${linked.length} file(s)`)
console.log(`  island client (pages with forms)  ${kb(clientRaw)} raw / ${kb(clientGz)} gzip`)
console.log(`  GET / (server render)             ${fmt(landingMs)}`)
console.log(`  GET /api/health                   ${fmt(healthMs)}`)
