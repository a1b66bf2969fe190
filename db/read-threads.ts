import { AsyncLocalStorage } from 'node:async_hooks'
import type { Param } from './sql'

/**
 * SQLite reads on threads of their own (docs/decisions/052-reads-off-thread.md). Every process answers requests on one
 * event loop; a cold count or page window on a million listings reads for tens to hundreds of milliseconds, and every
 * request of the process (health checks, cached answers, writes) waited behind it. Here each thread holds a read-only
 * connection of its own to the file (WAL lets readers read while others read and write), so the event loop posts the
 * statement and answers other requests until the rows come back. The caches and the change feed stay on the event
 * loop: a thread only runs the statement it is given and posts its rows back.
 *
 * A read sees everything committed before it was posted: the thread's statement begins its own snapshot when it runs,
 * which is after the post (no statement is left open between two reads: bun:sqlite resets each after `get` and `all`,
 * 030-wal.md). What the caches keep is checked against the change feed on the event loop, as for any asynchronous read
 * (db/snapshot-cache.ts): a value read before a write that the feed has handed out meanwhile is served, not kept.
 *
 * The threads' code is a string made into a Blob, as the checkpointer's (db/checkpointer.ts): the compiled binary then
 * needs no second entry point, and the path is the same in the source tree and in the binary.
 */
const CODE = `
import { Database } from 'bun:sqlite'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
const MAX_STATEMENTS = 256
let db = null
const statements = new Map()
function statement(sql) {
  let st = statements.get(sql)
  if (st) statements.delete(sql)
  else {
    st = db.prepare(sql)
    if (statements.size >= MAX_STATEMENTS) {
      const [oldest, evicted] = statements.entries().next().value
      statements.delete(oldest)
      evicted.finalize()
    }
  }
  statements.set(sql, st)
  return st
}
onmessage = (e) => {
  const m = e.data
  if (m.type === 'open') {
    // This thread only (Linux gives each thread a nice value of its own, and a thread's id is a pid to setpriority):
    // where the kernel cannot, the thread runs at the process's priority.
    if (m.nice) try { setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), m.nice) } catch {}
    db = new Database(m.path, { strict: true })
    for (const pragma of m.pragmas) db.exec('PRAGMA ' + pragma)
    return
  }
  if (m.type === 'close') {
    for (const st of statements.values()) st.finalize()
    statements.clear()
    db?.close()
    db = null
    postMessage({ closed: true })
    return
  }
  try {
    const st = statement(m.sql)
    const rows = m.one ? st.get(...m.params) ?? undefined : st.all(...m.params)
    postMessage({ rows })
  } catch (err) {
    postMessage({ error: { message: String(err?.message ?? err), code: err?.code, errno: err?.errno, name: err?.name } })
  }
}
`

/**
 * The reads of an answer being computed for a cache (db/snapshot-cache.ts), and only those, go to the threads: the
 * cold counts and page windows that take milliseconds to hundreds of them. The rest (a write's own reads, the change
 * feed's) stay on the event loop, where they run at once instead of queueing behind cold reads (decision 074).
 */
const computing = new AsyncLocalStorage<number>()
let computations = 0

/**
 * Runs `work` with its reads marked as a cache's computation: on a read thread where the process has them. Each
 * computation is numbered as it starts (one inside another takes the outer's number, which waits for it), and the
 * threads take the waiting read of the lowest number first.
 */
export const computed = <T>(work: () => Promise<T>): Promise<T> => computing.run(computing.getStore() ?? ++computations, work)

/** Whether the read being made now is part of a cache's computation (see `computed`). */
export const inComputation = (): boolean => computing.getStore() !== undefined

/**
 * The threads' nice value: above the event loop's, so that on cores the loops keep busy the kernel runs the loops
 * first, and an answer already kept never waits for a cold read's time slice (decision 074).
 */
export const READ_THREAD_NICE = 10

/** As the data layer's reader on the event loop (db/sqlite.ts): never writes, waits out another process's lock. */
const PRAGMAS = ['busy_timeout = 5000', 'temp_store = MEMORY', 'query_only = 1']

/** A read waiting for a thread, or running on one; `order`: its computation's (the first started goes first). */
type Read = { order: number; sql: string; params: readonly Param[]; one: boolean; resolve: (value: unknown) => void; reject: (error: unknown) => void }

type Thread = { worker: Worker & { ref(): void; unref(): void }; running: Read | null }

/**
 * How many read threads a process runs by default (READ_THREADS): none. Measured on a quiet 2-core machine with the
 * server's default two processes, two threads each made every row of bench:http slower (first touches' p99 ×1.9–2.1,
 * writes' p50 ×2.1, cold reads' p50 ×2): a thread's read costs several times an on-loop one in messages, and four
 * threads plus two event loops on two cores take turns. Worth it where cores outnumber processes (052).
 */
export const DEFAULT_READ_THREADS = 0

