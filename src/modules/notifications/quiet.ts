// Quiet hours (issue 33): a window of the day in the user's time zone, 22:00–07:00 unless they choose another or none.
// Alerts raised inside it are held and summarised in one push at its end.

import { formatterOf } from '../../shared/dates'

/** Minutes of the day [from, to): to < from wraps past midnight; equal is an empty window. */
export type QuietHours = { from: number; to: number }

export const DEFAULT_QUIET: QuietHours = { from: 22 * 60, to: 7 * 60 }

/** "22:00" ↔ 1320. */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
export const hhmmOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** Is `timeZone` an IANA name this runtime knows? */
export function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}

/** One formatter per zone, kept: making one costs more than using it, and a burst's thousand users share a few zones. */
const clocks = new Map<string, Intl.DateTimeFormat>()
const clockOf = (timeZone: string): Intl.DateTimeFormat =>
  formatterOf(clocks, timeZone, (timeZone) => new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }))

/** The wall clock in `timeZone` at `now`: minutes of the day and the seconds into the minute. */
function wallClock(now: number, timeZone: string): { minutes: number; seconds: number } {
  const parts = clockOf(timeZone).formatToParts(now)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return { minutes: get('hour') * 60 + get('minute'), seconds: get('second') }
}

const inside = (m: number, q: QuietHours) => (q.from <= q.to ? m >= q.from && m < q.to : m >= q.from || m < q.to)

/**
 * When the quiet hours around `now` end (epoch ms), or null when `now` is outside them. Counted in wall-clock minutes
 * from now, so a clock change inside the window moves its end by that hour at most.
 */
export function quietUntil(quiet: QuietHours | null, timeZone: string, now: number): number | null {
  if (!quiet || quiet.from === quiet.to) return null
  const { minutes, seconds } = wallClock(now, timeZone)
  if (!inside(minutes, quiet)) return null
  const left = (quiet.to - minutes + 1440) % 1440 || 1440
  return now - seconds * 1000 - (now % 1000) + left * 60_000
}
