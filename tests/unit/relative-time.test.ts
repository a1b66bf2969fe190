import { describe, expect, test } from 'bun:test'
import { relativeTime } from '../../islands/users/ApprovalsBoard'
import { idCardFileName } from '../../islands/users/IdCardDialog'

// SPEC section 2 "User Approvals": 'Registered {relative time}'.
const NOW = Date.parse('2026-11-21T12:00:00Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('relativeTime', () => {
  test.each([
    [0, 'Just now'],
    [59 * MINUTE, 'Just now'],
    [HOUR, '1h ago'],
    [23 * HOUR + 59 * MINUTE, '23h ago'],
    [DAY, '1d ago'],
    [6 * DAY + 23 * HOUR, '6d ago'],
  ])('%p ms ago is %p', (ms, text) => {
    expect(relativeTime(ago(ms), NOW)).toBe(text)
  })

  test('a clock a little behind the server (a date in the future) is still just now', () => {
    expect(relativeTime(ago(-5 * MINUTE), NOW)).toBe('Just now')
  })

  test('a week or more: the full date and time, in the time zone asked for', () => {
    expect(relativeTime('2026-11-14T12:00:00Z', NOW, 'UTC')).toBe('Nov 14, 2026, 12:00 PM')
    expect(relativeTime('2026-01-02T09:05:00Z', NOW, 'Asia/Kolkata')).toBe('Jan 2, 2026, 2:35 PM')
  })
})

describe('idCardFileName', () => {
  test('spaces become underscores; the extension follows the content type', () => {
    expect(idCardFileName('Asha Verma', 'image/png')).toBe('Asha_Verma_id_card.png')
    expect(idCardFileName(' Ravi  Kumar Rao ', 'image/jpeg')).toBe('Ravi_Kumar_Rao_id_card.jpg')
    expect(idCardFileName('Asha Verma', 'application/pdf')).toBe('Asha_Verma_id_card.pdf')
    expect(idCardFileName('Asha Verma', 'Application/PDF; charset=binary')).toBe('Asha_Verma_id_card.pdf')
  })

  test('an unknown type keeps the original .jpg', () => {
    expect(idCardFileName('Asha', '')).toBe('Asha_id_card.jpg')
  })
})
