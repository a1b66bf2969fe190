import type { Database as SQLite } from 'bun:sqlite'
import { fstatSync, openSync, readSync, statSync } from 'node:fs'

/** Bytes of the wal-index header's first copy (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). */
const HEADER_BYTES = 48

/**
 * One read-only descriptor per `-shm` file this process ever glanced at, keyed by device and inode, and **never
 * closed**. On POSIX, closing any descriptor of a file releases every `fcntl` lock the process holds on it, SQLite's
 * included: its shared "DMS" lock on `-shm`, which tells a connection opened anywhere later that it is not the first
 * and must not truncate the wal-index under running readers. `Bun.mmap` closed its descriptor and lost that lock
 * (docs/decisions/074-sync-gate.md). The cost of never closing: one descriptor per database file a process opens
 * (one in service; one per test database in a test process), and the file's 32 KB kept on disk until the process
 * ends when it is deleted. Holding the inode open also keeps its number from being given to a new file, so a key
 * can never name two files.
 */
const descriptors = new Map<string, number>()

function descriptor(path: string): number {
  const key = (s: { dev: number; ino: number }) => `${s.dev}:${s.ino}`
  const known = descriptors.get(key(statSync(path)))
  if (known !== undefined) return known
  const fd = openSync(path, 'r')
  // Keyed by what was opened, should the path have been replaced between the two calls.
  descriptors.set(key(fstatSync(fd)), fd)
  return fd
}

/**
 * Tells, without asking SQLite, that no transaction has committed on a WAL database since the last look: a read of
 * the wal-index header in the database's `-shm` file, which every commit of every connection rewrites (its `iChange`
 * counts write transactions; `mxFrame` and the salts move with the log). The read is one `pread` of 48 bytes (about
 * 2 µs here), where `PRAGMA data_version` starts and ends a read transaction (two `fcntl` locks and the header's
 * checks: about 7 µs alone, and twice per warm request; issue 36, docs/decisions/074-sync-gate.md).
 *
 * Only "nothing committed" is trusted: any difference (a commit, a checkpoint's restart of the log, a header read
 * while a writer rewrote it) sends the caller to the real check, so a stale look costs one statement, never a missed
 * change. A commit returns only after its header is written (SQLite writes the first copy last), and the request
 * that depends on it is read from a socket after that, so a look taken for that request sees the new header.
 *
 * A `pread`, not a mapping: a read of a file truncated under it returns fewer bytes (then SQLite is asked), where a
 * mapped page of a truncated file kills the process with a bus error. Null where there is no such file (`:memory:`,
 * another journal mode): the caller then asks SQLite every time, as before.
 */
export class WalIndexGate {
  private readonly seen = new Uint32Array(HEADER_BYTES / 4)
  private readonly words = new Uint32Array(HEADER_BYTES / 4)

  private constructor(private readonly fd: number) {}

  static open(client: SQLite): WalIndexGate | null {
    const file = client.filename
    if (!file || file === ':memory:') return null
    try {
      const journal = client.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode
      if (journal !== 'wal') return null
      return new WalIndexGate(descriptor(`${file}-shm`))
    } catch {
      return null
    }
  }

  /** True when the header is as at the last call that answered false (or as first seen): nothing committed since. */
  unchanged(): boolean {
    const { words, seen } = this
    if (readSync(this.fd, words, 0, HEADER_BYTES, 0) < HEADER_BYTES) return false
    let same = true
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!
      if (w !== seen[i]) {
        seen[i] = w
        same = false
      }
    }
    return same
  }
}
