// A single listing insert, binaries side by side (issue 36, docs/decisions/073-single-insert.md): bench:http's `insert`
// row (POST /api/listings, one at a time, nothing else running), with each binary on its own copy of one database, in
// turn round after round, and the server's CPU per insert besides the client's wall time. On a shared machine a wall
// time varies with the load from elsewhere; the CPU a process spent per insert far less.
//
//   bun scripts/bench-insert.ts --binary /tmp/base/brokernet --binary dist/brokernet --db /work/bench/bench.db
//                               [--rounds 5] [--posts 30] [--gap 50] [--workers 1]
//
// SQLite only (bench:http --postgres --only insert is PostgreSQL's). The writer is bench:http's (a broker of the
// largest city, three quarters up by listing count), posting bench:http's body. CPU: every thread of the server
// (/proc/<pid>/task/*/schedstat, ns) from the first measured POST to 200 ms after the last answer (what follows an
// answer, the match announcement and the expiry timer, counts too), divided by the posts; and the main thread's alone
// (the event loop that answers: the other threads are the runtime's, the read threads', the push sender's).
import { Database } from 'bun:sqlite'
import { closeSync, copyFileSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { BENCH_EMAIL_DOMAIN } from '../db/seed/bench'
import { DEMO_PASSWORD } from '../src/bootstrap'
import { benchPort } from './bench-port'
import { median, percentile } from './bench-stats'

const args = process.argv.slice(2)
const values = (name: string) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]!] : []))
const one = (name: string, fallback: string) => values(name).at(-1) ?? fallback
const binaries = values('binary').map((b) => resolve(b))
if (!binaries.length) binaries.push(resolve('dist/brokernet'))
const DB = resolve(one('db', 'data/bench.db'))
const ROUNDS = Number(one('rounds', '5'))
const POSTS = Number(one('posts', '30'))
const GAP = Number(one('gap', '50'))
const WORKERS = one('workers', '1')

// bench:http's writer (scripts/bench-http.ts): the same pick from the same data.
const ro = new Database(DB, { readonly: true })
const bigCity = ro.query<{ id: number }, []>('SELECT city_id AS id, count(*) AS n FROM listings GROUP BY city_id ORDER BY n DESC LIMIT 1').get()!
const brokers = ro
  .query<{ id: number; email: string }, [number, string]>(
    `SELECT l.owner_user_id AS id, u.email, count(*) AS n FROM listings l JOIN users u ON u.id = l.owner_user_id
     WHERE l.city_id = ?1 AND u.city_id = ?1 AND u.role = 'BROKER' AND u.is_active AND u.email LIKE ?2 GROUP BY l.owner_user_id ORDER BY n, l.owner_user_id`,
  )
  .all(bigCity.id, `%@${BENCH_EMAIL_DOMAIN}`)
const writer = brokers[Math.floor(brokers.length * 0.75)]!
ro.close()

let posts = 0
const listingBody = () => ({
  post_type: 'REQ', sale_or_rent: 'RENT', contact_value: '+91 98200 00000', property_type: '2 BHK Apartment', budget: 45_000, size: 900,
  location: 'North', locality: 'Benchwrite', details: `Written by bench:insert, number ${++posts}.`, confirm_duplicate: true,
})

/** CPU of the process's main thread (the event loop that answers), ns. */
const mainNs = (pid: number): number => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])

/** CPU of every thread of the process, ns. */
function cpuNs(pid: number): number {
  let ns = 0
  for (const t of readdirSync(`/proc/${pid}/task`))
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0])
    } catch {} // a thread that ended meanwhile
  return ns
}

type Server = { label: string; base: string; pid: number; token: string; dir: string; stop: () => Promise<void> }

