// Quiet hours (issue 33): when the window around a moment ends, in the user's time zone, across midnight.
import { describe, expect, test } from 'bun:test'
import { quietUntil } from '../../src/modules/notifications/quiet'

const at = (iso: string) => Date.parse(iso)
const NIGHT = { from: 22 * 60, to: 7 * 60 }

describe('quietUntil', () => {
  test('inside a window that wraps midnight: its end, on the minute, the next morning or the same one', () => {
    expect(quietUntil(NIGHT, 'UTC', at('2026-11-27T23:15:42.500Z'))).toBe(at('2026-11-28T07:00:00Z'))
    expect(quietUntil(NIGHT, 'UTC', at('2026-11-27T03:00:00Z'))).toBe(at('2026-11-27T07:00:00Z'))
    expect(quietUntil(NIGHT, 'UTC', at('2026-11-27T22:00:00Z'))).toBe(at('2026-11-28T07:00:00Z'))
  })

  test('outside it, or with none: null (the alert goes now)', () => {
    expect(quietUntil(NIGHT, 'UTC', at('2026-11-27T07:00:00Z'))).toBeNull()
    expect(quietUntil(NIGHT, 'UTC', at('2026-11-27T21:59:59Z'))).toBeNull()
    expect(quietUntil(null, 'UTC', at('2026-11-27T23:00:00Z'))).toBeNull()
    expect(quietUntil({ from: 600, to: 600 }, 'UTC', at('2026-11-27T10:00:00Z'))).toBeNull()
  })

  test('in the user’s zone: 23:30 in Kolkata is 18:00 UTC, and its 07:00 is 01:30 UTC', () => {
    expect(quietUntil(NIGHT, 'Asia/Kolkata', at('2026-11-27T18:00:00Z'))).toBe(at('2026-11-28T01:30:00Z'))
    expect(quietUntil(NIGHT, 'Asia/Kolkata', at('2026-11-27T10:00:00Z'))).toBeNull()
  })

  test('a window within one day (13:00–14:00)', () => {
    expect(quietUntil({ from: 780, to: 840 }, 'UTC', at('2026-11-27T13:20:00Z'))).toBe(at('2026-11-27T14:00:00Z'))
    expect(quietUntil({ from: 780, to: 840 }, 'UTC', at('2026-11-27T12:59:00Z'))).toBeNull()
  })
})
