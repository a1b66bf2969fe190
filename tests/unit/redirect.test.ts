import { expect, test } from 'bun:test'
import { safeRedirectPath } from '../../src/modules/auth/redirect'

test.each([
  ['/dashboard/listings?page=2', '/dashboard/listings?page=2'],
  ['/dashboard#top', '/dashboard#top'],
  [undefined, '/dashboard'],
  ['', '/dashboard'],
  ['//evil.example/x', '/dashboard'],
  ['/\\evil.example', '/dashboard'],
  ['https://evil.example/', '/dashboard'],
  ['javascript:alert(1)', '/dashboard'],
  ['/\t/evil.example', '/dashboard'],
  ['dashboard', '/dashboard'],
])('safeRedirectPath(%j) = %j', (input, expected) => {
  expect(safeRedirectPath(input)).toBe(expected)
})
