// Crash safety (issue 19): the server is killed with SIGKILL (no chance to finish anything) while a broker's writer has
// several listings in flight; started again on the same DATA_DIR, it has every listing it answered 201 for, and
// SQLite's integrity check says ok. Three rounds on one DATA_DIR, the middle one with two processes (WORKERS=2: the
// primary and its worker killed together).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { currentBinary } from '../support/builds'
import { alive, childrenOf, listensOn } from '../support/process-tree'
import { startServer, type RunningServer } from '../support/server'
import { integrityCheck } from '../support/sqlite-rows'

const BROKER = { email: 'rahul.sharma@brokernet.example', password: 'Demo@12345' } // a demo broker (DEMO_DATA=1)
/** Requests the writer keeps in flight at once. */
const IN_FLIGHT = 4

let binary: { path: string; cleanup: () => void }
let dataDir: string
let token = ''
/** Every listing answered 201 so far, over all rounds: its id and the details it was posted with. */
const acknowledged: { id: number; details: string }[] = []
let server: RunningServer | undefined

const start = (workers: number) =>
  startServer({ command: [binary.path], cwd: dataDir, dataDir, env: { DEMO_DATA: '1', WORKERS: String(workers), NODE_ENV: '', DATABASE_URL: '' }, timeoutMs: 90_000 })

/** SIGTERM and wait; the data stays (startServer's own stop removes DATA_DIR). */
async function stopGracefully(s: RunningServer) {
  s.proc.kill('SIGTERM')
  expect(await s.proc.exited).toBe(0)
}

/**
 * Posts listings with IN_FLIGHT requests always open until the server is gone; each 201 is recorded as it arrives.
 * `stop` resolves once every loop has ended (each ends on its first failed request: the server was killed).
 */
function startWriter(url: string, round: number) {
  let sent = 0
  let inFlight = 0
  const unexpected: string[] = []
  const loop = async (lane: number) => {
    for (;;) {
      const n = sent++
      // Words of their own, so the details identify the listing (and no two look like duplicates).
      const details = `Crash round ${round} lane ${lane} write ${n} ${crypto.randomUUID()}`
      inFlight++
      let res: Response
      try {
        res = await fetch(`${url}/api/listings`, {
          method: 'POST',
          // A connection per request: with WORKERS=2 the kernel spreads connections, not requests, over the processes.
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close' },
          body: JSON.stringify({
            post_type: n % 2 ? 'AVL' : 'REQ',
            sale_or_rent: n % 3 ? 'RENT' : 'SALE',
            property_type: '2BHK',
            contact_value: '9820012345',
            budget: 20_000 + n,
            details,
            confirm_duplicate: true,
          }),
        })
      } catch {
        return // the server is gone: this request may or may not have been written, and was not acknowledged
      } finally {
        inFlight--
      }
      const text = await res.text().catch(() => null)
      if (text === null) return // killed while the answer was on its way: not acknowledged either
      if (res.status === 201) acknowledged.push({ id: JSON.parse(text).id, details })
      else unexpected.push(`${res.status} ${text}`)
    }
  }
  const loops = Array.from({ length: IN_FLIGHT }, (_, lane) => loop(lane))
  return { inFlight: () => inFlight, unexpected, done: Promise.all(loops) }
}

/** Kills every process of the server at once: the primary first (it would restart a killed worker), then its workers. */
function killAll(s: RunningServer): number[] {
  const pids = [s.proc.pid, ...childrenOf(s.proc.pid)]
  for (const pid of pids) process.kill(pid, 'SIGKILL')
  return pids
}

async function until(what: string, ok: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`)
    await Bun.sleep(5)
  }
}

beforeAll(async () => {
  binary = currentBinary()
  dataDir = mkdtempSync(join(tmpdir(), 'brokernet-crash-'))
  // First start: migrations and the demo network; the broker's session is kept in the database across every crash.
  server = await start(1)
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BROKER) })
  expect(login.status).toBe(200)
  token = (await login.json()).token
  await stopGracefully(server)
  server = undefined
}, 240_000)

/** A server a failed round left running (and its workers): killed, so no process outlives the test. */
async function killLeftover() {
  if (!server) return
  const pids = server.proc.exitCode === null ? killAll(server) : []
  await server.proc.exited
  await until('the leftover server gone', () => pids.every((pid) => !alive(pid)))
  server = undefined
}

afterAll(async () => {
  await killLeftover()
  binary?.cleanup()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('SIGKILL while a writer posts listings', () => {
  for (const [round, workers] of [[1, 1], [2, 2], [3, 1]] as const) {
    test(`round ${round} (WORKERS=${workers}): every listing answered 201 is there after a restart, and the database is intact`, async () => {
      await killLeftover()
      server = await start(workers)
      if (workers > 1) {
        const port = Number(new URL(server.url).port)
        await until('the workers listening', () => {
          const children = childrenOf(server!.proc.pid)
          return children.length === workers - 1 && children.every((pid) => listensOn(pid, port))
        })
      }
      const before = acknowledged.length
      const writer = startWriter(server.url, round)
      // A random moment among the writes: after 20 to 300 acknowledged ones, and 0 to 20 ms more.
      const after = 20 + Math.floor(Math.random() * 281)
      const extraMs = Math.floor(Math.random() * 21)
      await until(`${after} acknowledged writes`, () => acknowledged.length - before >= after || writer.unexpected.length > 0)
      await Bun.sleep(extraMs)
      const openAtKill = writer.inFlight()
      const pids = killAll(server)
      await writer.done
      await until('every process of the server gone', () => pids.every((pid) => !alive(pid)))
      console.log(`round ${round}: killed ${pids.length} process(es) after ${acknowledged.length - before} acknowledged writes (${after} + ${extraMs} ms), ${openAtKill} in flight`)
      expect(writer.unexpected).toEqual([])
      expect(openAtKill).toBeGreaterThan(0)

      // Started again on the same files: SQLite recovers its write-ahead log.
      server = await start(1)
      expect(integrityCheck(join(dataDir, 'brokernet.db'))).toBe('ok')
      const missing: unknown[] = []
      for (let i = 0; i < acknowledged.length; i += 8) {
        await Promise.all(
          acknowledged.slice(i, i + 8).map(async ({ id, details }) => {
            const res = await fetch(`${server!.url}/api/listings/${id}`, { headers: { authorization: `Bearer ${token}` } })
            const body = res.status === 200 ? await res.json() : await res.text()
            if (res.status !== 200 || body.details !== details) missing.push({ id, status: res.status, details, got: body.details ?? body })
          }),
        )
      }
      expect(missing).toEqual([])
      expect(acknowledged.length - before).toBeGreaterThanOrEqual(after)
      await stopGracefully(server)
      server = undefined
      expect(integrityCheck(join(dataDir, 'brokernet.db'))).toBe('ok')
    })
  }
})
