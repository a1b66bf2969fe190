// Binary start to first answer, beside a compiled hello-world of the same run (issue 36: ≤ 3×; docs/decisions/004).
//
// `bun run bench:http` times the binary on its copy of the bench database (an existing database of the bench's size,
// as a restart in service finds it) and a hello-world `Bun.serve` compiled by scripts/build-binary.ts with the same
// flags, started in turn. Each start is timed from spawning to the first 200 of GET /api/health (polled every
// millisecond), with the server's own CPU time up to then (from /proc; steadier than wall time on a loaded machine).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './bench-stats'
import { benchPort } from './bench-port'

/** Issue 36 and 004: the binary's first answer in at most this many times the hello-world's. */
export const START_RATIO_GOAL = 3

/** utime + stime of a process, all threads, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) * 10
  } catch {
    return Number.NaN
  }
}

async function timeStart(executable: string, env: Record<string, string | undefined>, log: string): Promise<{ ms: number; cpu: number }> {
  const port = benchPort()
  const fd = openSync(log, 'w')
  const t0 = performance.now()
  const proc = Bun.spawn([executable], { env: { ...env, PORT: String(port) }, stdout: fd, stderr: fd })
  closeSync(fd)
  for (const deadline = t0 + 60_000; ; await Bun.sleep(1)) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break
    } catch {}
    if (proc.exitCode !== null) throw new Error(`${executable} exited (${proc.exitCode}) before answering: ${readFileSync(log, 'utf8').slice(-600)}`)
    if (performance.now() > deadline) {
      proc.kill('SIGKILL')
      throw new Error(`${executable} did not answer within 60 s`)
    }
  }
  const ms = performance.now() - t0
  const cpu = cpuMs(proc.pid)
  proc.kill('SIGTERM')
  await proc.exited
  return { ms, cpu }
}

export type StartFigures = { binary: number; binaryCpu: number; hello: number; helloCpu: number; starts: number }

/**
 * `starts` starts of the binary (with `env`: its data folder holds the bench database) and of a hello-world compiled
 * with the same flags, in turn; medians. The hello-world is built here, in a folder of its own, removed afterwards.
 */
export async function measureStarts(root: string, binary: string, env: Record<string, string | undefined>, starts = 7): Promise<StartFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-bench-hello-'))
  try {
    const hello = join(dir, 'hello')
    writeFileSync(join(dir, 'hello.ts'), "Bun.serve({ port: Number(process.env.PORT), fetch: () => new Response('ok') })\n")
    const built = Bun.spawnSync([process.execPath, join(root, 'scripts/build-binary.ts'), hello, join(dir, 'hello.ts')], { cwd: root, stdout: 'ignore', stderr: 'inherit' })
    if (built.exitCode !== 0) throw new Error('building the hello-world failed')
    const b: { ms: number; cpu: number }[] = []
    const h: { ms: number; cpu: number }[] = []
    for (let i = 0; i < starts; i++) {
      b.push(await timeStart(binary, env, join(dir, 'start.log')))
      h.push(await timeStart(hello, env, join(dir, 'start.log')))
    }
    return {
      binary: median(b.map((x) => x.ms)),
      binaryCpu: median(b.map((x) => x.cpu)),
      hello: median(h.map((x) => x.ms)),
      helloCpu: median(h.map((x) => x.cpu)),
      starts,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
