import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Metrics, MetricJson } from '../../platform/metrics'
import { isWorker, primaryGone, shareWithWorkers } from '../../platform/processes'

// WORKERS processes share one port (src/platform/processes.ts), so a scrape lands on any of them; Prometheus must still see one
// set of counters. Each process serves its own numbers as JSON on a Unix socket in a folder the primary made, and the
// process that answers a scrape asks every other one there and merges their numbers with its own
// (docs/decisions/021-metrics.md).

/** The folder of the sockets, as the primary tells its workers. */
export const METRICS_DIR_ENV = 'BROKERNET_METRICS_DIR'

/** A sibling that has not answered by then is left out of this scrape (`brokernet_metrics_processes` shows it). */
const SIBLING_TIMEOUT_MS = 2000

/**
 * Called once the server listens. The primary of several processes makes the folder (mode 0700: only this user reaches
 * the sockets) before it starts its workers; each process then serves its numbers there until it exits. One process
 * alone, or a worker started without a primary's folder, has no siblings. `metrics.everyProcess()` then asks them.
 */
export function shareMetrics(metrics: Metrics, workers: number): void {
  let dir = process.env[METRICS_DIR_ENV]
  if (!isWorker()) {
    if (workers <= 1) return
    const made = mkdtempSync(join(tmpdir(), 'brokernet-metrics-'))
    process.once('exit', () => rmSync(made, { recursive: true, force: true }))
    shareWithWorkers(METRICS_DIR_ENV, made)
    dir = made
  }
  if (!dir) return

  const own = join(dir, `${process.pid}.sock`)
  rmSync(own, { force: true }) // a dead process's, whose pid this one got
  Bun.serve({
    unix: own,
    fetch: async (request) => (new URL(request.url).pathname === '/metrics.json' ? Response.json(await metrics.snapshot()) : new Response(null, { status: 404 })),
  })
  process.once('exit', () => {
    rmSync(own, { force: true })
    // A worker outliving its primary (killed outright, so it removed nothing) takes the folder along.
    if (primaryGone()) rmSync(dir, { recursive: true, force: true })
  })

  metrics.shareWith(async () => {
    const others = readdirSync(dir)
      .filter((name) => name.endsWith('.sock'))
      .map((name) => join(dir, name))
      .filter((path) => path !== own)
    const answers = await Promise.all(others.map(ask))
    return answers.filter((a): a is MetricJson[] => a !== null)
  })
}

async function ask(socket: string): Promise<MetricJson[] | null> {
  try {
    const res = await fetch('http://localhost/metrics.json', { unix: socket, signal: AbortSignal.timeout(SIBLING_TIMEOUT_MS) })
    return res.ok ? ((await res.json()) as MetricJson[]) : null
  } catch (e) {
    // Nobody listens there: a process killed before it could remove its socket (a restarted worker has a new one).
    // Removed only when that process is gone: a worker just started has made its socket file but may not listen on it
    // yet, and removing it then left the worker out of every scrape for good (a full run met it once, under load).
    if ((e as { code?: string }).code === 'ECONNREFUSED' && gone(Number(/(\d+)\.sock$/.exec(socket)?.[1]))) rmSync(socket, { force: true })
    return null
  }
}

/** Whether the process that made a socket has ended (or is a zombie its parent has not reaped yet). */
function gone(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return true
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] === 'Z'
  } catch {
    // No such entry, or no /proc (not Linux): ask the kernel.
  }
  try {
    process.kill(pid, 0)
    return false
  } catch (e) {
    return (e as { code?: string }).code === 'ESRCH'
  }
}
