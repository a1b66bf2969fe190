// The bare-runtime floors of `bun run bench:http` (issue 36): what Bun and Elysia answer on this machine, now, with
// nothing of Brokernet in the way. Measured in the same run as Brokernet's own figures, so that a busy shared machine
// shows in both and the ratios still mean something (absolute rates on 2 shared cores vary by a fifth run to run).
//
// Each floor runs as many processes as the binary serves with (SO_REUSEPORT on one port, as the binary's WORKERS do),
// answering GET /api/health with a JSON body of the same shape and size as Brokernet's health answer.
import { closeSync, openSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { benchPort } from './bench-port'

export type FloorKind = 'bun' | 'elysia'
export type Floor = { kind: FloorKind; base: string; stop: () => Promise<void> }

export const FLOOR_LABEL: Record<FloorKind, string> = {
  bun: 'a bare `Bun.serve` answering JSON',
  elysia: 'a bare Elysia app, one route',
}

/** Brokernet's health answer, as it looks: the floors send the same bytes (the header and body sizes matter to wrk). */
const BODY = `{ status: 'ok', version: '0.0.0', database: { ok: true, latency_ms: 0.012 }, uptime_s: Math.round(performance.now() / 1000) }`

const script = (kind: FloorKind, elysiaPath: string) =>
  kind === 'bun'
    ? `Bun.serve({ port: Number(process.env.PORT), reusePort: true, fetch: () => Response.json(${BODY}) })\nconsole.log('listening')\n`
    : `import { Elysia } from ${JSON.stringify(elysiaPath)}\nnew Elysia().get('/api/health', () => (${BODY})).listen({ port: Number(process.env.PORT), reusePort: true })\nconsole.log('listening')\n`

/**
 * Starts one floor: `processes` copies of a tiny server under this Bun, on one port. Resolves once it answers; `stop()`
 * ends every copy (SIGTERM, awaited).
 */
export async function startFloor(kind: FloorKind, { root, workDir, processes }: { root: string; workDir: string; processes: number }): Promise<Floor> {
  const file = join(workDir, `floor-${kind}.ts`)
  writeFileSync(file, script(kind, Bun.resolveSync('elysia', root)))
  const port = benchPort()
  const base = `http://127.0.0.1:${port}`
  const log = openSync(join(workDir, `floor-${kind}.log`), 'a')
  const procs = Array.from({ length: processes }, () =>
    Bun.spawn([process.execPath, file], { env: { ...process.env, PORT: String(port), NODE_ENV: 'production' }, stdout: 'pipe', stderr: log }),
  )
  closeSync(log)
  const stop = async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM')
    await Promise.all(procs.map((p) => p.exited))
  }
  // Every copy listening (each says so once), not just the first: wrk's connections are spread over all of them.
  const ready = (p: (typeof procs)[number]) =>
    (async () => {
      const reader = p.stdout.getReader()
      const decoder = new TextDecoder()
      let text = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return false
        text += decoder.decode(value, { stream: true })
        if (text.includes('listening')) {
          reader.releaseLock()
          return true
        }
      }
    })()
  let timer: Timer | undefined
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 30_000)))
  const started = await Promise.all(procs.map((p) => Promise.race([ready(p), timeout])))
  clearTimeout(timer)
  if (started.includes(false)) {
    await stop()
    throw new Error(`the ${kind} floor did not start within 30 s (log: ${join(workDir, `floor-${kind}.log`)})`)
  }
  return { kind, base, stop }
}
