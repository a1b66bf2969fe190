// Words and numbers of the system screen (no server code: islands never import it).

import { formatBytes } from '../../src/shared/bytes'

/** A size the server may not know (a database it could not measure). */
export const formatSize = (n: number | null) => (n === null ? 'unknown' : formatBytes(n))

/** "1 miss", "3 misses". */
export const counted = (n: number, one: string, many: string) => `${n.toLocaleString('en-IN')} ${n === 1 ? one : many}`

/** "4 min", "3 h 5 min", "2 d 4 h": an uptime or an age, to the minute. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ${minutes % 60} min`
  return `${Math.floor(hours / 24)} d ${hours % 24} h`
}

export const formatTime = (ms: number, timeZone: string | undefined) =>
  new Date(ms).toLocaleString('en-IN', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })

export const TRIGGER_LABEL = { SCHEDULE: 'Scheduled', MANUAL: 'Backup now', COMMAND: 'Command line' } as const
export const STATUS_BADGE = {
  RUNNING: 'badge-info',
  OK: 'badge-success',
  FAILED: 'badge-error',
  INTERRUPTED: 'badge-warning',
} as const
export const STATUS_LABEL = { RUNNING: 'Running', OK: 'Written', FAILED: 'Failed', INTERRUPTED: 'Interrupted' } as const

/** A backup older than twice its schedule (or than two days without one) is worth a warning. */
export function backupWarning(ageSeconds: number | null, everySeconds: number | null): string | null {
  if (ageSeconds === null) return everySeconds ? 'No backup has been written yet.' : 'No backup has been written yet, and none is scheduled: set BACKUP_EVERY (e.g. 6h).'
  if (ageSeconds > 2 * (everySeconds ?? 86_400)) return `The last backup is ${formatDuration(ageSeconds)} old.`
  return null
}
