// SQLite's write-ahead log read from outside, as files (https://sqlite.org/fileformat2.html#walformat): what the WAL
// benchmark (scripts/bench-wal.ts) and test (tests/ops/wal.test.ts) watch of a running server's database.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs'
import { walFileSize } from '../db/wal'

/** The size of `<database>-wal` in bytes (0 when there is none). */
export const walSize = walFileSize

/**
 * The log as the wal-index (`<database>-shm`) describes it now: `frames` in the log, how many of them a checkpoint has
 * copied back (`copied`), and the log's salt, which changes each time it starts over. Null without a wal-index.
 * The header is in the machine's byte order (SQLite writes it through shared memory); x86 and ARM are little-endian.
 */
export function walIndex(databasePath: string): { frames: number; copied: number; salt: string } | null {
  const path = `${databasePath}-shm`
  if (!existsSync(path)) return null
  const fd = openSync(path, 'r')
  try {
    const bytes = Buffer.alloc(136)
    if (readSync(fd, bytes, 0, 136, 0) < 136) return null
    // WalIndexHdr: mxFrame at 16, aSalt at 32; WalCkptInfo after the header's two copies (96): nBackfill first.
    return { frames: bytes.readUInt32LE(16), copied: bytes.readUInt32LE(96), salt: `${bytes.readUInt32LE(32)}:${bytes.readUInt32LE(36)}` }
  } finally {
    closeSync(fd)
  }
}

export type WalContent = { salt: string; txs: number[][] }

/**
 * The transactions in the log since it last started over, each as the page numbers it wrote (one frame per page), and
 * the header's salts, which change when it starts over. A frame belongs to the current log when it carries them; a
 * commit frame records the database's size.
 */
export function walTransactions(databasePath: string): WalContent {
  const path = `${databasePath}-wal`
  if (!existsSync(path)) return { salt: '', txs: [] }
  const bytes = readFileSync(path)
  if (bytes.length < 32) return { salt: '', txs: [] }
  // The log's own header and frame headers are big-endian.
  const pageSize = bytes.readUInt32BE(8)
  const [salt1, salt2] = [bytes.readUInt32BE(16), bytes.readUInt32BE(20)]
  const txs: number[][] = []
  let open: number[] = []
  for (let at = 32; at + 24 + pageSize <= bytes.length; at += 24 + pageSize) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break
    open.push(bytes.readUInt32BE(at))
    if (bytes.readUInt32BE(at + 4) !== 0) {
      txs.push(open)
      open = []
    }
  }
  return { salt: `${salt1}:${salt2}`, txs }
}

/** The transactions written between two reads of the log (`walTransactions`), whether or not it started over meanwhile. */
export function walTransactionsSince(before: WalContent, after: WalContent): number[][] {
  return after.salt === before.salt ? after.txs.slice(before.txs.length) : after.txs
}

/**
 * Watches a live database's log every `everyMs`: the file's size, and from the wal-index how much was written to the
 * log (frames appended, over every start-over) and how often it started over. Starts-over and frames between two looks
 * are missed (the counts are at least that much).
 */
export class WalWatch {
  readonly samples: { at: number; bytes: number; written: number; restarts: number }[] = []
  /** Frames appended to the log since `start`. */
  written = 0
  restarts = 0
  private last: { frames: number; salt: string } | null = null
  private timer: ReturnType<typeof setInterval> | null = null
  private t0 = 0

  constructor(
    readonly databasePath: string,
    private readonly everyMs = 100,
  ) {}

  start(): this {
    this.t0 = performance.now()
    this.last = walIndex(this.databasePath)
    this.take()
    this.timer = setInterval(() => this.take(), this.everyMs)
    return this
  }

  take(): void {
    const now = walIndex(this.databasePath)
    if (now && this.last) {
      if (now.salt !== this.last.salt) {
        this.restarts++
        this.written += now.frames
      } else this.written += Math.max(0, now.frames - this.last.frames)
    }
    if (now) this.last = now
    this.samples.push({ at: this.seconds(), bytes: walSize(this.databasePath), written: this.written, restarts: this.restarts })
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Seconds since `start`. */
  seconds(): number {
    return (performance.now() - this.t0) / 1000
  }

  get maxBytes(): number {
    return Math.max(0, ...this.samples.map((s) => s.bytes))
  }

  between(from: number, to: number) {
    return this.samples.filter((s) => s.at >= from && s.at < to)
  }
}
