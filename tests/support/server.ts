import type { Subprocess } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type RunningServer = { url: string; dataDir: string; output: () => string; proc: Subprocess; stop: () => Promise<number> }

const root = new URL('../..', import.meta.url).pathname

/**
 * Starts the real server (source by default, or a compiled binary) on a free port with a temporary DATA_DIR,
 * and resolves once it prints its URL. `banner: false` (a worker process, which prints none): once it answers on the
 * PORT given in `env`.
 */
export async function startServer(
  opts: { command?: string[]; cwd?: string; env?: Record<string, string>; dataDir?: string; timeoutMs?: number; banner?: boolean } = {},
) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'brokernet-server-'))
  const proc = Bun.spawn(opts.command ?? [process.execPath, 'src/server.ts'], {
    cwd: opts.cwd ?? root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', DEMO_DATA: '0', ...opts.env },
    // A pipe the server may watch: a worker process ends when its stdin does (src/platform/processes.ts).
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let out = ''
  const decoder = new TextDecoder()
  const read = async (s: ReadableStream<Uint8Array>) => {
    for await (const c of s) out += decoder.decode(c, { stream: true })
  }
  void read(proc.stdout)
  void read(proc.stderr)

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000)
  let url: string | undefined
  while (!url) {
    if (opts.banner === false) {
      const at = `http://localhost:${opts.env!.PORT}`
      if (await fetch(`${at}/api/health`).then((r) => r.ok, () => false)) url = at
    } else {
      // The banner ends with the API docs line (one write; see src/server.ts).
      url = /running at (http:\/\/\S+)[\s\S]*API docs: /.exec(out)?.[1]
    }
    if (url) break
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill()
      throw new Error(`server did not start:\n${out}`)
    }
    await Bun.sleep(20)
  }
  const server: RunningServer = {
    url,
    dataDir,
    proc,
    output: () => out,
    stop: async () => {
      proc.kill('SIGTERM')
      const code = await proc.exited
      rmSync(dataDir, { recursive: true, force: true })
      return code
    },
  }
  return server
}
