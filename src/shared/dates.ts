/** The calendar date (YYYY-MM-DD) of an instant in a time zone: listing dates and "today" use the TZ setting. */
export function calendarDate(at: Date | number, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

/** "today", "yesterday", "3 days ago": how long ago a moment was, in whole days (duplicate control's messages). */
export function postedAgo(iso: string, now = Date.now()): string {
  const days = Math.floor((now - Date.parse(iso)) / 86_400_000)
  return days <= 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`
}

/** "Nov 27, 2026, 10:30 UTC": a moment in a time zone, named, as mails and public pages state a listing's end. */
export function formatMoment(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(at)
}
