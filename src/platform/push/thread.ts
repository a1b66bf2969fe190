import type { Config } from '../config'
import type { PushEvent, PushStats } from './stats'

// The push sender in a thread of its own (docs/decisions/043-push-thread.md). Encrypting, signing and posting a
// thousand messages took the event loop that serves requests: during a burst of 1,000 pushes a process's listing reads
// fell from 1,011 to 37 a second. The server's side (`SenderThread`) only writes the outbox rows, in the caller's
// transaction as before, and tells the thread to look; the thread (`servePushThread`, started by the feature's entry
// file, ./serve-thread.ts) owns a PushSender with its own database connection and does everything else: claims, the guard, encryption,
// the requests, the outcomes, retries and sweeps.

/** What the thread needs of the configuration (structured-cloned to it). */
export type ThreadConfig = Pick<Config, 'pushAllowHosts' | 'publicUrl' | 'mailFrom' | 'databasePath' | 'databaseUrl'>
/** The push sender's tunables (./sender.ts), plain data that can cross to the thread. */
export type ThreadSenderOptions = {
  /** Messages on the wire at once (each is one HTTP request). */
  concurrency?: number
  /** The waits before the 2nd, 3rd… attempt after a 5xx, a 429 without Retry-After or no answer; then it is given up. */
  retryDelaysMs?: number[]
  /** The longest Retry-After honoured (a longer one is cut to this). */
  maxRetryAfterMs?: number
  /** How long a claim holds a message: a sender that died lets go of it after this. */
  leaseMs?: number
  /** How often the outbox is looked at for messages due that nobody is sending (retries, a dead sender's); 0: never. */
  sweepMs?: number
  /** How long a push service may take to answer. */
  timeoutMs?: number
  /** Messages a second a burst queued by the thread's own tasks is spread over (./pace.ts); 0 or unset: no pace. */
  rate?: number
}

export type ToThread =
  | { type: 'start'; config: ThreadConfig; options: ThreadSenderOptions }
  | { type: 'kick'; tokens: number[] }
  | { type: 'task'; name: string; data: unknown }
  | { type: 'idle' | 'close'; id: number }
/** `queued`: messages the thread's tasks queued since the last batch (counted as the server's own `notify`s are). */
export type FromThread = { type: 'events'; events: PushEvent[]; queued?: number } | { type: 'done'; id: number }

/** How long close() waits for the thread to finish what is on the wire before ending it. */
const CLOSE_WAIT_MS = 35_000

/** The server's handle on the sender thread: started by the first message to send (or the first due one a look finds). */
export class SenderThread {
  private worker: Worker | null = null
  private nextId = 0
  private readonly waiting = new Map<number, () => void>()
  /** Set by close(): from then on nothing starts a thread again (a kick or task still on its way is dropped). */
  private closed = false

  constructor(
    private readonly entry: string | URL,
    private readonly config: ThreadConfig,
    private readonly options: ThreadSenderOptions,
    private readonly stats: Pick<PushStats, 'queued' | 'record'> | undefined,
  ) {}

  get running(): boolean {
    return this.worker !== null
  }

  /** Starts the thread if it is not running: it then sends what is due and sweeps the outbox itself. */
  start(): void {
    if (this.worker || this.closed) return
    const worker = new Worker(this.entry)
    // Never the reason a process stays up (the server closes it at shutdown).
    ;(worker as unknown as { unref(): void }).unref()
    worker.onmessage = (e: MessageEvent<FromThread>) => {
      const m = e.data
      if (m.type === 'events') {
        if (m.queued) this.stats?.queued(m.queued)
        for (const event of m.events) this.stats?.record(event)
      }
      else this.settle(m.id)
    }
    worker.onerror = (e) => {
      // A failure inside it: the next message to send (or the server's look for due ones) starts a new one.
      console.error('[push] the sender thread failed:', e.message)
      if (this.worker === worker) this.stop(worker)
    }
    this.worker = worker
    this.post({ type: 'start', config: this.config, options: this.options })
  }

  /** Messages were queued (on PostgreSQL: by the transactions holding these tokens' locks). */
  kick(tokens: number[]): void {
    this.start()
    this.post({ type: 'kick', tokens })
  }

  /**
   * Hands the thread a task of the feature's (its entry file names the tasks: ./serve-thread.ts), run there over the
   * thread's own connection: a fan-out of alerts (which users, their settings, one message each) that would otherwise
   * take the event loop that serves requests (docs/decisions/055-burst-off-thread.md).
   */
  task(name: string, data: unknown): void {
    this.start()
    this.post({ type: 'task', name, data })
  }

  /** Resolves when the thread has nothing left to do (or is not running). */
  idle(): Promise<void> {
    return this.ask('idle')
  }

  /** Lets the thread finish what is on the wire and let go of what it claimed, then ends it. */
  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    if (!worker) return
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())
    await Promise.race([this.ask('close'), timeout])
    this.stop(worker)
  }

  private ask(type: 'idle' | 'close'): Promise<void> {
    if (!this.worker) return Promise.resolve()
    const id = ++this.nextId
    const done = new Promise<void>((resolve) => this.waiting.set(id, resolve))
    this.post({ type, id })
    return done
  }

  private post(message: ToThread): void {
    this.worker?.postMessage(message)
  }

  private settle(id: number): void {
    this.waiting.get(id)?.()
    this.waiting.delete(id)
  }

  private stop(worker: Worker): void {
    worker.terminate()
    if (this.worker === worker) this.worker = null
    for (const id of [...this.waiting.keys()]) this.settle(id)
  }
}
