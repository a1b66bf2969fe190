// Photo stores side by side (docs/decisions/047-photo-storage.md): the time to write and to read a thumbnail-sized
// (11 KB) and a large-sized (77 KB) photo file in DATA_DIR/photos and in an S3 bucket through Bun's client. The bucket
// is the stand-in S3 service (tests/support/s3-service.ts) in a process of its own on loopback, so the figure is the
// client's own cost (signing, HTTP, the deadline) with no network; a real bucket adds its round trip. Interleaved
// rounds, medians. `bun scripts/bench-photo-store.ts [--rounds 400]`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DiskPhotoStore, S3PhotoStore, type PhotoStore } from '../src/platform/photo-store'

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 0) || 400
const root = new URL('..', import.meta.url).pathname

// The stand-in in a process of its own: its answers do not share this process's event loop.
const standIn = Bun.spawn(
  [process.execPath, '-e', `import { startS3Service } from '${root}tests/support/s3-service.ts'; const s = startS3Service(); console.log(JSON.stringify(s.env('bench'))); setInterval(() => {}, 1 << 30)`],
  { stdout: 'pipe', stderr: 'inherit' },
)
const reader = standIn.stdout.getReader()
let line = ''
while (!line.includes('\n')) line += new TextDecoder().decode((await reader.read()).value)
const env = JSON.parse(line)
const s3 = new S3PhotoStore({
  bucket: env.S3_BUCKET,
  endpoint: env.S3_ENDPOINT,
  region: env.S3_REGION,
  accessKeyId: env.S3_ACCESS_KEY_ID,
  secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  virtualHostedStyle: false,
  prefix: 'photos/',
  timeoutMs: 5000,
})
const dir = mkdtempSync(join(tmpdir(), 'bench-photo-store-'))
const disk = new DiskPhotoStore(join(dir, 'photos'))

const filler = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255)
const files = { thumb: filler(11 * 1024), large: filler(77 * 1024) }
const nameOf = (bytes: Uint8Array, i: number) => `${new Bun.CryptoHasher('sha256').update(bytes).update(String(i)).digest('hex').slice(0, 32)}.webp`

const times: Record<string, number[]> = {}
const note = (key: string, ms: number) => (times[key] ??= []).push(ms)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

for (let i = 0; i < rounds; i++)
  for (const [storeName, store] of (i % 2 ? [['s3', s3], ['disk', disk]] : [['disk', disk], ['s3', s3]]) as [string, PhotoStore][])
    for (const [size, bytes] of Object.entries(files)) {
      const name = nameOf(bytes, i)
      let t0 = performance.now()
      await store.save(name, bytes)
      note(`${storeName} write ${size}`, performance.now() - t0)
      t0 = performance.now()
      const blob = await store.read(name)
      await blob!.bytes()
      note(`${storeName} read ${size}`, performance.now() - t0)
    }

console.log(`${rounds} rounds, interleaved; medians in ms`)
for (const key of Object.keys(times).sort()) console.log(`${key.padEnd(20)} ${median(times[key]!).toFixed(3)}`)
standIn.kill()
rmSync(dir, { recursive: true, force: true })
