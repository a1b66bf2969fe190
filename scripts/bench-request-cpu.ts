// Server CPU per request (issue 36, docs/decisions/046-request-path.md's method): utime + stime of one server process
// (from /proc) divided by the requests it answered under `wrk -c32`, the median of several rounds. On a shared machine
// this varies far less than a rate does: another engineer's load slows the server but does not add to its CPU.
//
//   bun scripts/bench-request-cpu.ts --binary /tmp/h-health-base/brokernet --binary dist/brokernet
//                                    [--path /api/health] [--rounds 3] [--seconds 4] [--connections 32] [--no-floor]
//                                    [--header 'Authorization: Bearer …'] [--database-url postgres://…]
//
// Each binary runs with WORKERS=1 on a fresh empty database of its own, its request log (stdout) to a file, as
// deployed. The binaries and a bare Elysia app of one route (scripts/bench-floors.ts) are measured in turn, round after
// round, so a burst of load from elsewhere falls on each alike. Prints one markdown table: µs of CPU per request, each
// round's and the median.
//
// --header (repeatable) is sent with every request (a signed-in GET: a session's bearer token). --database-url serves
// every binary on that PostgreSQL database instead of a SQLite file of its own (all at once, on the one database: the
// caller prepares it, and the session a --header names; docs/decisions/072-read-after-write.md measured this way).
//
// --db <file> starts each binary on a copy of that SQLite database (the bench's: `bun run seed:bench`) instead of an
// empty one, and --email <address> signs that user in on each binary (the bench password) and sends its bearer token:
// a broker's warm read of the bench database, e.g. --path '/api/listings/?per_page=25&city_id=1' (the first wrk pass,
// the warm-up, fills the caches).
import { DEMO_PASSWORD } from '../src/bootstrap'
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFloor, type Floor } from './bench-floors'
import { benchPort } from './bench-port'

const args = process.argv.slice(2)
const values = (name: string) => args.flatMap((a, i) => (a === `--${name}` && args[i + 1] ? [args[i + 1]!] : []))
const one = (name: string, fallback: string) => values(name).at(-1) ?? fallback
const binaries = values('binary').map((b) => resolve(b))
if (!binaries.length) binaries.push(resolve('dist/brokernet'))
const PATH = one('path', '/api/health')
const ROUNDS = Number(one('rounds', '3'))
const SECONDS = Number(one('seconds', '4'))
const CONNECTIONS = Number(one('connections', '32'))
const FLOOR = !args.includes('--no-floor')
const HEADERS = values('header').flatMap((h) => ['-H', h])
const DATABASE_URL = one('database-url', '')
const DB = one('db', '')
const EMAIL = one('email', '')
const root = new URL('..', import.meta.url).pathname
const TICK_US = 1e6 / 100 // USER_HZ: /proc counts CPU time in hundredths of a second on Linux

/** `path`: what wrk asks of it (the bare floor has one route, /api/health, whatever --path is). */
type Target = { label: string; base: string; pid: () => number[]; stop: () => Promise<void>; headers?: string[]; path?: string }

/** utime + stime of the processes, µs (all their threads: the GC's and the runtime's count too). */
function cpuMicros(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks * TICK_US
}

async function wrk(target: Target, seconds: number): Promise<number> {
  const proc = Bun.spawn(['wrk', '-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', ...HEADERS, ...(target.headers ?? []), target.base + (target.path ?? PATH)], { stdout: 'pipe', stderr: 'pipe' })
  const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  const requests = Number(/(\d+) requests in/.exec(text)?.[1])
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0)
  if (code !== 0 || !requests) throw new Error(`wrk failed (exit ${code}): ${text}`)
  if (non2xx) throw new Error(`${non2xx} answers of ${requests} were not 2xx: ${text}`)
  return requests
}

async function startBinary(binary: string, n: number): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-request-cpu-'))
  if (DB) {
    copyFileSync(DB, join(dataDir, 'brokernet.db'))
    if (existsSync(`${DB}-wal`) && statSync(`${DB}-wal`).size > 0) copyFileSync(`${DB}-wal`, join(dataDir, 'brokernet.db-wal'))
  }
  const port = benchPort()
  const log = openSync(join(dataDir, 'server.log'), 'a')
  const server = Bun.spawn([binary], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production', DEMO_DATA: '0', ADMIN_PASSWORD: 'bench-request-cpu-1', WORKERS: '1', DATABASE_URL },
    stdout: log,
    stderr: log,
  })
  closeSync(log)
  const base = `http://127.0.0.1:${port}`
  for (const deadline = performance.now() + 120_000; ; await Bun.sleep(100)) {
    if ((await fetch(base + '/api/health').catch(() => null))?.ok) break
    if (server.exitCode !== null || performance.now() > deadline) throw new Error(`${binary} did not answer (log: ${dataDir}/server.log)`)
  }
  let headers: string[] | undefined
  if (EMAIL) {
    const res = await fetch(base + '/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: DEMO_PASSWORD }) })
    if (res.status !== 200) throw new Error(`sign-in of ${EMAIL} answered ${res.status}: ${(await res.text()).slice(0, 200)}`)
    headers = ['-H', `Authorization: Bearer ${((await res.json()) as { token: string }).token}`]
  }
  return {
    label: `${n}. ${binary}`,
    base,
    headers,
    pid: () => [server.pid],
    stop: async () => {
      server.kill('SIGTERM')
      await server.exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

const targets: Target[] = []
let floor: Floor | undefined
try {
  for (const [i, binary] of binaries.entries()) targets.push(await startBinary(binary, i + 1))
  if (FLOOR) {
    const workDir = mkdtempSync(join(tmpdir(), 'bench-request-cpu-floor-'))
    floor = await startFloor('elysia', { root, workDir, processes: 1 })
    const pids = Bun.spawnSync(['pgrep', '-f', join(workDir, 'floor-elysia.ts')]).stdout.toString().trim().split('\n').map(Number)
    targets.push({ label: 'a bare Elysia app, one route (GET /api/health)', base: floor.base, pid: () => pids, stop: async () => {}, path: '/api/health' })
  }
  // Warm-up: the binary's JIT is held back at start (scripts/build-binary.ts), and every JIT needs a few seconds' load.
  for (const t of targets) await wrk(t, 3)
  const rounds = new Map<Target, number[]>(targets.map((t) => [t, []]))
  for (let r = 0; r < ROUNDS; r++)
    for (const t of targets) {
      const before = cpuMicros(t.pid())
      const requests = await wrk(t, SECONDS)
      rounds.get(t)!.push((cpuMicros(t.pid()) - before) / requests)
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  console.log(`\nServer CPU per request of GET ${PATH}: one process each, wrk -t1 -c${CONNECTIONS} -d${SECONDS}s, ${ROUNDS} rounds in turn\n`)
  console.log('| server | µs CPU / request, each round | median |\n|---|---|---|')
  for (const t of targets) console.log(`| ${t.label} | ${rounds.get(t)!.map((x) => x.toFixed(1)).join(', ')} | **${median(rounds.get(t)!).toFixed(1)}** |`)
} finally {
  await Promise.all(targets.map((t) => t.stop()))
  await floor?.stop()
}
