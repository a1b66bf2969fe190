import { describe, expect, test } from 'bun:test'
import { currencyFor, FILTER_CURRENCY } from '../../src/shared/currency'
import { formatMoney, formatMoneyShort, moneyWithCode, parseMoney } from '../../src/shared/money'

// Issue 32, "Indian money": one formatter and one reader of amounts for every screen (src/shared/money.ts).
const INR = currencyFor('India')

describe('formatMoney: in full', () => {
  test('rupees in Indian grouping: thousands, then lakhs and crores by twos', () => {
    expect(formatMoney(999, INR)).toBe('₹999')
    expect(formatMoney(45_000, INR)).toBe('₹45,000')
    expect(formatMoney(3_500_000, INR)).toBe('₹35,00,000')
    expect(formatMoney(35_000_000, INR)).toBe('₹3,50,00,000')
    expect(formatMoney(12_345_678.6, INR)).toBe('₹1,23,45,679')
    expect(moneyWithCode(3_500_000, INR)).toBe('INR 35,00,000')
    expect(formatMoney(3_500_000, FILTER_CURRENCY)).toBe('₹35,00,000')
  })

  test('other currencies grouped as their country does', () => {
    expect(formatMoney(3_500_000, currencyFor('United States'))).toBe('$3,500,000')
    expect(formatMoney(3_500_000, currencyFor('United Kingdom'))).toBe('£3,500,000')
    expect(formatMoney(3_500_000, currencyFor('Germany'))).toBe('€3.500.000')
    expect(formatMoney(3_500_000, currencyFor('France'))).toBe('€3\u202f500\u202f000')
    expect(formatMoney(352_000, currencyFor('UAE'))).toBe('\u2067د.إ\u2069\u00a0352,000')
    expect(formatMoney(null, INR)).toBe('')
  })
})

describe('formatMoneyShort: where space is tight', () => {
  test('rupees in crores, lakhs and thousands, two decimals at most', () => {
    expect(formatMoneyShort(35_000_000, INR)).toBe('₹3.5 Cr')
    expect(formatMoneyShort(3_500_000, INR)).toBe('₹35 L')
    expect(formatMoneyShort(45_000, INR)).toBe('₹45 K')
    expect(formatMoneyShort(12_345_678, INR)).toBe('₹1.23 Cr')
    expect(formatMoneyShort(1_000_000_000, INR)).toBe('₹100 Cr')
    expect(formatMoneyShort(500, INR)).toBe('₹500')
    expect(formatMoneyShort(undefined, INR)).toBe('')
  })

  test("other currencies in their locale's compact form", () => {
    expect(formatMoneyShort(3_500_000, currencyFor('USA'))).toBe('$3.5M')
    expect(formatMoneyShort(45_000, currencyFor('USA'))).toBe('$45K')
    expect(formatMoneyShort(3_500_000, currencyFor('Germany'))).toBe('€3,5\u00a0Mio.')
  })
})

describe('parseMoney: what a broker types', () => {
  test.each([
    ['45k', 45_000],
    ['45 K', 45_000],
    ['35L', 3_500_000],
    ['35 lakh', 3_500_000],
    ['85 lac', 8_500_000],
    ['1.2cr', 12_000_000],
    ['1.2 Cr', 12_000_000],
    ['2 crore', 20_000_000],
    ['.5cr', 5_000_000],
    ['2.5m', 2_500_000],
    ['3500000', 3_500_000],
    ['35,00,000', 3_500_000],
    ['3,500,000', 3_500_000],
    ['₹ 45,000/-', 45_000],
    ['Rs. 45,000', 45_000],
    ['  45000  ', 45_000],
    ['0', 0],
  ])('%p is %p', (text, amount) => {
    expect(parseMoney(text)).toBe(amount)
  })

  test.each(['', '   ', 'abc', '-5', '1.2.3', '1e5', '45 kg', '12 apples', '5 to 10 lakh', 'lakh', '9'.repeat(20)])('%p is not an amount', (text) => {
    expect(parseMoney(text)).toBeNull()
  })

  test('what the short form writes reads back', () => {
    for (const n of [45_000, 3_500_000, 35_000_000, 120_000_000]) expect(parseMoney(formatMoneyShort(n, INR))).toBe(n)
    for (const n of [45_000, 3_500_000, 12_345_678]) expect(parseMoney(formatMoney(n, INR))).toBe(n)
  })
})
