/** The calendar date (YYYY-MM-DD) of an instant in a time zone: listing dates and "today" use the TZ setting. */
export function calendarDate(at: Date | number, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}