async function start(binary: string, n: number): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-insert-'))
  copyFileSync(DB, join(dir, 'brokernet.db'))
  const port = benchPort()
  const log = openSync(join(dir, 'server.log'), 'a')
  const proc = Bun.spawn([binary], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dir, NODE_ENV: 'production', DEMO_DATA: '0', ADMIN_PASSWORD: DEMO_PASSWORD, WORKERS, DATABASE_URL: '' },
    stdout: log,
    stderr: log,
  })
  closeSync(log)
  const base = `http://127.0.0.1:${port}`
  for (const deadline = performance.now() + 180_000; ; await Bun.sleep(100)) {
    if (proc.exitCode !== null) throw new Error(`${binary} exited (${proc.exitCode}): ${join(dir, 'server.log')}`)
    if (performance.now() > deadline) throw new Error(`${binary} did not answer within 180 s`)
    if ((await fetch(base + '/api/health').catch(() => null))?.status === 200) break
  }
  let token = ''
  for (const deadline = performance.now() + 120_000; !token; await Bun.sleep(500)) {
    const res = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: writer.email, password: DEMO_PASSWORD }) })
    if (res.status === 200) token = ((await res.json()) as { token: string }).token
    else if (res.status !== 503 || performance.now() > deadline) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`)
  }
  // With WORKERS > 1 the processes are the binary's children: the whole group's CPU is read.
  const label = `${n + 1}: ${binary}`
  return {
    label,
    base,
    pid: proc.pid,
    token,
    dir,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const pidsOf = (pid: number): number[] => {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
    } catch {
      return []
    }
  })()
  return [pid, ...children.flatMap(pidsOf)]
}

async function post(s: Server): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(s.base + '/api/listings/', { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify(listingBody()), keepalive: false })
  const text = await res.text()
  const ms = performance.now() - t0
  if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${text.slice(0, 200)}`)
  return ms
}

async function round(s: Server): Promise<{ wall: number[]; cpuUs: number; mainUs: number }> {
  for (let i = 0; i < 3; i++) await post(s), await Bun.sleep(GAP) // warm the route (its compilation is not an insert)
  await Bun.sleep(300)
  const pids = pidsOf(s.pid)
  const cpu0 = pids.reduce((a, p) => a + cpuNs(p), 0)
  const main0 = pids.reduce((a, p) => a + mainNs(p), 0)
  const wall: number[] = []
  for (let i = 0; i < POSTS; i++) {
    wall.push(await post(s))
    await Bun.sleep(GAP)
  }
  await Bun.sleep(200)
  const cpu1 = pids.reduce((a, p) => a + cpuNs(p), 0)
  const main1 = pids.reduce((a, p) => a + mainNs(p), 0)
  return { wall, cpuUs: (cpu1 - cpu0) / 1000 / POSTS, mainUs: (main1 - main0) / 1000 / POSTS }
}

const servers: Server[] = []
try {
  for (const [i, b] of binaries.entries()) servers.push(await start(b, i))
  const results = servers.map(() => ({ wall: [] as number[], medians: [] as number[], cpu: [] as number[], main: [] as number[] }))
  for (let r = 1; r <= ROUNDS; r++)
    for (const [i, s] of servers.entries()) {
      const { wall, cpuUs, mainUs } = await round(s)
      results[i]!.main.push(mainUs / 1000)
      results[i]!.wall.push(...wall)
      results[i]!.medians.push(median(wall))
      results[i]!.cpu.push(cpuUs)
      console.log(`round ${r} ${s.label}: median ${median(wall).toFixed(2)} ms, CPU ${(cpuUs / 1000).toFixed(2)} ms/insert (main thread ${(mainUs / 1000).toFixed(2)})`)
    }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  console.log(`\n${POSTS} POSTs × ${ROUNDS} rounds each, ${GAP} ms apart, binaries in turn; WORKERS=${WORKERS}; ${DB}; load average now ${load}\n`)
  console.log('| binary | wall p50 (all) | p99 | round medians | CPU ms/insert, all threads (median round) | rounds | main thread (median round) | rounds |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const [i, s] of servers.entries()) {
    const x = results[i]!
    const cpuMs = x.cpu.map((c) => c / 1000)
    console.log(`| ${s.label} | ${median(x.wall).toFixed(2)} | ${percentile(x.wall, 99).toFixed(2)} | ${x.medians.map((m) => m.toFixed(2)).join(', ')} | ${median(cpuMs).toFixed(2)} | ${cpuMs.map((c) => c.toFixed(2)).join(', ')} | ${median(x.main).toFixed(2)} | ${x.main.map((c) => c.toFixed(2)).join(', ')} |`)
  }
} finally {
  await Promise.all(servers.map((s) => s.stop()))
}
