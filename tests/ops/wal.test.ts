// The write-ahead log stays bounded under steady writes (issue 29, docs/decisions/030-wal.md). The binary with two
// processes on the demo network: writers post listings without pause and readers list and search meanwhile, both
// spread over the two processes, until 128 MB have gone through the log (twice the bound: a log that never starts over
// would hold it all). The log file stays at most 64 MB all along, and once the writes stop it is cut back to (nearly)
// nothing while the readers go on. Before the fix the log never started over under such a load (418 MB after 40 s at
// 50 listings/s, 1.7 GB after 75 s at 120/s) and kept its size when the writes stopped.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FRAME_BYTES, MB, mb } from '../../scripts/bench-wal'
import { walSize, WalWatch } from '../../scripts/wal-files'
import { currentBinary } from '../support/builds'
import { childrenOf, listensOn } from '../support/process-tree'
import { startServer, type RunningServer } from '../support/server'
import { integrityCheck } from '../support/sqlite-rows'

const BROKER = { email: 'rahul.sharma@brokernet.example', password: 'Demo@12345' } // a demo broker (DEMO_DATA=1)
const BOUND = 64 * MB
/** What goes through the log before the bound is judged. */
const THROUGH = 2 * BOUND
/** Nearly nothing: the odd write of the server's own timers may land in the log meanwhile. */
const CUT_BACK = 4 * MB
const WRITERS = 6
const READERS = 6
const WORDS = ['apartment', 'bhk', 'office', 'shop', 'villa', 'andheri', 'rent', 'sale']

let binary: { path: string; cleanup: () => void }
let dataDir: string
let server: RunningServer | undefined

beforeAll(() => {
  binary = currentBinary()
  dataDir = mkdtempSync(join(tmpdir(), 'brokernet-wal-'))
}, 240_000)

afterAll(async () => {
  if (server && server.proc.exitCode === null) {
    server.proc.kill('SIGTERM')
    await server.proc.exited
  }
  binary?.cleanup()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function until(ok: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!ok()) {
    if (Date.now() > deadline) return false
    await Bun.sleep(20)
  }
  return true
}

/**
 * `lanes` loops, each sending one request after another until stopped; answers other than 2xx are collected. A
 * connection per request: with two processes the kernel spreads connections, not requests, over them.
 */
function lanes(count: number, request: (lane: number, n: number) => Promise<Response>) {
  let running = true
  const ms: number[] = []
  const unexpected: string[] = []
  const loop = async (lane: number) => {
    for (let n = 0; running; n++) {
      const t0 = performance.now()
      const res = await request(lane, n)
      const text = await res.text()
      if (res.status < 200 || res.status > 299) unexpected.push(`${res.status} ${text.slice(0, 200)}`)
      ms.push(performance.now() - t0)
    }
  }
  const done = Promise.all(Array.from({ length: count }, (_, lane) => loop(lane)))
  return {
    unexpected,
    /** How many answered so far, their median and slowest time. */
    summary: () => {
      const sorted = [...ms].sort((x, y) => x - y)
      return `${sorted.length} (median ${(sorted[sorted.length >> 1] ?? 0).toFixed(0)} ms, slowest ${(sorted.at(-1) ?? 0).toFixed(0)} ms)`
    },
    stop: async () => {
      running = false
      await done
    },
  }
}

test('under steady writes and reads in two processes the WAL stays ≤ 64 MB, and is cut back when the writes stop', async () => {
  server = await startServer({ command: [binary.path], cwd: dataDir, dataDir, env: { DEMO_DATA: '1', WORKERS: '2', NODE_ENV: '', DATABASE_URL: '' }, timeoutMs: 90_000 })
  const port = Number(new URL(server.url).port)
  expect(await until(() => childrenOf(server!.proc.pid).some((pid) => listensOn(pid, port)), 60_000)).toBe(true)
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BROKER) })
  expect(login.status).toBe(200)
  const headers = { authorization: `Bearer ${(await login.json()).token}`, connection: 'close' }
  const dbPath = join(dataDir, 'brokernet.db')

  const watch = new WalWatch(dbPath, 50).start()
  const readers = lanes(READERS, (lane, n) => {
    const word = WORDS[(lane + n) % WORDS.length]
    const page = 1 + (n % 4)
    const path = n % 3 === 0 ? `/api/listings/?per_page=25&page=${page}` : n % 3 === 1 ? `/api/listings/?per_page=25&page=${page}&search=${word}` : `/api/listings/zones?search=${word}`
    return fetch(server!.url + path, { headers })
  })
  const writers = lanes(WRITERS, (lane, n) =>
    fetch(`${server!.url}/api/listings`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      // Requirements and availabilities of one type and close budgets: each write also announces matches.
      body: JSON.stringify({
        post_type: (lane + n) % 2 ? 'AVL' : 'REQ',
        sale_or_rent: n % 3 ? 'RENT' : 'SALE',
        property_type: '2BHK',
        contact_value: '9820012345',
        budget: 20_000 + (n % 50) * 100,
        details: `WAL lane ${lane} write ${n} ${crypto.randomUUID()}`,
        confirm_duplicate: true,
      }),
    }),
  )
  const through = await until(() => watch.written * FRAME_BYTES >= THROUGH || writers.unexpected.length > 0 || readers.unexpected.length > 0, 300_000)
  await writers.stop()
  const duringWrites = { max: watch.maxBytes, written: watch.written * FRAME_BYTES, restarts: watch.restarts, seconds: watch.seconds(), writes: writers.summary(), reads: readers.summary() }
  // The readers go on: they must not keep the file from being cut back.
  const cut = await until(() => walSize(dbPath) <= CUT_BACK, 60_000)
  const afterPause = walSize(dbPath)
  await readers.stop()
  watch.stop()
  console.log(
    `${duringWrites.writes} writes and ${duringWrites.reads} reads; ${mb(duringWrites.written)} through the log in ${duringWrites.seconds.toFixed(0)} s, ` +
      `which started over ${duringWrites.restarts} times; WAL file at most ${mb(duringWrites.max)}, ${mb(afterPause)} after the writes stopped`,
  )

  expect(writers.unexpected).toEqual([])
  expect(readers.unexpected).toEqual([])
  expect(through).toBe(true)
  expect(duringWrites.max).toBeLessThanOrEqual(BOUND)
  expect(cut).toBe(true)

  server.proc.kill('SIGTERM')
  expect(await server.proc.exited).toBe(0)
  server = undefined
  expect(integrityCheck(dbPath)).toBe('ok')
}, 600_000)
