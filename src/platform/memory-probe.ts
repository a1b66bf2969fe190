// A look inside a running process's memory (issue 36, docs/decisions/062-memory.md): with BROKERNET_MEMORY_PROBE set to
// a folder, each SIGUSR2 writes <folder>/<pid>-<n>.json: the resident set, JavaScriptCore's heap (its size, the extra
// memory its objects hold outside it, the most numerous object types), the allocator's, and the caches' sizes, each
// read before and after a full collection (how much of the set was garbage not yet collected, and what collecting it
// cost). A measuring tool for bench:http (`--memory-probe`), off unless the variable is set.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { heapStats, memoryUsage } from 'bun:jsc'

const MB = 1024 * 1024
const mb = (n: number) => Math.round((n / MB) * 10) / 10

function read(extra: () => Record<string, unknown>) {
  const h = heapStats()
  const m = memoryUsage()
  const p = process.memoryUsage()
  const types = Object.entries(h.objectTypeCounts).sort((a, b) => b[1] - a[1]).slice(0, 25)
  return {
    rssMB: mb(p.rss),
    heapSizeMB: mb(h.heapSize),
    heapCapacityMB: mb(h.heapCapacity),
    extraMemoryMB: mb(h.extraMemorySize),
    arrayBuffersMB: mb(p.arrayBuffers),
    allocatorCurrentMB: mb(m.current),
    allocatorCommitMB: mb(m.currentCommit),
    objects: h.objectCount,
    types: Object.fromEntries(types),
    ...extra(),
  }
}

export function watchMemoryProbe(dir: string, extra: () => Record<string, unknown>, release?: () => void, forget?: () => void): void {
  mkdirSync(dir, { recursive: true })
  let n = 0
  process.on('SIGUSR2', () => {
    let label = ''
    try {
      label = readFileSync(join(dir, 'label'), 'utf8') // what the measuring script is at (bench:http's marks)
    } catch {}
    const before = read(extra)
    const t0 = performance.now()
    Bun.gc(true)
    const gcMs = Math.round((performance.now() - t0) * 10) / 10
    const after = read(extra)
    // The allocator's own account, to the process's stderr (the server log): what it has handed out by size class
    // ("binned", "huge") against what it holds from the system ("committed", "touched").
    console.error(`[memory-probe] ${process.pid}-${n + 1} ${label}: the allocator after the collection`)
    Bun.unsafe.mimallocDump()
    // Then what the database library gives back when asked (SQLite: PRAGMA shrink_memory): its caches' share.
    release?.()
    const released = release ? { rssMB: mb(process.memoryUsage.rss()) } : null
    // Then the compiled statements kept for reuse finalized, and everything freed handed back (a full collection again).
    let forgotten = null
    if (forget) {
      forget()
      Bun.gc(true)
      forgotten = { rssMB: mb(process.memoryUsage.rss()) }
    }
    writeFileSync(join(dir, `${process.pid}-${++n}.json`), JSON.stringify({ pid: process.pid, n, label, before, gcMs, after, released, forgotten }, null, 1))
  })
}
