import { expect, test } from 'bun:test'
import { HOT_HOURS, hotTag } from '../../islands/listings/HotTag'

// The hotsheet's tags (issue 17): a listing's latest news tags it for 72 hours, by the clock of whoever shows it.
const NOW = Date.parse('2026-11-24T12:00:00Z')
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString()

test('each kind of news, under 72 hours old, tags the listing; older or not yet (a clock behind), it does not', () => {
  expect(hotTag({ hotsheet: { event: 'NEW', at: at(0) } }, NOW)).toBe('New')
  expect(hotTag({ hotsheet: { event: 'PRICE_CHANGED', at: at(71.9) } }, NOW)).toBe('Price changed')
  expect(hotTag({ hotsheet: { event: 'BACK_ON_MARKET', at: at(1) } }, NOW)).toBe('Back on market')
  expect(hotTag({ hotsheet: { event: 'NEW', at: at(HOT_HOURS) } }, NOW)).toBeNull()
  expect(hotTag({ hotsheet: { event: 'NEW', at: at(-1) } }, NOW)).toBeNull()
})
