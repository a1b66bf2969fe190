import { expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from './support/server'

// The memory probe (src/platform/memory-probe.ts, issue 36): off unless BROKERNET_MEMORY_PROBE names a folder; then each
// SIGUSR2 writes what the process's memory holds, and the server goes on answering.
test('with BROKERNET_MEMORY_PROBE, SIGUSR2 writes the heap, the caches and the resident set before and after a collection', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-probe-'))
  const s = await startServer({ env: { BROKERNET_MEMORY_PROBE: dir } })
  try {
    writeFileSync(join(dir, 'label'), 'a test mark')
    s.proc.kill('SIGUSR2')
    const file = join(dir, `${s.proc.pid}-1.json`)
    let probe: any
    for (const deadline = Date.now() + 60_000; !probe && Date.now() < deadline; await Bun.sleep(50)) {
      try {
        probe = JSON.parse(readFileSync(file, 'utf8'))
      } catch {} // not written (whole) yet
    }
    expect(probe.label).toBe('a test mark')
    for (const side of [probe.before, probe.after]) {
      expect(side.rssMB).toBeGreaterThan(10)
      expect(side.heapSizeMB).toBeGreaterThan(0)
      expect(side.heapCapacityMB).toBeGreaterThanOrEqual(side.heapSizeMB)
      expect(side.caches.counts).toEqual(expect.objectContaining({ entries: expect.any(Number), weight: expect.any(Number) }))
      expect(side.caches.pages.entries).toBeGreaterThanOrEqual(0)
    }
    expect(probe.gcMs).toBeGreaterThanOrEqual(0)
    expect(probe.released.rssMB).toBeGreaterThan(10)
    // Still serving.
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200)
  } finally {
    await s.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}, 120_000)
