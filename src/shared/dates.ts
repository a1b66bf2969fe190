/**
 * One formatter per kind and time zone, made at first use and kept: making an Intl.DateTimeFormat costs about 80 µs
 * (ICU builds its patterns and the zone's rules), using one about 1 µs, and a listing's POST made one for its date
 * (issue 36). At most a thousand zones per kind are kept (an installation uses one; a user's own zone is validated).
 * `kind` is the caller's own Map, one per set of options (quiet hours' clock and the deals' hour keep theirs).
 */
export function formatterOf(kind: Map<string, Intl.DateTimeFormat>, timeZone: string, make: (timeZone: string) => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = kind.get(timeZone)
  if (!f) {
    f = make(timeZone)
    if (kind.size < 1000) kind.set(timeZone, f)
  }
  return f
}
const days = new Map<string, Intl.DateTimeFormat>()
const moments = new Map<string, Intl.DateTimeFormat>()

/** The calendar date (YYYY-MM-DD) of an instant in a time zone: listing dates and "today" use the TZ setting. */
export function calendarDate(at: Date | number, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return formatterOf(days, timeZone, (timeZone) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(at)
}

/** "today", "yesterday", "3 days ago": how long ago a moment was, in whole days (duplicate control's messages). */
export function postedAgo(iso: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(iso)) / 86_400_000)
  return days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`
}

/** "Nov 27, 2026, 10:30 UTC": a moment in a time zone, named, as mails and public pages state a listing's end. */
export function formatMoment(at: number, timeZone: string): string {
  return formatterOf(moments, timeZone, (timeZone) =>
    new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }),
  ).format(at)
}
