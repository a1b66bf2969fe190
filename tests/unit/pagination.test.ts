import { describe, expect, test } from 'bun:test'
import { pageItems } from '../../islands/shared/Pagination'
import { showingText } from '../../islands/users/user-format'

// SPEC section 9: first and last pages, 2 either side of the current one, ellipses; hidden with one page or fewer.
describe('pageItems', () => {
  test('nothing with one page or fewer', () => {
    expect(pageItems(1, 0)).toEqual([])
    expect(pageItems(1, 1)).toEqual([])
  })

  test('every page when they all fit', () => {
    expect(pageItems(1, 2)).toEqual([1, 2])
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5])
    expect(pageItems(1, 5)).toEqual([1, 2, 3, 4, 5])
  })

  test('at the start: the window, a gap, the last page', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 'gap', 10])
    expect(pageItems(2, 10)).toEqual([1, 2, 3, 4, 'gap', 10])
  })

  test('in the middle: first, gap, current ± 2, gap, last', () => {
    expect(pageItems(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12])
    expect(pageItems(50, 100)).toEqual([1, 'gap', 48, 49, 50, 51, 52, 'gap', 100])
  })

  test('at the end: first, a gap, the window', () => {
    expect(pageItems(10, 10)).toEqual([1, 'gap', 8, 9, 10])
    expect(pageItems(9, 10)).toEqual([1, 'gap', 7, 8, 9, 10])
  })

  test('a gap never stands for a single page: that page is shown instead', () => {
    expect(pageItems(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 10])
    expect(pageItems(6, 10)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 9, 10])
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })

  test('a current page out of range is clamped', () => {
    expect(pageItems(0, 10)).toEqual(pageItems(1, 10))
    expect(pageItems(99, 10)).toEqual(pageItems(10, 10))
  })

  test('pages are unique and ascending, with the current one always present', () => {
    for (let total = 2; total <= 30; total++)
      for (let current = 1; current <= total; current++) {
        const pages = pageItems(current, total).filter((p): p is number => p !== 'gap')
        expect(pages).toEqual([...pages].sort((a, b) => a - b))
        expect(new Set(pages).size).toBe(pages.length)
        expect(pages).toContain(current)
        expect(pages[0]).toBe(1)
        expect(pages.at(-1)).toBe(total)
      }
  })
})

describe('showingText', () => {
  test('the footer of a page', () => {
    expect(showingText(1, 10, 42, 'brokers')).toBe('Showing 1 to 10 of 42 brokers')
    expect(showingText(5, 10, 42, 'brokers')).toBe('Showing 41 to 42 of 42 brokers')
    expect(showingText(1, 50, 0, 'module admins')).toBe('Showing 0 to 0 of 0 module admins')
  })
})
