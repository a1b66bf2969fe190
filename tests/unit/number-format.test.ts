import { describe, expect, test } from 'bun:test'
import { grouped, groupThousands } from '../../src/shared/number-format'

describe('groupThousands (text made at module load, without ICU)', () => {
  test("writes whole numbers as toLocaleString('en-US') and the cached formatter do", () => {
    const numbers = [0, 7, 42, 999, 1000, 9999, 20_000, 100_000, 999_999, 1_000_000, 1_234_567, 123_456_789, Number.MAX_SAFE_INTEGER]
    for (let n = 1; n < 1e15; n = n * 7 + 3) numbers.push(n)
    for (const n of numbers) {
      expect(groupThousands(n)).toBe(n.toLocaleString('en-US'))
      expect(groupThousands(n)).toBe(grouped(n))
    }
  })
})
