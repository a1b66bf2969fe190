import { Elysia } from 'elysia'

// Writes first (issue 36; docs/decisions/0XX-write-lane.md). A process answers every request on one event loop, and
// under load each turn of it brings a batch of ready requests (as many as connections have sent one), which it used to
// work through in order: a write arriving behind 32 reads waited for all of them, then for its place in the next batch.
// Now a read waits in a queue of this process, and the loop lets one of them go per turn, looking at its sockets again
// in between; a write (any other method) is worked at once, when its turn's sockets are read. Reads keep their order
// among themselves, and every turn lets one through, so a flood of writes slows the reads but never stops them.

/** What waits its turn: requests that change nothing. Every other method is a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Reads in arrival order, one let through per turn of the event loop. `setImmediate` runs after the turn's sockets:
 * one scheduled from within it runs only after the loop has polled them again (Bun, as Node), so a write that arrived
 * meanwhile is read and worked before the next read.
 */
export class ReadLane {
  private readonly waiting: (() => void)[] = []
  private head = 0
  private pumping = false

  turn(): Promise<void> {
    return new Promise<void>((go) => {
      this.waiting.push(go)
      if (this.pumping) return
      this.pumping = true
      setImmediate(this.next)
    })
  }

  /** Reads waiting now. */
  get length(): number {
    return this.waiting.length - this.head
  }

  private readonly next = () => {
    const go = this.waiting[this.head++]
    // Compacted now and then, not shifted per read.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) this.waiting.splice(0, this.head), (this.head = 0)
    go?.()
    if (this.length > 0) setImmediate(this.next)
    else {
      this.waiting.length = 0
      this.head = 0
      this.pumping = false
    }
  }
}

/**
 * The platform's lane (WRITE_LANE=1, the default): every read request waits its turn in `lane` before anything else
 * of it runs (after the request log and metrics have noted its arrival, so their durations include the wait).
 * WRITE_LANE=0 leaves every request in arrival order, as before.
 */
export function writeLane(enabled: boolean, lane = new ReadLane()) {
  const plugin = new Elysia({ name: 'write-lane', seed: enabled })
  if (!enabled) return plugin
  return plugin.onRequest(async ({ request }) => {
    if (READS.has(request.method)) await lane.turn()
  })
}
