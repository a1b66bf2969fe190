import { describe, expect, test } from 'bun:test'
import { approximateBytes } from '../../db/approximate-bytes'

describe('approximateBytes (the counts cache weight, issue 36)', () => {
  test('a window of 1,024 ids weighs about 8 KB, a total a few bytes, zone totals a few hundred', () => {
    const window = { ids: Array.from({ length: 1024 }, (_, i) => 1_000_000 - i), complete: false }
    expect(approximateBytes(window)).toBeGreaterThan(8 * 1024)
    expect(approximateBytes(window)).toBeLessThan(9 * 1024)
    expect(approximateBytes(96_515)).toBe(8)
    const zones = { North: 10, South: 20, East: 30, West: 40, Central: 50, Other: 60 }
    expect(approximateBytes(zones)).toBeGreaterThan(100)
    expect(approximateBytes(zones)).toBeLessThan(400)
  })

  test('strings count their characters; rows of objects count each row', () => {
    expect(approximateBytes('x'.repeat(1000))).toBeGreaterThan(1000)
    const rows = Array.from({ length: 100 }, (_, i) => ({ day: `2026-11-${i}`, n: i }))
    expect(approximateBytes(rows)).toBeGreaterThan(100 * 50)
  })
})
