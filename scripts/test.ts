// Runs every suite with bun test and ends with one line: "N passed, N failed".
//  1. the type check (counted as one test);
//  2. builds dist/brokernet, the program self-hosters run;
//  3. every suite in process (unit, API through app.handle, browser, server start-up, the binary's own test);
//  4. the API suites again, over HTTP against dist/brokernet (tests/support/app.ts, BROKERNET_BINARY): what ships is
//     what is tested;
//  5. the API suites on PostgreSQL (a throwaway cluster, tests/support/postgres.ts), in process and against the binary,
//     and the demo seed's unit suite (compared there with SQLite's, row for row).
// With arguments (`bun run test tests/e2e`), only `bun test <arguments>`, in process.
import { ensureChromium } from './ensure-chromium'
import { postgresBin, startCluster, type Cluster } from '../tests/support/postgres'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
ensureChromium() // browser tests fail with its message when it is missing; the others still run

type Run = { passed: number; failed: number; ok: boolean }

// The failed tests, repeated just above the summary with what bun printed about each (the error, the expectation and
// the lines of the test that threw): a long run's log is often read from its tail only, and a failure that does not
// come again on a second run is understood from that tail or not at all.
const failures = new Map<string, string[]>()
/** At most this many lines of a failure's account are repeated (an error's stack and source excerpt fit). */
const FAILURE_LINES = 30

// The type check counts as one more test: a type error fails the run like any other.
const typecheck = Bun.spawnSync([process.execPath, 'x', 'tsc', '--noEmit', '-p', '.'], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
const typecheckPassed = typecheck.exitCode === 0
console.log(typecheckPassed ? '(pass) typecheck' : '(fail) typecheck')

async function bunTest(testArgs: string[], env: Record<string, string> = {}): Promise<Run> {
  const proc = Bun.spawn([process.execPath, 'test', '--timeout', '120000', ...testArgs], {
    cwd: root,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  })
  let tail = ''
  async function relay(stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) {
    const decoder = new TextDecoder()
    let partial = ''
    // What bun printed since the last test's result: the account of the next test, if it fails.
    let account: string[] = []
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true })
      out.write(text)
      tail = (tail + text).slice(-4000)
      const lines = (partial + text).split('\n')
      partial = lines.pop()!
      for (const line of lines) {
        const result = /^\((pass|fail|skip|todo)\)/.exec(line)
        if (!result) {
          account.push(line)
          if (account.length > FAILURE_LINES) account.shift()
          continue
        }
        // bun names each failure twice (as it happens, and in its own summary, without the account): the first is kept.
        if (result[1] === 'fail' && !failures.has(line)) failures.set(line, account.filter((l) => l.trim() !== ''))
        account = []
      }
    }
  }
  await Promise.all([relay(proc.stdout, process.stdout), relay(proc.stderr, process.stderr)])
  const code = await proc.exited
  const passed = Number(/^\s*(\d+) pass\s*$/m.exec(tail)?.[1] ?? 0)
  const failed = Number(/^\s*(\d+) fail\s*$/m.exec(tail)?.[1] ?? 0)
  // A crash before the summary counts as a failure, so the line never reads green by accident.
  return { passed, failed: code !== 0 && failed === 0 ? 1 : failed, ok: code === 0 && passed > 0 }
}

const runs: Run[] = []
// One PostgreSQL cluster for every run's shared databases (tests that restart a server start their own), stopped at
// the end: a `bun test` process runs no exit hooks, so a cluster it started itself would outlive it.
const pg: Cluster | null = postgresBin()
  ? await startCluster().catch((e: Error) => (console.error(`PostgreSQL: ${e.message}`), null)) // its suites then fail on their own
  : null
if (pg) process.env.BROKERNET_SHARED_PG_URL = pg.url
try {
  if (args.length > 0) runs.push(await bunTest(args))
  else {
    const build = Bun.spawnSync([process.execPath, 'scripts/build-binary.ts'], { cwd: root, stdout: 'inherit', stderr: 'inherit' })
    const built = build.exitCode === 0
    console.log(built ? '(pass) build dist/brokernet' : '(fail) build dist/brokernet')
    runs.push({ passed: built ? 1 : 0, failed: built ? 0 : 1, ok: built })
    const binary = `${root}dist/brokernet`
    // In process; the binary's own test (tests/binary.test.ts) starts the build above instead of building again.
    runs.push(await bunTest([], built ? { BROKERNET_BUILT: binary } : {}))
    if (built) {
      console.log('\nThe API suites again, over HTTP against dist/brokernet:')
      runs.push(await bunTest(['tests/api'], { BROKERNET_BINARY: binary }))
    }
    console.log('\nThe API suites on PostgreSQL, in process:')
    runs.push(await bunTest(['tests/api', 'tests/unit/pg-derived.test.ts', 'tests/unit/seed.test.ts'], { BROKERNET_TEST_DATABASE: 'postgres' }))
    if (built) {
      console.log('\nThe API suites on PostgreSQL, over HTTP against dist/brokernet:')
      runs.push(await bunTest(['tests/api'], { BROKERNET_TEST_DATABASE: 'postgres', BROKERNET_BINARY: binary }))
    }
  }
} finally {
  await pg?.stop()
}

if (failures.size) console.log(`\nFailed:\n${[...failures].map(([name, account]) => [name, ...account.map((l) => `    ${l}`)].join('\n')).join('\n')}`)
const passed = runs.reduce((n, r) => n + r.passed, 0) + (typecheckPassed ? 1 : 0)
const failed = runs.reduce((n, r) => n + r.failed, 0) + (typecheckPassed ? 0 : 1)
console.log(`${passed} passed, ${failed} failed`)
process.exit(runs.every((r) => r.ok) && typecheckPassed ? 0 : 1)
