import { RESTART_BYTES, WRITER_TRUNCATE_BYTES } from './wal'

/**
 * Keeps SQLite's write-ahead log short, from a thread of its own in the primary (docs/decisions/006-processes.md and
 * 030-wal.md).
 *
 * SQLite's default runs a checkpoint inside whichever commit pushes the log past 1,000 pages, on the thread that
 * serves requests: on the bench database one insert in thirty took 266 ms instead of about 1 ms, and every request
 * queued behind it waited as long. The server turns that off (`wal_autocheckpoint = 0` on every connection of every
 * process) and this thread checkpoints instead:
 *
 * - every second PASSIVE: copies the log's pages back into the file, never waiting for anyone nor blocking anyone;
 * - TRUNCATE when the log file has passed `RESTART_BYTES` (looked at four times a second), or when everything is
 *   copied and nothing was written for a second: the log starts over and its file is cut to nothing.
 *
 * PASSIVE alone let the log grow without bound under steady writes (issue 29: 418 MB in 40 s at 50 listings/s). The
 * log starts over only when a write begins while every frame of it has been copied and no reader still reads from it;
 * with a commit every few milliseconds the copy never caught up at the moment a write began, so it never started over,
 * and its file kept its largest size after the writes stopped. TRUNCATE holds writers off while it copies the frames
 * committed since the PASSIVE just before and waits for the readers still reading the log (new ones read the file): a
 * few tens of milliseconds, at most `busyMs` of waiting. When it cannot finish in time (a backup's `VACUUM INTO` reads
 * one snapshot for as long as it runs), it leaves everything as it was and tries again later, backing off. A process
 * committing transactions back to back leaves it no moment to take the write lock: past `WRITER_TRUNCATE_BYTES` that
 * process's writer truncates the log between two of them (db/sqlite.ts), and this thread keeps out of its way until
 * the file stops growing.
 *
 * The thread's code is a string made into a Blob: a Worker file would have to be listed as a second entry point of the
 * compiled binary, where its path differs from the source tree's; a Blob works the same in both.
 */

const CODE = `
import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
let db = null
let timer = null
let options = null
let ticks = 0
let lastLog = -1
let lastSize = -1
let retryAt = 0
let backoffMs = 0
const walBytes = () => {
  try { return statSync(options.path + '-wal').size } catch { return 0 }
}
const checkpoint = (mode) => db.query('PRAGMA wal_checkpoint(' + mode + ')').get()
function tick() {
  const due = ++ticks % options.passiveEvery === 0
  const size = walBytes()
  const growing = size !== lastSize
  if (due) lastSize = size
  if (size > options.writerBytes) {
    // Past this the writers truncate the log themselves, between two of their own transactions (db/sqlite.ts): a
    // checkpoint here would hold the checkpoint lock theirs needs. Only once the file has stopped growing is it ours.
    if (due && !growing && Date.now() >= retryAt) {
      checkpoint('PASSIVE')
      truncate()
    }
    return
  }
  const grown = size > options.restartBytes && Date.now() >= retryAt
  if (!due && !grown) return
  const passive = checkpoint('PASSIVE')
  // Everything copied, and the log as long as at the last look: nobody is writing.
  const quiet = passive.log > 0 && passive.checkpointed === passive.log && passive.log === lastLog
  lastLog = passive.log
  if (grown || (quiet && Date.now() >= retryAt)) truncate()
}
function truncate() {
  if (checkpoint('TRUNCATE').busy) {
    // A writer or a reader held on longer than busyMs: the next try waits longer each time (at most 4 s).
    backoffMs = Math.min(4000, Math.max(250, backoffMs * 2))
    retryAt = Date.now() + backoffMs
  } else {
    backoffMs = 0
    lastLog = 0
  }
}
onmessage = (e) => {
  const { type } = e.data
  if (type === 'start') {
    options = e.data
    db = new Database(options.path)
    // Only TRUNCATE waits (PASSIVE never does): for the writer of the moment to commit, then for readers still in the
    // log, while holding other writers off. Not long: the next tick tries again.
    db.exec('PRAGMA busy_timeout = ' + options.busyMs)
    timer = setInterval(() => {
      try { tick() } catch (err) { console.error('[checkpoint] ' + err.message) }
    }, options.everyMs)
  } else if (type === 'stop') {
    clearInterval(timer)
    try { db?.query('PRAGMA wal_checkpoint(PASSIVE)').get() } catch {}
    db?.close()
    postMessage('stopped')
  }
}
`

export type Checkpointer = { stop: () => Promise<void> }

/** `everyMs`: how often the log's size is looked at; a PASSIVE checkpoint runs every `passiveEvery` looks. */
export function startCheckpointer(
  path: string,
  { everyMs = 250, passiveEvery = 4, restartBytes = RESTART_BYTES, writerBytes = WRITER_TRUNCATE_BYTES, busyMs = 100 } = {},
): Checkpointer {
  const url = URL.createObjectURL(new Blob([CODE], { type: 'application/javascript' }))
  const worker = new Worker(url)
  worker.postMessage({ type: 'start', path, everyMs, passiveEvery, restartBytes, writerBytes, busyMs })
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          worker.terminate()
          URL.revokeObjectURL(url)
          resolve()
        }
        const timeout = setTimeout(done, 5000)
        worker.onmessage = () => {
          clearTimeout(timeout)
          done()
        }
        worker.postMessage({ type: 'stop' })
      }),
  }
}
