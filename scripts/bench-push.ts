// `bun run bench:push` (issue 33): how fast a push alert leaves, in process, against the push-service stand-in on
// loopback (tests/support/push-service.ts: it verifies the VAPID signature and decrypts every message, in this same
// process, so its work is counted against us).
//
//   bun run bench:push [--db ./data/bench.db] [--samples 100] [--burst 1000] [--readers 4] [--standin-process]
//
// --standin-process: the stand-in in a process of its own (scripts/push-standin.ts), off the server's event loop.
// --db: a database made by `bun run seed:bench` (copied first: the run never changes it). Two figures:
// 1. A write that creates a match → the push request at the stand-in: one broker's REQ, then another's AVL that
//    matches it, posted through the API while `--readers` loops read the listings list; the time from the AVL's
//    request to the message's arrival, p50 and p99 of `--samples`.
// 2. A burst: `--burst` brokers with a device and an INSTANT saved search that one new listing satisfies; the time
//    from that listing's request to the last of their messages, and the listing reads' latency meanwhile against the
//    same reads before the burst.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../db/client'
import { sqliteSource } from '../db/open'
import { createApp } from '../src/app'
import { saveSettings } from '../src/modules/notifications/store'
import { loadConfig } from '../src/platform/config'
import { createContext } from '../src/platform/context'
import { allowList, subscribe, systemResolver } from '../src/platform/push'
import { vapidPublicKey } from '../src/platform/push/vapid'
import { createSession } from '../src/platform/sessions'
import { startPushService, type BrowserSubscription } from '../tests/support/push-service'
import { loadAverage, median, percentile } from './bench-stats'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback
}
const source = option('db', './data/bench.db')
const SAMPLES = Number(option('samples', '100'))
const BURST = Number(option('burst', '1000'))
const READERS = Number(option('readers', '4'))

const dir = mkdtempSync(join(tmpdir(), 'brokernet-bench-push-'))
copyFileSync(source, join(dir, 'brokernet.db'))
const config = loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', LOG_LEVEL: 'silent', PUSH_ALLOW_HOSTS: '127.0.0.1' })
const data = sqliteSource(openDatabase(config.databasePath))
const ctx = createContext(data, config)
const app = createApp(ctx)
const db = ctx.db
/** The stand-in as the bench uses it: subscriptions by id, and when each message to one arrived. */
type StandIn = { subscribe: () => Promise<Sub>; arrivals: (id: string) => number[]; maxInFlight: () => number | string; refused: () => number; stop: () => Promise<void> }
type Sub = { id: string; endpoint: string; keys: { p256dh: string; auth: string } }

async function inProcess(): Promise<StandIn> {
  const service = await startPushService({ vapidPublicKey: () => vapidPublicKey(db) })
  const subs = new Map<string, BrowserSubscription>()
  return {
    subscribe: async () => {
      const sub = await service.subscribe()
      subs.set(sub.id, sub)
      return sub
    },
    arrivals: (id) => service.delivered(subs.get(id)!).map((r) => r.at),
    maxInFlight: () => service.maxInFlight(),
    refused: () => service.refused.length,
    stop: () => service.stop(),
  }
}

async function ownProcess(): Promise<StandIn> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'push-standin.ts'), await vapidPublicKey(db)], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' })
  const arrivals = new Map<string, number[]>()
  let refused = 0
  const waiting: ((subs: Sub[]) => void)[] = []
  let ready!: () => void
  const started = new Promise<void>((r) => (ready = r))
  void (async () => {
    const decoder = new TextDecoder()
    let buffer = ''
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk)
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const m = JSON.parse(buffer.slice(0, i))
        buffer = buffer.slice(i + 1)
        if (m.origin) ready()
        if (m.subscriptions) waiting.shift()!(m.subscriptions)
        if (m.received) arrivals.set(m.received, [...(arrivals.get(m.received) ?? []), m.at])
        if (m.refused) refused = m.refused
      }
    }
  })()
  await started
  return {
    subscribe: () =>
      new Promise<Sub[]>((resolve) => {
        waiting.push(resolve)
        child.stdin.write(`${JSON.stringify({ subscribe: 1 })}\n`)
        child.stdin.flush()
      }).then((subs) => subs[0]!),
    arrivals: (id) => arrivals.get(id) ?? [],
    maxInFlight: () => 'not counted across processes',
    refused: () => refused,
    stop: async () => {
      child.kill()
      await child.exited
    },
  }
}

