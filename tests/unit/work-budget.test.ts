// The paste allowance's bucket (src/platform/http/work-budget.ts), with the clock given: spending, draining, 429.
import { expect, test } from 'bun:test'
import { HttpError } from '../../src/platform/http/errors'
import { WorkBudget } from '../../src/platform/http/work-budget'

const refusal = (f: () => void) => {
  try {
    f()
  } catch (e) {
    return e as HttpError
  }
  return null
}

test('spends up to the capacity, drains at capacity per window, and refuses beyond with the seconds to wait', () => {
  const budget = new WorkBudget(100, 1_000)
  budget.charge('a', 60, 'pastes read', 0)
  const refused = refusal(() => budget.charge('a', 50, 'pastes read', 0))
  expect(refused).toBeInstanceOf(HttpError)
  expect(refused!.status).toBe(429)
  // Nothing was spent by the refusal; half a window drains 50 of the 60.
  expect(refusal(() => budget.charge('a', 50, 'pastes read', 500))).toBeNull()
  // Another key has its own allowance.
  expect(refusal(() => budget.charge('b', 100, 'pastes read', 0))).toBeNull()
})

test('with many callers counted, drained ones are swept and the rest keep their spending', () => {
  const budget = new WorkBudget(100, 1_000)
  for (let i = 0; i < 1_500; i++) budget.charge(`k${i}`, 10, 'pastes read', 0)
  budget.charge('busy', 100, 'pastes read', 1_500)
  // The sweep at 1,500 ms kept 'busy', still full a moment later.
  expect(refusal(() => budget.charge('busy', 50, 'pastes read', 1_501))?.status).toBe(429)
  expect(refusal(() => budget.charge('k1', 100, 'pastes read', 1_501))).toBeNull()
})
