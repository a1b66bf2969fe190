// Words and numbers of the system screen (no server code: islands never import it).

export function formatBytes(n: number | null): string {
  if (n === null) return 'unknown'
  if (n < 1024) return `${n} B`
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`
  return `${(n / 1024 ** 3).toFixed(2)} GiB`
}

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
export function backupWarning(ageSeconds: number | null, everyText: string | null): string | null {
  if (ageSeconds === null) return everyText ? 'No backup has been written yet.' : 'No backup has been written yet, and none is scheduled: set BACKUP_EVERY (e.g. 6h).'
  const every = everyText ? parseEvery(everyText) : 86_400
  if (ageSeconds > 2 * every) return `The last backup is ${formatDuration(ageSeconds)} old.`
  return null
}

function parseEvery(text: string): number {
  const m = /^(\d+)([smhd])$/.exec(text)
  if (!m) return 86_400
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as 's' | 'm' | 'h' | 'd']
}