/** A statement's failure in a thread, as bun:sqlite's own error would be on the event loop (db/faults.ts reads `code`). */
class ThreadSQLiteError extends Error {
  code?: string
  errno?: number
  constructor(e: { message: string; code?: string; errno?: number; name?: string }) {
    super(e.message)
    this.name = e.name ?? 'SQLiteError'
    this.code = e.code
    this.errno = e.errno
  }
}

/**
 * `size` threads, started at their first read, each with its own connection to `path`. A read goes to the thread with
 * the fewest reads waiting, so a fast read is not queued behind a slow one while another thread is free. The threads
 * do not keep the process alive (`unref`); `close` ends them.
 */
export class ReadThreads {
  private readonly threads: (Thread | null)[]
  /** Reads no thread has taken yet. */
  private readonly queue: Read[] = []
  private url: string | null = null
  private closed = false
  private readonly drained: (() => void)[] = []
  /** Reads answered by the threads since start (for whoever watches: the app's metrics, the binary's test). */
  reads = 0

  constructor(
    private readonly path: string,
    readonly size: number,
  ) {
    this.threads = Array.from({ length: size }, () => null)
  }

  all<T>(sql: string, params: readonly Param[]): Promise<T[]> {
    return this.send(sql, params, false) as Promise<T[]>
  }

  get<T>(sql: string, params: readonly Param[]): Promise<T | undefined> {
    return this.send(sql, params, true) as Promise<T | undefined>
  }

  /** Reads asked and not answered yet: waiting for a thread, or running on one. */
  get waiting(): number {
    let n = this.queue.length
    for (const t of this.threads) if (t?.running) n++
    return n
  }

  private send(sql: string, params: readonly Param[], one: boolean): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The database is closed'))
    return new Promise((resolve, reject) => {
      this.queue.push({ order: computing.getStore() ?? ++computations, sql, params, one, resolve, reject })
      this.dispatch()
    })
  }

  /**
   * Gives each idle thread (starting one where a slot is empty) the waiting read of the earliest computation. A thread
   * holds one read at a time: a later computation's read never sits in a thread's own queue ahead of an earlier one's
   * next read, so computations finish in the order they started instead of all of them late (decision 074).
   */
  private dispatch(): void {
    for (let i = 0; i < this.threads.length && this.queue.length > 0; i++) {
      const thread = (this.threads[i] ??= this.start(i))
      if (thread.running) continue
      let first = 0
      for (let k = 1; k < this.queue.length; k++) if (this.queue[k]!.order < this.queue[first]!.order) first = k
      const read = this.queue.splice(first, 1)[0]!
      thread.running = read
      // A read waited for keeps the process alive, as any I/O would; an idle thread does not.
      thread.worker.ref()
      thread.worker.postMessage({ sql: read.sql, params: read.params, one: read.one })
    }
    if (this.queue.length === 0 && this.threads.every((t) => !t?.running)) for (const done of this.drained.splice(0)) done()
  }

  private start(slot: number): Thread {
    this.url ??= URL.createObjectURL(new Blob([CODE], { type: 'application/javascript' }))
    const worker = new Worker(this.url) as Thread['worker']
    const thread: Thread = { worker, running: null }
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data as { rows?: unknown; error?: ConstructorParameters<typeof ThreadSQLiteError>[0] }
      const read = thread.running
      if (!read) return
      thread.running = null
      worker.unref()
      this.reads++
      if (m.error) read.reject(new ThreadSQLiteError(m.error))
      else read.resolve(m.rows)
      // Once the answer's own continuation has run: a computation that reads again at once is queued by then, and goes
      // before the later computations that were waiting.
      setImmediate(() => this.dispatch())
    }
    // A thread that died (it should not: every statement's error is caught there) fails the read it held; a new one
    // takes its place for the reads still waiting.
    worker.onerror = (e: ErrorEvent) => {
      thread.running?.reject(new Error(`A database read thread failed: ${e.message}`))
      thread.running = null
      if (this.threads[slot] === thread) this.threads[slot] = null
      worker.terminate()
      this.dispatch()
    }
    worker.postMessage({ type: 'open', path: this.path, pragmas: PRAGMAS, nice: READ_THREAD_NICE })
    worker.unref()
    return thread
  }

  /** Ends the threads once every read asked is answered (closing their connections first: the file's last closer checkpoints). */
  async close(): Promise<void> {
    this.closed = true
    if (this.waiting > 0) await new Promise<void>((done) => this.drained.push(done))
    await Promise.all(
      this.threads.map(async (t, i) => {
        if (!t) return
        this.threads[i] = null
        await new Promise<void>((resolve) => {
          const timeout = setTimeout(resolve, 5000)
          t.worker.onmessage = () => {
            clearTimeout(timeout)
            resolve()
          }
          t.worker.postMessage({ type: 'close' })
        })
        t.worker.terminate()
      }),
    )
    if (this.url) URL.revokeObjectURL(this.url)
    this.url = null
  }
}
