import type { Database as SQLite } from 'bun:sqlite'

/** Bytes of the wal-index header's first copy (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). */
const HEADER_BYTES = 48

/**
 * Tells, without asking SQLite, that no transaction has committed on a WAL database since the last look: a glance at
 * the wal-index header in the database's `-shm` file, which every connection of every process maps and which every
 * commit rewrites (its `iChange` counts write transactions; `mxFrame` and the salts move with the log). Reading the
 * header is a dozen loads from shared memory, where `PRAGMA data_version` starts and ends a read transaction (two
 * `fcntl` locks and the header's checks: about 5 µs, and twice per warm request; issue 36, docs/decisions/074-sync-gate.md).
 *
 * Only "nothing committed" is trusted: any difference (a commit, a checkpoint's restart of the log, a header read
 * while a writer rewrote it) sends the caller to the real check, so a stale glance costs one statement, never a
 * missed change. A commit returns only after its header is written, and the request that depends on it is read from
 * a socket after that, so a glance taken for that request sees the new header.
 *
 * The mapping lives while the connection that reads through it is open: SQLite truncates the file only when a first
 * connection opens it, which cannot happen while this process holds one (the file's DMS lock), and the feed drops the
 * gate before the connection closes. Null where there is no such file (`:memory:`, another journal mode): the caller
 * then asks SQLite every time, as before.
 */
export class WalIndexGate {
  private readonly seen = new Uint32Array(HEADER_BYTES / 4)

  private constructor(private readonly words: Uint32Array) {}

  static open(client: SQLite): WalIndexGate | null {
    const file = client.filename
    if (!file || file === ':memory:') return null
    try {
      const journal = client.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode
      if (journal !== 'wal') return null
      const map = Bun.mmap(`${file}-shm`, { shared: true, size: HEADER_BYTES })
      if (map.byteLength < HEADER_BYTES) return null
      return new WalIndexGate(new Uint32Array(map.buffer, map.byteOffset, HEADER_BYTES / 4))
    } catch {
      return null
    }
  }

  /** True when the header is as at the last call that answered false (or as first seen): nothing committed since. */
  unchanged(): boolean {
    const { words, seen } = this
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
