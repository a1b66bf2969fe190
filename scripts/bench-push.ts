// `bun run bench:push` (issue 33): how fast a push alert leaves, in process, against the push-service stand-in on
// loopback (tests/support/push-service.ts: it verifies the VAPID signature and decrypts every message, in this same
// process, so its work is counted against us).
//
//   bun run bench:push [--db ./data/bench.db] [--samples 100] [--burst 1000] [--readers 4] [--standin-process]
//                      [--standin-nice 19] [--standin-decrypt-every 100] [--push-rate 250]
//                      [--compare 3 [--against ../old-worktree | --vs '--push-rate 250 --standin-decrypt-every 1']]
//
// --standin-process: the stand-in in a process of its own (scripts/push-standin.ts), off the server's event loop.
// --standin-nice N: that process at nice N, so that on a shared machine its CPU (a real push service is another
//   machine's) is taken from what the server leaves over; its CPU during the burst is printed either way.
// --standin-decrypt-every N: the stand-in decrypts every N-th message (default 100: a sample, each checked to come out
//   whole); it checks every message as a push service does (VAPID signature and claims, headers, the body's form). A
//   push service never decrypts (RFC 8291 is end to end, to the browser): decrypting all (1, what the bench did before)
//   puts the browsers' work on the server's cores. The tests decrypt every message.
// --push-rate N: the server's PUSH_RATE (default the server's default; 0: a burst unpaced, as before pacing).
// --compare N: N rounds of runs, alternating `--push-rate 0` and this run's rate (each a child run of this script with
//   the same other options, on its own copy of the database), then the ratios side by side: what pacing changes,
//   measured under the same load. With --standin-nice, each round also runs paced with the stand-in niced (both
//   figures printed: the stand-in's CPU counted, and discounted).
// --against DIR: with --compare N, N rounds alternating another checkout's bench (DIR/scripts/bench-push.ts: the old
//   build, e.g. a worktree of the branch before a change) and this one, both at this run's rate and options: the
//   change measured under the same load, as a ratio. Without --push-rate, each build runs at its own default rate.
// --vs 'ARGS': with --compare N, N rounds alternating this run's options and the same plus ARGS (one lever measured:
//   e.g. --vs '--standin-decrypt-every 1', or --vs '--push-rate 250'), and the ratio of the reads kept.
// --db: a database made by `bun run seed:bench` (copied first: the run never changes it). Two figures:
// 1. A write that creates a match → the push request at the stand-in: one broker's REQ, then another's AVL that
//    matches it, posted through the API while `--readers` loops read the listings list; the time from the AVL's
//    request to the message's arrival, p50 and p99 of `--samples`.
// 2. A burst: `--burst` brokers with a device and an INSTANT saved search that one new listing satisfies; the time
//    from that listing's request to the last of their messages, and the listing reads meanwhile against the same reads
//    in the 3 s before the burst. The goal ("slows the listing reads running meanwhile by ≤ 10 %") is judged by the
//    reads' rate: the readers are closed loops (each sends its next read when the last is answered), so their rate is
//    what every read's latency adds up to, tail included; the median and p99 latency are printed beside it. Over the
//    whole burst (from the listing's request: the server judging the searches and queueing the alerts, on its own
//    event loop, then the sending) and over the sending alone (first message at the stand-in to last). With each
//    window the CPU that each part took (Linux: the server's main thread, its push-sender thread, its other threads;
//    the stand-in's process), since on this 2-core machine the stand-in decrypting takes from the same cores.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
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
import { fmt, loadAverage, median, percentile } from './bench-stats'

/** A clock tick of /proc's CPU times: USER_HZ is 100 on Linux. */
const TICK_MS = 10
const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback
}
const source = option('db', './data/bench.db')
const SAMPLES = Number(option('samples', '100'))
const BURST = Number(option('burst', '1000'))
const READERS = Number(option('readers', '4'))
const DECRYPT_EVERY = Math.max(1, Number(option('standin-decrypt-every', '100')))
const COMPARE = Number(option('compare', '0'))
if (COMPARE > 0) await compare(COMPARE)

