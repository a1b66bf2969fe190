import { DatabaseUnavailable, NOT_ANSWERING } from './faults'

/** How long a statement waits for PostgreSQL to come back before its request is answered 503. */
export const OUTAGE_WAIT_MS = 1000
/** How often, while PostgreSQL is away, this process asks whether it is back. */
export const OUTAGE_PROBE_MS = 100

/**
 * Whether this process can reach PostgreSQL, as it last found out (issue 29; docs/decisions/028-database-faults.md).
 * A statement that fails because the server is out of reach starts an outage: from then on statements do not go to the
 * pool (whose every connection would try, and fail, again) but wait here for at most `waitMs`, and a probe asks the
 * server every `probeMs` whether it answers. The first answer ends the outage and lets the waiting statements through:
 * a request is answered 503 within about a second while the database is away, and one that arrives after it is back
 * waits at most one probe's interval, then succeeds.
 */
export class PgOutage {
  private back: Promise<void> | null = null
  private end: (() => void) | null = null
  private since = 0
  private closed = false
  /** Told when the next outage starts (whenLost). */
  private readonly waiters = new Set<() => void>()

  constructor(
    /** One cheap statement through the pool (`select 1`): resolves once the server answers. */
    private readonly probe: () => Promise<unknown>,
    private readonly options: { waitMs: number; probeMs: number; log: (line: string) => void } = {
      waitMs: OUTAGE_WAIT_MS,
      probeMs: OUTAGE_PROBE_MS,
      log: (line) => console.error(line),
    },
  ) {}

  /** True from a failure to reach the server until the probe hears from it again. */
  get away(): boolean {
    return this.back !== null
  }

  /** Before a statement: at once while the server is reachable; during an outage, once it ends (or a 503 after `waitMs`). */
  async ready(): Promise<void> {
    const back = this.back
    if (!back) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const gaveUp = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, this.options.waitMs, true)))
    const late = await Promise.race([back.then(() => false), gaveUp])
    clearTimeout(timer)
    if (late) throw new DatabaseUnavailable(NOT_ANSWERING, { reported: true })
  }

  /** Resolves when an outage starts (at once if one is on); `cancel` when no longer waiting. */
  whenLost(): { promise: Promise<void>; cancel: () => void } {
    if (this.back) return { promise: Promise.resolve(), cancel: () => {} }
    let told!: () => void
    const promise = new Promise<void>((resolve) => (told = resolve))
    this.waiters.add(told)
    return { promise, cancel: () => this.waiters.delete(told) }
  }

  /** A statement failed because the server is out of reach (`cause`): an outage starts, unless one is on already. */
  lost(cause: unknown): void {
    if (this.back || this.closed) return
    this.since = performance.now()
    this.back = new Promise((resolve) => (this.end = resolve))
    for (const told of this.waiters) told()
    this.waiters.clear()
    this.options.log(`[database] PostgreSQL is out of reach (${reasonOf(cause)}): answering 503 until it is back`)
    void this.watch()
  }

  /** Stops probing; statements waiting are let through (to fail on the closed pool). */
  close(): void {
    this.closed = true
    this.finish()
  }

  private async watch(): Promise<void> {
    while (!this.closed) {
      try {
        await this.probe()
        this.options.log(`[database] PostgreSQL answers again, after ${((performance.now() - this.since) / 1000).toFixed(1)} s`)
        break
      } catch {
        await Bun.sleep(this.options.probeMs)
      }
    }
    this.finish()
  }

  private finish(): void {
    const end = this.end
    this.back = this.end = null
    end?.()
  }
}

function reasonOf(e: unknown): string {
  const cause = e instanceof DatabaseUnavailable && e.cause ? e.cause : e
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown }
  return [code, message].filter(Boolean).join(': ') || String(cause)
}
