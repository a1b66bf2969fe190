// What `bun run bench:http --wal` (scripts/bench-http.ts) prints of SQLite's write-ahead log under steady writes
// (issue 29, docs/decisions/030-wal.md); the log itself is watched by WalWatch (scripts/wal-files.ts).
import { median, percentile } from './bench-stats'
import type { WalWatch } from './wal-files'

export const MB = 1024 * 1024
export const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`
/** A frame: a 4,096-byte page and its 24-byte header. */
export const FRAME_BYTES = 4096 + 24

export type TimedWrite = { at: number; ms: number; ok: boolean }

/**
 * The run in about ten windows, markdown: the log file's size at the window's end and its largest, what was written to
 * the log and how often it started over, the writes answered and their latency.
 */
export function walTable(watch: WalWatch, writes: TimedWrite[], seconds: number): string {
  const width = Math.max(5, Math.round(seconds / 10))
  const lines = [
    '| Seconds | WAL file at the end | WAL file max | Written to the log | Log started over | POSTs answered | POST p50 | POST p99 |',
    '|---|---|---|---|---|---|---|---|',
  ]
  let before = { written: 0, restarts: 0 }
  for (let from = 0; from < seconds; from += width) {
    const to = Math.min(seconds, from + width)
    const samples = watch.between(from, to)
    if (!samples.length) continue
    const end = samples.at(-1)!
    const answered = writes.filter((w) => w.at >= from && w.at < to)
    const ms = answered.map((w) => w.ms)
    const refused = answered.filter((w) => !w.ok).length
    lines.push(
      `| ${[
        `${from}–${to}`,
        mb(end.bytes),
        mb(Math.max(...samples.map((s) => s.bytes))),
        mb((end.written - before.written) * FRAME_BYTES),
        `${end.restarts - before.restarts}×`,
        `${answered.length}${refused ? ` (${refused} refused)` : ''}`,
        ms.length ? `${median(ms).toFixed(1)} ms` : '',
        ms.length ? `${percentile(ms, 99).toFixed(1)} ms` : '',
      ].join(' | ')} |`,
    )
    before = end
  }
  return lines.join('\n')
}