const dir = mkdtempSync(join(tmpdir(), 'brokernet-bench-push-'))
copyFileSync(source, join(dir, 'brokernet.db'))
const rateArg = args.includes('--push-rate') ? { PUSH_RATE: option('push-rate', '') } : {}
const config = loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', LOG_LEVEL: 'silent', PUSH_ALLOW_HOSTS: '127.0.0.1', ...rateArg })
const data = sqliteSource(openDatabase(config.databasePath))
const ctx = createContext(data, config)
const app = createApp(ctx)
const db = ctx.db
/** The stand-in as the bench uses it: subscriptions by id, and when each message to one arrived. */
type StandIn = {
  pid?: number
  subscribe: () => Promise<Sub>
  arrivals: (id: string) => number[]
  /** How many subscriptions have had a message: kept as messages arrive, so the burst's wait for all of them is O(1) a look. */
  reached: () => number
  /** Messages delivered in all, kept as they arrive. */
  delivered: () => number
  /**
   * Calls `check` as messages arrive (the stand-in in its own process: on each line it prints; in this process: every
   * 10 ms) until it answers true. No loop of 1 ms sleeps on the server's thread meanwhile: that alone took 85 ms of its
   * CPU over 4 s, counted against the reads.
   */
  until: (what: string, check: () => boolean, timeoutMs: number) => Promise<void>
  maxInFlight: () => number | string
  /** Messages the stand-in decrypted (each came out whole, or it would have refused it): every N-th. */
  decrypted: () => number
  refused: () => number
  stop: () => Promise<void>
}
type Sub = { id: string; endpoint: string; keys: { p256dh: string; auth: string } }

async function inProcess(): Promise<StandIn> {
  const service = await startPushService({ vapidPublicKey: () => vapidPublicKey(db), decryptEvery: DECRYPT_EVERY })
  const subs = new Map<string, BrowserSubscription>()
  const reached = new Set<string>()
  let seen = 0
  let delivered = 0
  return {
    subscribe: async () => {
      const sub = await service.subscribe()
      subs.set(sub.id, sub)
      return sub
    },
    arrivals: (id) => service.delivered(subs.get(id)!).map((r) => r.at),
    reached: () => {
      for (; seen < service.received.length; seen++) {
        const r = service.received[seen]!
        if (r.answered >= 200 && r.answered < 300) {
          reached.add(r.subscription)
          delivered++
        }
      }
      return reached.size
    },
    delivered: () => {
      for (; seen < service.received.length; seen++) {
        const r = service.received[seen]!
        if (r.answered >= 200 && r.answered < 300) {
          reached.add(r.subscription)
          delivered++
        }
      }
      return delivered
    },
    until: (what, check, timeoutMs) => waitFor(what, check, timeoutMs, 10),
    maxInFlight: () => service.maxInFlight(),
    decrypted: () => service.received.filter((r) => r.decrypted).length,
    refused: () => service.refused.length,
    stop: () => service.stop(),
  }
}

async function ownProcess(): Promise<StandIn> {
  const nice = args.includes('--standin-nice') ? ['nice', '-n', option('standin-nice', '19')] : []
  const child = Bun.spawn([...nice, process.execPath, join(import.meta.dir, 'push-standin.ts'), await vapidPublicKey(db), String(DECRYPT_EVERY)], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' })
  const arrivals = new Map<string, number[]>()
  let refused = 0
  let delivered = 0
  let decrypted = 0
  const waiting: ((subs: Sub[]) => void)[] = []
  const watchers = new Set<() => void>()
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
        if (m.received) {
          delivered++
          if (m.decrypted) decrypted++
          const times = arrivals.get(m.received)
          if (times) times.push(m.at)
          else arrivals.set(m.received, [m.at])
        }
        if (m.refused) refused = m.refused
      }
      for (const watcher of watchers) watcher()
    }
  })()
  await started
  return {
    pid: child.pid,
    subscribe: () =>
      new Promise<Sub[]>((resolve) => {
        waiting.push(resolve)
        child.stdin.write(`${JSON.stringify({ subscribe: 1 })}\n`)
        child.stdin.flush()
      }).then((subs) => subs[0]!),
    arrivals: (id) => arrivals.get(id) ?? [],
    reached: () => arrivals.size,
    delivered: () => delivered,
    until: (what, check, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const watcher = () => {
          if (!check()) return
          watchers.delete(watcher)
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          watchers.delete(watcher)
          reject(new Error(`${what}: not within ${timeoutMs} ms`))
        }, timeoutMs)
        watchers.add(watcher)
        watcher()
      }),
    maxInFlight: () => 'not counted across processes',
    decrypted: () => decrypted,
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