const standin = args.includes('--standin-process') ? await ownProcess() : await inProcess()
const policy = { allow: allowList(config.pushAllowHosts), resolve: systemResolver }

const listings = Number((await db.get<{ n: number }>('select count(*) as n from listings'))!.n)
const brokers = await db.all<{ id: number; city_id: number }>("select id, city_id from users where role = 'BROKER' and is_active = true and registration_status = 'APPROVED' order by id")
if (brokers.length < BURST + 3) throw new Error(`the bench database has ${brokers.length} brokers; --burst ${BURST} needs ${BURST + 3}`)
const tokenOf = async (userId: number) => (await createSession(db, userId)).token
const request = (token: string, path: string, init: RequestInit = {}) =>
  app.handle(new Request(`http://localhost${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } }))

async function withDevice(userId: number): Promise<Sub> {
  const sub = await standin.subscribe()
  await subscribe(db, userId, sub, 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile', policy)
  await saveSettings(db, userId, { kindsOff: [], quiet: null, timeZone: 'UTC' })
  return sub
}

async function post(token: string, body: Record<string, unknown>): Promise<number> {
  const res = await request(token, '/api/listings', { method: 'POST', body: JSON.stringify({ sale_or_rent: 'RENT', contact_value: '9876543210', ...body }) })
  if (res.status !== 201) throw new Error(`posting a listing: ${res.status} ${await res.text()}`)
  return (await res.json()).id
}

/** Reads of the listings list, as brokers browsing: their latencies (ms), until `stop` resolves. */
async function readers(token: string, cityId: number, stop: Promise<void>): Promise<number[]> {
  const times: number[] = []
  let done = false
  void stop.then(() => (done = true))
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      for (let page = 1 + r; !done; page = (page % 20) + 1) {
        const t = performance.now()
        const res = await request(token, `/api/listings?city_id=${cityId}&page=${page}&per_page=20`)
        await res.arrayBuffer()
        times.push(performance.now() - t)
        // Another client's next request comes through the event loop, as over HTTP: timers (the drain, the sender) run
        // between reads rather than after all of them.
        await new Promise((r) => setImmediate(r))
      }
    }),
  )
  return times
}

const waitFor = async (what: string, check: () => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await Bun.sleep(1)
  }
}
const ms = (n: number) => `${n.toFixed(1)} ms`

// 1. Match → push.
// Two brokers of one city (a match needs the same city), and a third who reads.
const asker = brokers.at(-1)!
const offerer = brokers.findLast((b) => b.city_id === asker.city_id && b.id !== asker.id)!
const reader = brokers.findLast((b) => b.id !== asker.id && b.id !== offerer.id)!
console.log(`setting up (${brokers.length} brokers)…`)
const askerSub = await withDevice(asker.id)
const [askerToken, offererToken, readerToken] = await Promise.all([tokenOf(asker.id), tokenOf(offerer.id), tokenOf(reader.id)])
let stopReading!: () => void
const reading = readers(readerToken, asker.city_id, new Promise<void>((r) => (stopReading = r)))
const latencies: number[] = []
// One round first, not counted: the first send loads web-push and signs the VAPID header (once an hour per push service).
for (let i = -1; i < SAMPLES; i++) {
  const type = `Bench Push ${Date.now()} ${i}`
  await post(askerToken, { post_type: 'REQ', property_type: type, budget: 60_000 })
  const before = standin.arrivals(askerSub.id).length
  const started = Date.now()
  await post(offererToken, { post_type: 'AVL', property_type: type, budget: 55_000 })
  await waitFor('the match alert', () => standin.arrivals(askerSub.id).length > before)
  const took = standin.arrivals(askerSub.id).at(-1)! - started
  if (i < 0) console.log(`the first, cold: ${took} ms (not counted)`)
  else latencies.push(took)
}
stopReading()
const readsDuringMatches = await reading
console.log(`load average (1/5/15 min): ${loadAverage()}`)
console.log(`listings: ${listings.toLocaleString('en-US')}; brokers: ${brokers.length.toLocaleString('en-US')}; ${READERS} readers of the listings list running`)
console.log(
  `match → push at the stand-in: p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(Math.max(...latencies))} (${SAMPLES} samples; target p99 ≤ 1,000 ms)`,
)
if (readsDuringMatches.length) console.log(`  listing reads meanwhile: median ${ms(median(readsDuringMatches))}, p99 ${ms(percentile(readsDuringMatches, 99))} (${readsDuringMatches.length} reads)`)

// 2. A burst from a popular saved search.
const crowd = brokers.filter((b) => b.id !== asker.id).slice(0, BURST)
console.log(`subscribing ${BURST} brokers and saving their searches…`)
const type = `Bench Burst ${Date.now()}`
const subs: Sub[] = []
for (const b of crowd) {
  subs.push(await withDevice(b.id))
  const token = await tokenOf(b.id)
  const res = await request(token, '/api/saved-searches', { method: 'POST', body: JSON.stringify({ name: 'Burst', filters: { property_type: type }, alert: 'INSTANT' }) })
  if (res.status !== 201) throw new Error(`saving a search: ${res.status} ${await res.text()}`)
}
let stopBaseline!: () => void
const baselineRun = readers(readerToken, asker.city_id, new Promise<void>((r) => (stopBaseline = r)))
await Bun.sleep(3000)
stopBaseline()
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const baseline = await baselineRun
const received = () => subs.reduce((n, s) => n + (standin.arrivals(s.id).length > 0 ? 1 : 0), 0)
let stopBurstReads!: () => void
const burstReadsRun = readers(readerToken, asker.city_id, new Promise<void>((r) => (stopBurstReads = r)))
const burstStarted = Date.now()
const baselineSeconds = 3
await post(askerToken, { post_type: 'AVL', property_type: type })
await waitFor('every burst alert', () => received() === BURST, 120_000)
const burstMs = Date.now() - burstStarted
const firstMs = Math.min(...subs.map((sub) => standin.arrivals(sub.id)[0]!)) - burstStarted
stopBurstReads()
const burstReads = await burstReadsRun
const slower = (median(burstReads) / median(baseline) - 1) * 100
console.log(`burst of ${BURST} pushes (one listing, ${BURST} INSTANT saved searches): all at the stand-in in ${ms(burstMs)} (target ≤ 10,000 ms), the first after ${ms(firstMs)}; most at once: ${standin.maxInFlight()}; the stand-in ${args.includes('--standin-process') ? 'in its own process' : 'in this process'}`)
console.log(
  `  listing reads: before median ${ms(median(baseline))} mean ${ms(mean(baseline))} p99 ${ms(percentile(baseline, 99))}, ${(baseline.length / baselineSeconds).toFixed(0)}/s; during median ${ms(median(burstReads))} mean ${ms(mean(burstReads))} p99 ${ms(percentile(burstReads, 99))}, ${(burstReads.length / (burstMs / 1000)).toFixed(0)}/s: median ${slower >= 0 ? '+' : ''}${slower.toFixed(1)} % (target ≤ 10 %)`,
)
console.log(`  refused by the stand-in: ${standin.refused()}; load average (1/5/15 min) at the end: ${loadAverage()}`)

await standin.stop()
ctx.features.stop()
await data.close()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
