/**
 * Copies the write-ahead log back into the database file on a thread of its own, every second.
 *
 * SQLite's default runs that checkpoint inside whichever commit pushes the log past 1,000 pages, on the thread that
 * serves requests: on the bench database one insert in thirty took 266 ms instead of about 1 ms, and every request
 * queued behind it waited as long (a listing insert writes about 50 pages: 9 indexes, search, counts, audit). The
 * server turns that off (`wal_autocheckpoint = 0` on every connection of every process) and this
 * thread checkpoints instead, PASSIVE, so it never waits for a reader or blocks a writer.
 *
 * The thread's code is a string made into a Blob: a Worker file would have to be listed as a second entry point of the
 * compiled binary, where its path differs from the source tree's; a Blob works the same in both.
 */
const CODE = `
import { Database } from 'bun:sqlite'
let db = null
let timer = null
onmessage = (e) => {
  const { type, path, everyMs } = e.data
  if (type === 'start') {
    db = new Database(path)
    db.exec('PRAGMA busy_timeout = 5000')
    // After a checkpoint lets the log start over, its file is cut back to this size instead of staying at its peak.
    db.exec('PRAGMA journal_size_limit = 67108864')
    timer = setInterval(() => {
      try { db.query('PRAGMA wal_checkpoint(PASSIVE)').get() } catch (err) { console.error('[checkpoint] ' + err.message) }
    }, everyMs)
  } else if (type === 'stop') {
    clearInterval(timer)
    try { db?.query('PRAGMA wal_checkpoint(PASSIVE)').get() } catch {}
    db?.close()
    postMessage('stopped')
  }
}
`

export type Checkpointer = { stop: () => Promise<void> }

export function startCheckpointer(path: string, everyMs = 1000): Checkpointer {
  const url = URL.createObjectURL(new Blob([CODE], { type: 'application/javascript' }))
  const worker = new Worker(url)
  worker.postMessage({ type: 'start', path, everyMs })
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