/** One read of the listings list: when it was answered (ms, performance.now()) and how long it took. */
type Read = { end: number; ms: number }

/** Reads of the listings list, as brokers browsing, until `stop` resolves. */
async function readers(token: string, cityId: number, stop: Promise<void>): Promise<Read[]> {
  const times: Read[] = []
  let done = false
  void stop.then(() => (done = true))
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      for (let page = 1 + r; !done; page = (page % 20) + 1) {
        const t = performance.now()
        const res = await request(token, `/api/listings?city_id=${cityId}&page=${page}&per_page=20`)
        await res.arrayBuffer()
        const end = performance.now()
        times.push({ end, ms: end - t })
        // Another client's next request comes through the event loop, as over HTTP: timers (the drain, the sender) run
        // between reads rather than after all of them.
        await new Promise((r) => setImmediate(r))
      }
    }),
  )
  return times
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000, everyMs = 1) {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await Bun.sleep(everyMs)
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
const readsDuringMatches = (await reading).map((r) => r.ms)
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
// Before: the same reads for 3 s (from the 3rd second on, the caches warm), with the CPU each part took meanwhile.
let stopBaseline!: () => void
const baselineRun = readers(readerToken, asker.city_id, new Promise<void>((r) => (stopBaseline = r)))
await Bun.sleep(1000)
const beforeWindow = { from: performance.now(), cpu: cpuNow(standin.pid) }
await Bun.sleep(3000)
const beforeCpu = cpuSince(beforeWindow.cpu, standin.pid)
const beforeTo = performance.now()
stopBaseline()
const baseline = (await baselineRun).filter((r) => r.end >= beforeWindow.from && r.end <= beforeTo)
// What the stand-in had reached before the burst (the asker's device, from the matches above), not the burst's.
const reachedBefore = standin.reached()
/**
 * The burst's subscriptions reached so far. O(1) a look: the wait below looks every millisecond on this (the server's)
 * thread, and summing 1,000 subscriptions' arrivals each time (with the in-process stand-in, a scan of every message
 * received per subscription) was work of the bench's own, counted against the reads it measures.
 */
const received = () => standin.reached() - reachedBefore
let stopBurstReads!: () => void
const burstReadsRun = readers(readerToken, asker.city_id, new Promise<void>((r) => (stopBurstReads = r)))
await Bun.sleep(200) // the readers under way before the burst begins
const burstCpu0 = cpuNow(standin.pid)
const burstStarted = Date.now()
const burstStartedPerf = performance.now()
await post(askerToken, { post_type: 'AVL', property_type: type })
let firstCpu: Cpu | null = null
let firstAtPerf = 0
await standin.until(
  'every burst alert',
  () => {
    const n = received()
    if (n > 0 && !firstCpu) {
      firstCpu = cpuNow(standin.pid)
      firstAtPerf = performance.now()
    }
    return n === BURST
  },
  120_000,
)
const burstEndPerf = performance.now()
const burstCpu = cpuSince(burstCpu0, standin.pid)
const sendingCpu = firstCpu ? cpuSince(firstCpu, standin.pid) : null
const firstMs = Math.min(...subs.map((sub) => standin.arrivals(sub.id)[0]!)) - burstStarted
const arrivalOrder = subs.map((sub) => standin.arrivals(sub.id)[0]!).sort((a, b) => a - b)
// To the last message's arrival as the stand-in timed it (its lines come in batches every 10 ms).
const burstMs = arrivalOrder.at(-1)! - burstStarted
stopBurstReads()
const burstReadsAll = await burstReadsRun
const inWindow = (from: number, to: number) => burstReadsAll.filter((r) => r.end >= from && r.end <= to)
const during = inWindow(burstStartedPerf, burstEndPerf)
const sending = inWindow(firstAtPerf, burstEndPerf)
const beforeStats = readStats(baseline, beforeTo - beforeWindow.from, beforeCpu)
const duringStats = readStats(during, burstEndPerf - burstStartedPerf, burstCpu)
const sendingStats = readStats(sending, burstEndPerf - firstAtPerf, sendingCpu)
const change = (a: number, b: number) => (b / a - 1) * 100
const pct = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)} %`
const slowdown = (x: ReadStats) => -change(beforeStats.perSecond, x.perSecond)
const paced = config.pushRate > 0 ? `paced at ${config.pushRate}/s after the first 32 (PUSH_RATE)` : 'unpaced (PUSH_RATE=0)'
console.log(
  `burst of ${BURST} pushes (one listing, ${BURST} INSTANT saved searches), ${paced}: all at the stand-in in ${ms(burstMs)} (target ≤ 10,000 ms), the first after ${ms(firstMs)}, the 500th after ${ms(arrivalOrder[Math.floor(BURST / 2)]! - burstStarted)}; most at once: ${standin.maxInFlight()}; the stand-in ${args.includes('--standin-process') ? `in its own process${args.includes('--standin-nice') ? ` at nice ${option('standin-nice', '19')}` : ''}` : 'in this process'}`,
)
const line = (name: string, x: ReadStats) =>
  `${name}: ${x.perSecond.toFixed(0)} reads/s (${pct(change(beforeStats.perSecond, x.perSecond))}), median ${fmt(x.median)} (${pct(change(beforeStats.median, x.median))}), p99 ${fmt(x.p99)} (${pct(change(beforeStats.p99, x.p99))}), max ${fmt(x.max)}; ${x.count} reads; ${x.perCpuSecond.toFixed(0)} per CPU-second of the main thread (${pct(change(beforeStats.perCpuSecond, x.perCpuSecond))})`
console.log(`  listing reads before: ${beforeStats.perSecond.toFixed(0)} reads/s, median ${fmt(beforeStats.median)}, p99 ${fmt(beforeStats.p99)}, max ${fmt(beforeStats.max)}; ${beforeStats.count} reads in 3 s; ${beforeStats.perCpuSecond.toFixed(0)} per CPU-second of the main thread`)
console.log(`  ${line('during the whole burst', duringStats)}`)
console.log(`  ${line('during the sending (first message → last)', sendingStats)}`)
const cpuLine = (c: CpuDelta | null, overMs: number) =>
  c ? `server main thread ${c.main} ms, push-sender thread ${c.sender} ms, other server threads ${c.other} ms (${Object.entries(c.others).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name, n]) => `${name} ${n}`).join(', ')}), stand-in ${c.standin ?? '(in process)'} ms, over ${overMs.toFixed(0)} ms` : 'not measured (no /proc)'
console.log(`  CPU before (3 s): ${cpuLine(beforeCpu, 3000)}`)
console.log(`  CPU during the burst: ${cpuLine(burstCpu, burstEndPerf - burstStartedPerf)}`)
console.log(`  CPU during the sending: ${cpuLine(sendingCpu, burstEndPerf - firstAtPerf)}`)
const slowed = slowdown(duringStats)
console.log(
  `  VERDICT (the goal is judged by the reads' rate over the whole burst): the reads were ${slowed >= 0 ? `${slowed.toFixed(1)} % slower` : `${(-slowed).toFixed(1)} % faster`} (target ≤ 10 %): ${slowed <= 10 ? 'met' : 'missed'}; the burst left in ${(burstMs / 1000).toFixed(1)} s (target ≤ 10 s): ${burstMs <= 10_000 ? 'met' : 'missed'}`,
)
console.log(`  refused by the stand-in: ${standin.refused()}; decrypted by it (each whole): ${standin.decrypted()} of ${standin.delivered()} delivered (every ${DECRYPT_EVERY === 1 ? 'one' : `${DECRYPT_EVERY}th`}); load average (1/5/15 min) at the end: ${loadAverage()}`)

