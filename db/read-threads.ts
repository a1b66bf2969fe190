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
    postMessage({ id: m.id, rows })
  } catch (err) {
    postMessage({ id: m.id, error: { message: String(err?.message ?? err), code: err?.code, errno: err?.errno, name: err?.name } })
  }
}
`

/** As the data layer's reader on the event loop (db/sqlite.ts): never writes, waits out another process's lock. */
const PRAGMAS = ['busy_timeout = 5000', 'temp_store = MEMORY', 'query_only = 1']

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void }

type Thread = { worker: Worker & { ref(): void; unref(): void }; pending: Map<number, Pending> }

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
  private nextId = 1
  private url: string | null = null
  private closed = false
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

  /** Reads posted and not answered yet, over all threads. */
  get waiting(): number {
    let n = 0
    for (const t of this.threads) n += t?.pending.size ?? 0
    return n
  }

  private send(sql: string, params: readonly Param[], one: boolean): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('The database is closed'))
    const thread = this.pick()
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      // A read waited for keeps the process alive, as any I/O would; an idle thread does not.
      if (thread.pending.size === 0) thread.worker.ref()
      thread.pending.set(id, { resolve, reject })
      thread.worker.postMessage({ id, sql, params, one })
    })
  }

  /** An idle thread, else a thread not started yet, else the one with the fewest reads waiting. */
  private pick(): Thread {
    let best: Thread | null = null
    for (let i = 0; i < this.threads.length; i++) {
      const t = this.threads[i]
      if (!t) return (this.threads[i] = this.start(i))
      if (t.pending.size === 0) return t
      if (!best || t.pending.size < best.pending.size) best = t
    }
    return best!
  }

  private start(slot: number): Thread {
    this.url ??= URL.createObjectURL(new Blob([CODE], { type: 'application/javascript' }))
    const worker = new Worker(this.url) as Thread['worker']
    const thread: Thread = { worker, pending: new Map() }
    worker.onmessage = (e: MessageEvent) => {
      const m = e.data as { id: number; rows?: unknown; error?: ConstructorParameters<typeof ThreadSQLiteError>[0] }
      const p = thread.pending.get(m.id)
      if (!p) return
      thread.pending.delete(m.id)
      if (thread.pending.size === 0) worker.unref()
      this.reads++
      if (m.error) p.reject(new ThreadSQLiteError(m.error))
      else p.resolve(m.rows)
    }
    // A thread that died (it should not: every statement's error is caught there) fails what it held; the next read
    // starts a new one in its place.
    worker.onerror = (e: ErrorEvent) => {
      const error = new Error(`A database read thread failed: ${e.message}`)
      for (const p of thread.pending.values()) p.reject(error)
      thread.pending.clear()
      if (this.threads[slot] === thread) this.threads[slot] = null
      worker.terminate()
    }
    worker.postMessage({ type: 'open', path: this.path, pragmas: PRAGMAS })
    worker.unref()
    return thread
  }

  /** Ends the threads once their reads are answered (closing their connections first: the file's last closer checkpoints). */
  async close(): Promise<void> {
    this.closed = true
    await Promise.all(
      this.threads.map(async (t, i) => {
        if (!t) return
        this.threads[i] = null
        await Promise.allSettled([...t.pending.values()].map((p) => new Promise((done) => {
          const { resolve, reject } = p
          p.resolve = (v) => (resolve(v), done(null))
          p.reject = (e) => (reject(e), done(null))
        })))
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
