import { writeSync } from 'node:fs'

/** Lines wait at most this long in memory before they are written (an idle server's last lines show within it). */
export const LOG_FLUSH_MS = 1000
/** Or until this much is waiting: one write of up to 64 KB instead of one write a line. */
export const LOG_BUFFER_BYTES = 64 * 1024

/**
 * The request log's destination (docs/decisions/046-request-path.md): lines kept in memory and written together by a
 * timer or once 64 KB wait, instead of one write system call per request on the thread that answers requests. Every
 * write is synchronous (no write is ever in flight), so the lines still waiting when the process exits, normally
 * (SIGTERM's `process.exit`) or by a crash (the uncaught-error handler's `process.exit(1)`), are written by the exit
 * hook, in order. Only a process killed outright (SIGKILL, out of memory) loses what waited: at most LOG_FLUSH_MS.
 */
export class LogBuffer {
  // The lines' bytes, encoded as each line arrives (issue 36, docs/decisions/069-request-cost.md): no list of strings
  // joined and encoded again at each flush. Room for a line of the usual size past the threshold.
  private readonly bytes = Buffer.alloc(LOG_BUFFER_BYTES + 4096)
  private used = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly onExit = () => this.flush()

  constructor(private readonly fd: number) {
    process.on('exit', this.onExit)
  }

  /** pino's destination interface: one serialised line, newline included. */
  write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8: a line that might not fit is written after what waits, or alone.
    if (this.used + line.length * 3 > this.bytes.length) {
      this.flush()
      if (line.length * 3 > this.bytes.length) return writeAll(this.fd, Buffer.from(line))
    }
    // Buffer's write encodes in place (TextEncoder's encodeInto needs a view made of the free part, each line).
    this.used += this.bytes.write(line, this.used)
    if (this.used >= LOG_BUFFER_BYTES) this.flush()
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), LOG_FLUSH_MS)
      // The timer alone does not keep a process alive: the exit hook writes what it would have.
      this.timer.unref()
    }
  }

  /** Writes every waiting line now (`done`: pino's `logger.flush(callback)`, called once written). */
  flush(done?: (error?: Error) => void): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.used) {
      const used = this.used
      this.used = 0
      writeAll(this.fd, this.bytes.subarray(0, used))
    }
    done?.()
  }

  /** Writes what waits and stops watching the exit (tests, or a logger replaced). */
  close(): void {
    this.flush()
    process.off('exit', this.onExit)
  }
}

/** The whole of `bytes`, however the descriptor takes it: partial writes continue, a full pipe (EAGAIN) is waited out. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0, busy = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at)
      busy = 0
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      // A pipe whose reader is slow: wait a moment (at most ~10 s in all), as pino's own destination does.
      if ((code === 'EAGAIN' || code === 'EBUSY') && ++busy < 1000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
        continue
      }
      // Nobody reads the log any more (EPIPE) or the disk is full: the lines are dropped, the server keeps serving.
      return
    }
  }
}