// 3. The same burst again (a second listing the 1,000 searches let through) with no reads running: the main thread's
// CPU from the listing's request to the last message is then the burst's own share of it (the write, the searches
// judged and the alerts queued if they run there, the thread's commits seen), whatever the load did to the reads.
const idleCpu0 = cpuNow(standin.pid)
const delivered0 = standin.delivered()
const idleStarted = performance.now()
await post(askerToken, { post_type: 'AVL', property_type: type })
await standin.until('every alert of the second burst', () => standin.delivered() - delivered0 >= BURST, 120_000)
const idleCpu = cpuSince(idleCpu0, standin.pid)
const idleMs = performance.now() - idleStarted
console.log(`  the same burst with no reads running: ${idleCpu ? `the server's main thread took ${idleCpu.main} ms of CPU, its push-sender thread ${idleCpu.sender} ms, other threads ${idleCpu.other} ms, stand-in ${idleCpu.standin ?? '(in process)'} ms` : 'CPU not measured (no /proc)'}, over ${idleMs.toFixed(0)} ms`)
if (args.includes('--json'))
  console.log(
    `RESULT ${JSON.stringify({ rate: config.pushRate, load: loadAverage(), burstMs, firstMs, matchP50: median(latencies), matchP99: percentile(latencies, 99), before: beforeStats, during: duringStats, sending: sendingStats, cpu: burstCpu, sendingCpu, slowed, sendingSlowed: slowdown(sendingStats), idleCpu, idleMs })}`,
  )

await standin.stop()
await ctx.features.stop()
await data.close()
rmSync(dir, { recursive: true, force: true })
process.exit(0)

/**
 * The reads in a window. `perCpuSecond`: reads per second of CPU the main thread had (a machine busy with other work
 * gives it fewer seconds; what the burst adds to the main thread's own work, the searches judged, the alerts queued,
 * the thread's commits seen by the caches, shows here whatever the load).
 */
type ReadStats = { count: number; perSecond: number; perCpuSecond: number; median: number; p99: number; max: number }
function readStats(reads: Read[], overMs: number, cpu: CpuDelta | null): ReadStats {
  const times = reads.map((r) => r.ms)
  return { count: times.length, perSecond: times.length / (overMs / 1000), perCpuSecond: cpu && cpu.main > 0 ? times.length / (cpu.main / 1000) : NaN, median: times.length ? median(times) : NaN, p99: times.length ? percentile(times, 99) : NaN, max: times.length ? Math.max(...times) : NaN }
}

/** CPU time so far (clock ticks, Linux /proc): this process's threads by kind, and the stand-in's process. */
type Cpu = { tasks: Map<string, { comm: string; ticks: number }>; standin: number | null } | null
type CpuDelta = { main: number; sender: number; other: number; standin: number | null; others: Record<string, number> }
function ticksOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime + stime
}
function cpuNow(standinPid?: number): Cpu {
  if (!existsSync('/proc/self/task')) return null
  const tasks = new Map<string, { comm: string; ticks: number }>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      tasks.set(tid, { comm: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), ticks: ticksOf(`/proc/self/task/${tid}/stat`) })
    } catch {
      // a thread that ended meanwhile
    }
  }
  let standin: number | null = null
  try {
    if (standinPid) standin = ticksOf(`/proc/${standinPid}/stat`)
  } catch {
    standin = null
  }
  return { tasks, standin }
}
/**
 * What each part took since `from` (ms). The main thread is the one whose id is the process's; the push sender's is
 * the Web Worker's thread (Bun names it "Worker"); the rest are JIT, garbage collection and I/O threads.
 */
