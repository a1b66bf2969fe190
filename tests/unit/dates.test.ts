import { describe, expect, test } from 'bun:test'
import { calendarDate, formatMoment } from '../../src/shared/dates'

// The formatters are kept per time zone (src/shared/dates.ts, issue 36): each zone must still get its own calendar,
// whichever zone asked first, and a kept formatter must answer as a new one would.
describe('dates in a time zone', () => {
  // 2026-11-27 20:00 UTC: already the 28th in Kolkata (+05:30) and Tokyo (+09:00), still the 27th in New York.
  const evening = Date.UTC(2026, 10, 27, 20, 0)

  test('calendarDate is the date in the zone asked for, zone after zone and again', () => {
    for (let round = 0; round < 2; round++) {
      expect(calendarDate(evening, 'UTC')).toBe('2026-11-27')
      expect(calendarDate(evening, 'Asia/Kolkata')).toBe('2026-11-28')
      expect(calendarDate(evening, 'America/New_York')).toBe('2026-11-27')
      expect(calendarDate(new Date(evening), 'Asia/Tokyo')).toBe('2026-11-28')
    }
  })

  test('a minute either side of midnight in Kolkata', () => {
    const midnight = Date.UTC(2026, 10, 27, 18, 30) // 2026-11-28 00:00 +05:30
    expect(calendarDate(midnight - 60_000, 'Asia/Kolkata')).toBe('2026-11-27')
    expect(calendarDate(midnight, 'Asia/Kolkata')).toBe('2026-11-28')
  })

  test('calendarDate and formatMoment answer as a formatter made for the call would', () => {
    const zones = ['UTC', 'Asia/Kolkata', 'Europe/London', 'America/Los_Angeles', 'Australia/Adelaide']
    for (let i = 0; i < 50; i++) {
      const at = Date.UTC(2026, 0, 1) + i * 7_919_000_000 // spread over two years, DST changes included
      for (const timeZone of zones) {
        expect(calendarDate(at, timeZone)).toBe(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at))
        expect(formatMoment(at, timeZone)).toBe(
          new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(at),
        )
      }
    }
    expect(formatMoment(evening, 'Asia/Kolkata')).toBe('Nov 28, 2026, 01:30 GMT+5:30')
  })

  test('an unknown zone is refused each time, not kept', () => {
    expect(() => calendarDate(evening, 'Mars/Olympus')).toThrow()
    expect(() => calendarDate(evening, 'Mars/Olympus')).toThrow()
  })
})
