// The pace of push bursts (src/platform/push/pace.ts; docs/decisions/048-push-pacing.md): due times only, no clock.
import { describe, expect, test } from 'bun:test'
import { PACE_BURST, PushPace } from '../../src/platform/push/pace'

/** Queues `n` single messages at `now` and answers their due times, as offsets from `now`. */
const queueAt = (pace: PushPace, n: number, now: number, urgency: 'high' | 'normal' = 'normal') =>
  Array.from({ length: n }, () => {
    const due = pace.dueAt(urgency, now)
    pace.took(urgency, 1, now)
    return due - now
  })

describe('PushPace', () => {
  test(`from idle: the first ${PACE_BURST} at once, then one an interval`, () => {
    const offsets = queueAt(new PushPace(250), PACE_BURST + 3, 1_000_000)
    expect(offsets).toEqual([...Array<number>(PACE_BURST).fill(0), 4, 8, 12])
  })

  test('a lone message after the lane has drained is due at once again', () => {
    const pace = new PushPace(10)
    queueAt(pace, 100, 0) // due up to 6.8 s later
    expect(queueAt(pace, 1, 5_000)).toEqual([1_900]) // mid-burst, a normal one waits its turn
    expect(queueAt(pace, 1, 60_000)).toEqual([0])
  })

  test('high urgency has a lane of its own: due at once during a burst of the other', () => {
    const pace = new PushPace(10)
    queueAt(pace, 500, 0)
    expect(queueAt(pace, 1, 1_000, 'high')).toEqual([0])
    expect(queueAt(pace, 1, 1_000, 'normal')[0]).toBeGreaterThan(40_000)
  })

  test('a message counting several devices takes as many places', () => {
    const pace = new PushPace(100, 1)
    expect(pace.dueAt('normal', 0)).toBe(0)
    pace.took('normal', 5, 0)
    expect(pace.dueAt('normal', 0)).toBe(50)
  })

  test('rate 0: never paced', () => {
    expect(new Set(queueAt(new PushPace(0), 1000, 42))).toEqual(new Set([0]))
  })
})