function cpuSince(from: Cpu, standinPid?: number): CpuDelta | null {
  const to = cpuNow(standinPid)
  if (!from || !to) return null
  const delta: CpuDelta = { main: 0, sender: 0, other: 0, others: {}, standin: to.standin !== null && from.standin !== null ? (to.standin - from.standin) * TICK_MS : null }
  for (const [tid, t] of to.tasks) {
    const spent = (t.ticks - (from.tasks.get(tid)?.ticks ?? 0)) * TICK_MS
    if (tid === String(process.pid)) delta.main += spent
    else if (t.comm === 'Worker') delta.sender += spent
    else {
      delta.other += spent
      if (spent > 0) delta.others[t.comm] = (delta.others[t.comm] ?? 0) + spent
    }
  }
  return delta
}

/**
 * `--compare N`: N rounds of child runs, unpaced and paced alternately, and their figures side by side. With
 * `--standin-nice`, each round also runs paced with the stand-in niced, and the two paced figures are printed: with
 * the stand-in's CPU counted against the machine, and with it discounted as far as a priority can.
 */
async function compare(rounds: number): Promise<never> {
  const change = (a: number, b: number) => (b / a - 1) * 100
  const rate = args.includes('--push-rate') ? option('push-rate', '250') : String(loadConfig({ DATA_DIR: tmpdir() }).pushRate)
  const nice = args.includes('--standin-nice') ? option('standin-nice', '19') : null
  const against = args.includes('--against') ? option('against', '') : null
  const vs = args.includes('--vs') ? option('vs', '').split(/\s+/).filter(Boolean) : null
  // With --against and no --push-rate, each build runs at its own default rate (a change of the default is measured).
  const rateArgs = args.includes('--push-rate') ? ['--push-rate', rate] : []
  const base: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--compare' || args[i] === '--push-rate' || args[i] === '--against' || args[i] === '--vs' || (against === null && vs === null && args[i] === '--standin-nice')) i++
    else base.push(args[i]!)
  }
  type Variant = { name: string; args: string[]; script?: string }
  const variants: Variant[] =
    against !== null
      ? [
          { name: `before (${against}), PUSH_RATE ${rateArgs.length ? rate : 'its default'}`, args: rateArgs, script: join(against, 'scripts', 'bench-push.ts') },
          { name: `this, PUSH_RATE ${rateArgs.length ? rate : 'its default'}`, args: rateArgs },
        ]
      : vs !== null
      ? [
          { name: `this run's options${rateArgs.length ? ` (PUSH_RATE ${rate})` : ''}`, args: rateArgs },
          { name: `the same with ${vs.join(' ')}`, args: [...rateArgs, ...vs] },
        ]
      : [
          { name: 'PUSH_RATE 0', args: ['--push-rate', '0'] },
          { name: `PUSH_RATE ${rate}`, args: ['--push-rate', rate] },
          ...(nice === null ? [] : [{ name: `PUSH_RATE ${rate}, stand-in at nice ${nice}`, args: ['--push-rate', rate, '--standin-nice', nice] }]),
        ]
  type Result = { variant: string; rate: number; load: string; burstMs: number; slowed: number; sendingSlowed: number; matchP99: number; before: ReadStats; during: ReadStats; cpu: CpuDelta | null; idleCpu?: CpuDelta | null }
  const results: Result[] = []
  for (let round = 0; round < rounds; round++)
    for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
      console.log(`run ${results.length + 1} of ${variants.length * rounds}: ${v.name}`)
      const child = Bun.spawn([process.execPath, v.script ?? import.meta.path, ...base, ...v.args, '--json'], { stdout: 'pipe', stderr: 'inherit', ...(v.script ? { cwd: join(v.script, '..', '..') } : {}) })
      const out = await new Response(child.stdout).text()
      await child.exited
      const found = out.split('\n').find((l) => l.startsWith('RESULT '))
      if (!found) throw new Error(`a child run printed no result:\n${out}`)
      for (const l of out.split('\n')) if (/VERDICT|during the|CPU during the burst|listing reads before|no reads running/.test(l)) console.log(l)
      results.push({ ...JSON.parse(found.slice(7)), variant: v.name })
    }
  console.log('\n| run | load | reads/s before → during the burst | slower (rate) | median | p99 | sending only: slower | reads per main-thread CPU-second | burst | match → push p99 | CPU in the burst: main / sender / stand-in | main thread CPU, burst without reads |')
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const x of results)
    console.log(
      `| ${x.variant} | ${x.load} | ${x.before.perSecond.toFixed(0)} → ${x.during.perSecond.toFixed(0)} | ${x.slowed.toFixed(1)} % | ${fmt(x.before.median)} → ${fmt(x.during.median)} | ${fmt(x.before.p99)} → ${fmt(x.during.p99)} | ${x.sendingSlowed.toFixed(1)} % | ${x.before.perCpuSecond.toFixed(0)} → ${x.during.perCpuSecond.toFixed(0)} | ${(x.burstMs / 1000).toFixed(1)} s | ${x.matchP99.toFixed(0)} ms | ${x.cpu ? `${x.cpu.main} / ${x.cpu.sender} / ${x.cpu.standin ?? '–'} ms` : '–'} | ${x.idleCpu ? `${x.idleCpu.main} ms` : '–'} |`,
    )
  for (const v of variants) {
    const mine = results.filter((x) => x.variant === v.name)
    const idle = mine.flatMap((x) => (x.idleCpu ? [x.idleCpu.main] : []))
    if (idle.length) console.log(`${v.name}: the main thread's CPU for a burst with no reads running, median ${median(idle)} ms (each: ${idle.join(', ')})`)
    const cpus = mine.flatMap((x) => (x.cpu ? [x.cpu] : []))
    if (cpus.length) {
      const m = (f: (c: CpuDelta) => number) => median(cpus.map(f)).toFixed(0)
      console.log(`${v.name}: CPU during the burst, medians: main thread ${m((c) => c.main)} ms, push-sender thread ${m((c) => c.sender)} ms, other server threads ${m((c) => c.other)} ms, stand-in ${m((c) => c.standin ?? NaN)} ms; all but the main thread per second of the burst ${median(mine.filter((x) => x.cpu).map((x) => (x.cpu!.sender + x.cpu!.other + (x.cpu!.standin ?? 0)) / (x.burstMs / 1000))).toFixed(0)} ms`)
    }
    console.log(`${v.name}: reads slower by ${median(mine.map((x) => x.slowed)).toFixed(1)} % (median of ${mine.length} runs; each: ${mine.map((x) => x.slowed.toFixed(1)).join(', ')}), burst ${median(mine.map((x) => x.burstMs / 1000)).toFixed(1)} s; main thread's reads per CPU-second ${median(mine.map((x) => change(x.before.perCpuSecond, x.during.perCpuSecond))).toFixed(1)} % (median)`)
  }
  if (against !== null || vs !== null) {
    // Each round's pair ran back to back: the ratio of their figures cancels most of what the load did to both.
    const [old, now] = [results.filter((x) => x.variant === variants[0]!.name), results.filter((x) => x.variant === variants[1]!.name)]
    const kept = (x: Result) => x.during.perSecond / x.before.perSecond
    const ratios = now.map((x, i) => kept(x) / kept(old[i]!))
    console.log(
      `reads kept during the burst (during ÷ before), ${vs ? `with ${vs.join(' ')} ÷ without` : 'this ÷ before'}, per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)} (above 1: ${vs ? `${vs.join(' ')} keeps` : 'this build keeps'} more of the reads)`,
    )
  }
  process.exit(0)
}
