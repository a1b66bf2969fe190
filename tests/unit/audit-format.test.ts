import { describe, expect, test } from 'bun:test'
import { actionLabel, entityShown, NO_NAMES, shownValue, summaryInWords } from '../../islands/audit/audit-format'

// Issue 32, finding 10: the audit trail in human words (action names as phrases, local times, entry IDs).
describe('the audit trail in words', () => {
  test('every action the app records, and one it does not know yet, as a phrase', () => {
    expect(actionLabel('saved_search.create')).toBe('Saved search created')
    expect(actionLabel('listing.update')).toBe('Listing updated')
    expect(actionLabel('match.dismiss')).toBe('Match dismiss')
    expect(actionLabel('widget.delete')).toBe('Widget deleted')
  })

  test('a listing by its entry ID, others by kind and name; the row number only without a name', () => {
    const names = { ...NO_NAMES, listings: { '266': 'REQ-MUM-000266' }, users: { '7': 'Rahul Sharma' } }
    expect(entityShown({ entity_type: 'listing', entity_id: '266', names })).toBe('REQ-MUM-000266')
    expect(entityShown({ entity_type: 'user', entity_id: '7', names })).toBe('User · Rahul Sharma')
    expect(entityShown({ entity_type: 'listing', entity_id: '9', names })).toBe('Listing #9')
  })

  test('a moment in the reader’s zone, the recorded value on hover', () => {
    const at = Date.UTC(2026, 10, 30, 9, 30, 0)
    expect(shownValue('expiresAt', at, NO_NAMES, 'Asia/Kolkata')).toEqual({ text: 'Nov 30, 2026, 3:00:00 PM', title: String(at) })
    expect(shownValue('expires_at', new Date(at).toISOString(), NO_NAMES, 'UTC').text).toBe('Nov 30, 2026, 9:30:00 AM UTC')
  })

  test('fixed values in words, the code on hover; typed text and codes of other fields as they are', () => {
    expect(shownValue('status', 'ON_HOLD')).toEqual({ text: 'On hold', title: 'ON_HOLD' })
    expect(shownValue('registration_status', 'PENDING').text).toBe('Pending')
    expect(shownValue('postType', 'REQ').text).toBe('Requirement')
    expect(shownValue('sale_or_rent', 'RENT').text).toBe('Rent')
    expect(shownValue('role', 'MODULE_ADMIN').text).toBe('Module Admin')
    expect(shownValue('visibility', 'ONLY_ME').text).toBe('Only me')
    expect(shownValue('via', 'link').text).toBe('The reminder mail’s link')
    // What a broker typed stays their words (quoted), however it is written; a country's code is a code.
    expect(shownValue('propertyType', 'VILLA').text).toBe('"VILLA"')
    expect(shownValue('code', 'IN').text).toBe('"IN"')
  })

  test('every recorded moment as a local time, a day as a day; a small number in an …_at field stays a number', () => {
    const at = Date.UTC(2026, 10, 30, 9, 30, 0)
    for (const field of ['createdAt', 'updated_at', 'hotAt', 'reportedOffAt']) expect(shownValue(field, at, NO_NAMES, 'Asia/Kolkata').text).toBe('Nov 30, 2026, 3:00:00 PM')
    expect(shownValue('date', '2026-11-30', NO_NAMES, 'Asia/Kolkata')).toEqual({ text: 'Nov 30, 2026', title: '2026-11-30' })
    expect(shownValue('seen_at', 42).text).toBe('42')
  })

  test('the one line: labels, names and local times instead of raw fields and epoch numbers', () => {
    const at = Date.UTC(2026, 10, 30, 9, 30, 0)
    const line = summaryInWords(
      { action: 'listing.renew', before: { expiresAt: at - 86_400_000, status: 'EXPIRED', cityId: 3 }, after: { expiresAt: at, status: 'ACTIVE', cityId: 3 }, reason: null, names: { ...NO_NAMES, cities: { '3': 'Mumbai' } } },
      'Asia/Kolkata',
    )
    expect(line).toBe('Expires: Nov 29, 2026, 3:00:00 PM → Nov 30, 2026, 3:00:00 PM; Status: Expired → Active')
    expect(line).not.toMatch(/\d{13}|expiresAt/)
    expect(summaryInWords({ action: 'saved_search.create', before: null, after: { name: 'x' }, reason: null, names: NO_NAMES })).toBe('Created')
    expect(summaryInWords({ action: 'user.reject', before: null, after: null, reason: 'Blurred card', names: NO_NAMES })).toBe('User rejected (Blurred card)')
  })
})
