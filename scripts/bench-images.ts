// `bun run bench:images`: the image pipeline's speed and memory (issue 34's target: a 12 MP phone JPEG to both sizes in
// at most 400 ms median, on one core, off the server's event loop). Photos go through the pool, so the figures are the
// image process's, as the server would see them: wall time from handing the photo over to having both WebPs, the CPU
// time the image process reports for it, and that process's peak memory.
//
//   bun run bench:images                          # made-up 12 MP phone photo (tests/support/image-fixtures.ts)
//   bun run bench:images -- --file IMG.heic       # any photo
//   bun run bench:images -- --binary dist/brokernet   # the image process of the compiled binary
//   bun run bench:images -- --runs 15 --cores 0   # samples; the CPU the image process is pinned to (default 0)
//
// The image process is pinned to one core with taskset (a child inherits it), as the target says.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { ImagePool, imageProcessCommand } from '../src/platform/images/pool'
import { argValue, loadAverage, median } from './bench-stats'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const runs = Number(argValue(args, 'runs') ?? 9)
const core = argValue(args, 'cores') ?? '0'
const binary = argValue(args, 'binary')
const work = mkdtempSync(join(tmpdir(), 'brokernet-bench-images-'))

let files = argValue(args, 'file') ? [resolve(argValue(args, 'file')!)] : []
if (files.length === 0) {
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), work], { stdout: 'inherit', stderr: 'inherit' })
  if (made.exitCode !== 0) process.exit(1)
  files = [join(work, 'photo.jpg')]
}

const command = [...(Bun.which('taskset') ? ['taskset', '-c', core] : []), ...(binary ? [resolve(binary), 'image-worker'] : imageProcessCommand())]
const pool = new ImagePool({ command, nativeDir: join(work, '.native'), onProblem: console.error })
console.log(`load average at start: ${loadAverage()}; image process: ${command.join(' ')}`)
console.log('| photo | bytes | wall ms (median) | CPU ms (median) | min–max wall | large | thumbnail | peak RSS of the image process |')
console.log('|---|---|---|---|---|---|---|---|')
try {
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file))
    await pool.process(bytes) // the process starts and loads sharp (and libheif for a HEIC) once
    const walls: number[] = []
    const cpus: number[] = []
    let last
    for (let i = 0; i < runs; i++) {
      const t = performance.now()
      last = await pool.process(bytes)
      walls.push(performance.now() - t)
      cpus.push(pool.lastCpuMs)
    }
    const pid = pool.pids[0]!
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
    const s = last!.source
    console.log(
      `| ${s.format} ${s.width}×${s.height} | ${(bytes.length / 1e6).toFixed(2)} MB | ${median(walls).toFixed(0)} | ${median(cpus).toFixed(0)} | ` +
        `${Math.min(...walls).toFixed(0)}–${Math.max(...walls).toFixed(0)} | ${last!.large.width}×${last!.large.height}, ${(last!.large.bytes.length / 1024).toFixed(1)} KiB | ` +
        `${last!.thumb.width}×${last!.thumb.height}, ${(last!.thumb.bytes.length / 1024).toFixed(1)} KiB | ${hwm.toFixed(0)} MB |`,
    )
  }
} finally {
  await pool.close()
  rmSync(work, { recursive: true, force: true })
}
console.log(`load average at end: ${loadAverage()}`)
