import { Elysia } from 'elysia'

// Writes first (issue 36; docs/decisions/058-write-lane.md). A process answers every request on one event loop, and
// under load each turn of it brings a batch of ready requests (as many as connections have sent one), which it used to
// work through in order: a write arriving behind 32 reads waited for all of them, then for its place in the next batch.
// Now the reads of one turn run for about a millisecond; the rest wait in a queue of this process, let through in later
// turns, the loop looking at its sockets again in between; a write (any other method) is worked at once, when its
// turn's sockets are read. Reads keep their order among themselves, and every turn lets at least one through, so a
// flood of writes slows the reads but never stops them.

/** What waits its turn: requests that change nothing. Every other method is a write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * How long the reads of one turn of the event loop may run before the rest wait for the next turn: a write arriving
 * meanwhile waits about this long (and for a slow read already running). Under it, reads run at once (a turn of
 * cached answers, tens of microseconds each, pays nothing for the lane).
 */
export const TURN_BUDGET_MS = 1
/** The most reads let through in one later turn (the number adapts to what the turns before took). */
const MOST_PER_TURN = 64

/**
 * Reads in arrival order. In a turn of the event loop, reads run at once while the turn's reads have taken under
 * TURN_BUDGET_MS and none waits; past it, they wait, and later turns let them through (as many as the budget held
 * in the turn before). `setImmediate` runs after the turn's sockets, and one scheduled from within it only after the
 * loop has polled them again (Bun, as Node): a write that arrived meanwhile is read and worked before the next reads.
 */
export class ReadLane {
  private readonly waiting: (() => void)[] = []
  private head = 0
  private pumping = false
  /** When this turn's first read arrived (-1: none yet), and how many waiting reads a turn lets through. */
  private turnStartedAt = -1
  private perTurn = 1
  private lastLetAt = -1

  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** null: go now; else wait for the promise. */
  turn(): Promise<void> | null {
    const now = performance.now()
    if (this.length === 0) {
      if (this.turnStartedAt < 0) {
        this.turnStartedAt = now
        setImmediate(this.endTurn)
      }
      if (now - this.turnStartedAt < this.budgetMs) return null
    }
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

  private readonly endTurn = () => {
    this.turnStartedAt = -1
  }

  private readonly next = () => {
    const now = performance.now()
    // The time since the last reads were let through: theirs, and whatever else the loop did since.
    if (this.lastLetAt >= 0) this.perTurn = now - this.lastLetAt > this.budgetMs ? Math.max(1, this.perTurn >> 1) : Math.min(MOST_PER_TURN, this.perTurn * 2)
    this.lastLetAt = now
    for (let n = 0; n < this.perTurn && this.length > 0; n++) this.waiting[this.head++]!()
    // Compacted now and then, not shifted per read.
    if (this.head > 1024 && this.head * 2 > this.waiting.length) this.waiting.splice(0, this.head), (this.head = 0)
    if (this.length > 0) setImmediate(this.next)
    else {
      this.waiting.length = 0
      this.head = 0
      this.pumping = false
      this.lastLetAt = -1
    }
  }
}

/**
 * The platform's lane (WRITE_LANE=1; off by default until a quiet machine shows what it costs reads: decision 058): a read request waits its turn in `lane` before anything else
 * of it runs (after the request log and metrics have noted its arrival, so their durations include the wait).
 * WRITE_LANE=0 (the default) leaves every request in arrival order, with no hook at all.
 */
export function writeLane(enabled: boolean, lane = new ReadLane()) {
  const plugin = new Elysia({ name: 'write-lane', seed: enabled })
  if (!enabled) return plugin
  return plugin.onRequest(async ({ request }) => {
    const wait = READS.has(request.method) ? lane.turn() : null
    if (wait) await wait
  })
}
