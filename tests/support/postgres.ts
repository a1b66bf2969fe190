import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks (issue 16): Debian's `postgresql` package, a data folder
 * under a temporary folder, listening on a Unix socket in that folder only (no port, no systemd), durability off
 * (a test database is thrown away). `initdb` refuses to run as root, so as root it runs as the `postgres` user.
 * `PG_TEST_URL` names an existing server instead (then nothing is started or stopped).
 */
export type Cluster = {
  /** The maintenance database's URL; `createDatabase` makes a fresh one per test app. */
  url: string
  createDatabase: (name?: string) => Promise<string>
  /**
   * The server's own log (its `-l` file: warnings and errors, each ERROR with the statement that caused it), for tests
   * that read what the database complained of; null for a server named by PG_TEST_URL (not ours to read).
   */
  logFile: string | null
  /** Stops the server (fast: open connections are cut) and starts it again on the same data. */
  restart: () => Promise<void>
  /**
   * Stops the server, keeping its data: `fast` ends every session with an error first (as `pg_ctl restart` does),
   * `immediate` kills them (as a crash does). `resume` starts it again and resolves once it accepts connections.
   */
  pause: (mode: 'fast' | 'immediate') => Promise<void>
  resume: () => Promise<void>
  stop: () => Promise<void>
}

/** The newest installed PostgreSQL's programs, or null when the package is not installed. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : null
}

const asRoot = userInfo().uid === 0

function run(args: string[]): void {
  const command = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args
  const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${args[0]} failed (${result.exitCode}): ${result.stderr.toString()}${result.stdout.toString()}`)
}

/** `run` without holding this process's event loop meanwhile: what the test serves (a proxy, sockets) goes on. */
async function runAsync(args: string[]): Promise<void> {
  const command = asRoot ? ['runuser', '-u', 'postgres', '--', ...args] : args
  const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe' })
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`${args[0]} failed (${code}): ${err}${out}`)
}

let databases = 0

const unmanaged = async () => {
  throw new Error('PG_TEST_URL names a server this test does not manage: it cannot stop or restart it')
}

export async function startCluster(): Promise<Cluster> {
  const given = process.env.PG_TEST_URL
  if (given)
    return {
      url: given,
      createDatabase: (name) => createDatabase(given, name),
      logFile: null,
      restart: unmanaged,
      pause: unmanaged,
      resume: unmanaged,
      stop: async () => {},
    }
  const bin = postgresBin()
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (or set PG_TEST_URL)')
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-pg-'))
  if (asRoot) chownSync(dir, Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim()), Number(Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim()))
  const data = join(dir, 'data')
  run([join(bin, 'initdb'), '-D', data, '-A', 'trust', '--no-sync', '-U', 'postgres', '-E', 'UTF8', '--locale=C'])
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`
  const logFile = join(dir, 'server.log')
  run([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', logFile, '-w', 'start'])
  const url = `postgres://postgres@localhost/postgres?host=${dir}`
  const pause = (mode: 'fast' | 'immediate') => runAsync([join(bin, 'pg_ctl'), '-D', data, '-m', mode, '-w', 'stop'])
  const resume = () => runAsync([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', logFile, '-w', 'start'])
  return {
    url,
    createDatabase: (name) => createDatabase(url, name),
    logFile,
    restart: async () => {
      await pause('fast')
      await resume()
    },
    pause,
    resume,
    stop: async () => {
      // A test may end with its server paused.
      if (existsSync(join(data, 'postmaster.pid'))) run([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A new, empty database on the cluster of `url`; returns its URL. */
async function createDatabase(url: string, name = `brokernet_test_${process.pid}_${++databases}`): Promise<string> {
  const parsed = new URL(url)
  const socket = parsed.searchParams.get('host')
  const admin = postgres(url.replace(/\?.*$/, ''), { max: 1, onnotice: () => {}, ...(socket ? { host: socket } : {}) })
  try {
    await admin.unsafe(`create database "${name}"`)
  } finally {
    await admin.end()
  }
  parsed.pathname = `/${name}`
  return parsed.toString()
}

let shared: Promise<Cluster> | null = null

const sharedOnly = async () => {
  throw new Error('the shared cluster belongs to the test runner: start one of your own (startCluster) to stop or restart it')
}

/**
 * One cluster for this test process (bun test runs a run's files in one process); each test app gets a database of
 * its own on it. `bun run test` starts it once for all its runs and stops it at the end (BROKERNET_SHARED_PG_URL):
 * bun test runs no exit hooks, so a cluster started here, by a `bun test` run by hand, outlives it (stop it with
 * `pg_ctl stop` on each `brokernet-pg-…` folder under the temporary folder).
 */
export function sharedCluster(): Promise<Cluster> {
  const given = process.env.BROKERNET_SHARED_PG_URL
  shared ??= given
    ? Promise.resolve({
        url: given,
        createDatabase: (name?: string) => createDatabase(given, name),
        logFile: null,
        restart: sharedOnly,
        pause: sharedOnly,
        resume: sharedOnly,
        stop: async () => {},
      })
    : startCluster()
  return shared
}
