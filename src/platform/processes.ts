// Several server processes on one port and one database (docs/decisions/006-processes.md).
//
// The first process (the primary) prepares the database (migrations, first admin, demo data), listens, and starts
// WORKERS - 1 copies of itself with BROKERNET_WORKER set. Every process listens on the same port with SO_REUSEPORT,
// so the kernel spreads connections over them, and serves every route. What must hold across them lives in the
// database: sessions, rate limits, the mail outbox, and the change feed that keeps each process's caches and event
// streams current. Only the primary delivers leftover mail at start, sends the digest mails of matches, sweeps orphaned
// documents and checkpoints.

/** Set in the environment of the processes the primary starts. */
export const WORKER_ENV = 'BROKERNET_WORKER'

export const isWorker = () => process.env[WORKER_ENV] !== undefined

/** How this program is started again: the binary alone, or `bun` and the script under `bun src/server.ts`. */
export const selfCommand = () => (Bun.main.startsWith('/$bunfs/') ? [process.execPath] : [process.execPath, Bun.main])

/**
 * Fails if the port is taken. SO_REUSEPORT would otherwise quietly share it with another Brokernet started by the
 * same user on the same port: a port in use must stay an error, as it is with one process.
 */
export async function assertPortFree(port: number, hostname = '0.0.0.0'): Promise<void> {
  if (port === 0) return
  const probe = Bun.listen({ hostname, port, socket: { data() {} } })
  probe.stop(true)
}

type Supervised = { proc: ReturnType<typeof Bun.spawn>; startedAt: number }

/** Variables the primary gives the workers it starts from now on, beyond its own environment. */
const workerEnv: Record<string, string> = {}

/** Tells every worker started after this call `name` = `value` (where their metrics meet: src/modules/metrics/siblings.ts). */
export function shareWithWorkers(name: string, value: string): void {
  workerEnv[name] = value
}

/**
 * Starts `count` worker processes serving `port`, restarts any that exits unexpectedly (after a second; a worker that
 * keeps dying within seconds of its start is given up after five tries), and stops them all on `stop()`.
 */
export function startWorkers(count: number, port: number, log: (line: string) => void = console.error) {
  let stopping = false
  const workers: (Supervised | null)[] = []
  const quickDeaths: number[] = new Array(count).fill(0)

  const spawn = (index: number) => {
    const proc = Bun.spawn(selfCommand(), {
      env: { ...process.env, ...workerEnv, [WORKER_ENV]: String(index + 1), PORT: String(port) },
      // The worker watches this pipe: it closes when the primary is gone, however it went (exitWithParent).
      stdin: 'pipe',
      stdout: 'inherit',
      stderr: 'inherit',
    })
    const me: Supervised = { proc, startedAt: Date.now() }
    workers[index] = me
    void proc.exited.then((code) => {
      if (stopping || workers[index] !== me) return
      workers[index] = null
      quickDeaths[index] = Date.now() - me.startedAt < 10_000 ? quickDeaths[index]! + 1 : 0
      if (quickDeaths[index]! >= 5) return log(`worker ${index + 1} exited (code ${code}) five times in a row at start: not restarting it`)
      log(`worker ${index + 1} exited (code ${code}): restarting it`)
      setTimeout(() => !stopping && spawn(index), 1000)
    })
  }
  for (let i = 0; i < count; i++) spawn(i)

  return {
    pids: () => workers.flatMap((w) => (w ? [w.proc.pid] : [])),
    /** SIGTERM to every worker; resolves when all have exited (each finishes its requests in flight first). */
    stop: async () => {
      stopping = true
      const running = workers.filter((w): w is Supervised => w !== null)
      for (const w of running) w.proc.kill('SIGTERM')
      await Promise.all(running.map((w) => w.proc.exited))
    },
  }
}

/**
 * A worker ends itself when its primary is gone (even killed without a chance to stop it): no orphan keeps the port.
 * The primary holds the write end of the worker's stdin; the kernel closes it when the primary exits, and the read
 * here ends. (Bun keeps `process.ppid` as it was at start, so polling it sees nothing.)
 */
export function exitWithParent(onGone: () => void): void {
  void (async () => {
    try {
      for await (const _ of Bun.stdin.stream()) {
        // Nothing is ever sent; the loop only waits for the end.
      }
    } catch {
      // An error reading the pipe means the same: the primary is gone.
    }
    parentGone = true
    onGone()
  })()
}

let parentGone = false

/**
 * Whether this worker heard its primary end without stopping it (killed outright): what the primary would have
 * cleaned up on its way out is then the worker's to clean. Known from the pipe, not by asking whether the primary's pid
 * still runs: the kernel closes a dying process's files (the pipe) before it has finished exiting, so for a moment
 * after the worker hears the end the primary still shows as running (state R in /proc; seen in 1 of 4 tries at a load
 * of 20), and a full run's test found the folder left behind (issue 37).
 */
export const primaryGone = () => parentGone
