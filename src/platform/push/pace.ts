import type { Urgency } from './payload'

// The pace of a burst of pushes (issue 33; docs/decisions/048-push-pacing.md). A popular INSTANT saved search queues
// 1,000 messages in one transaction; sent as fast as the thread can encrypt and post them, they took the two cores
// from the listing reads for a second (reads −28 % meanwhile, on a quiet machine). The goal allows 10 s for the burst,
// so its messages are spread out: each is queued with a due time, `rate` a second, and the outbox's claims (oldest due
// first) send them on time. The first `burst` of a burst and a lone alert are due at once: nothing waits unless a
// burst is under way. Two lanes, `high` urgency (a match, a co-broking step) and the rest, each with its own pace: a
// match alert queued during a saved search's burst is due now, ahead of the burst's later messages, instead of behind
// all of them.

/** Messages of a burst due at once before the pace begins: a lone alert, or a few, never wait. */
export const PACE_BURST = 32

type Lane = 'high' | 'other'
const laneOf = (urgency: Urgency): Lane => (urgency === 'high' ? 'high' : 'other')

/**
 * A generic cell rate algorithm per lane, in this process: `next` is when the lane's next message would be due at
 * exactly `rate` a second; one is due `burst − 1` intervals before that at the earliest, never before now (so from an
 * idle lane the first `burst` are due at once, then one an interval). Per process (each
 * WORKERS process and instance paces what it queues); a rolled-back transaction's messages still took their places,
 * which only spreads the next burst a little more.
 */
export class PushPace {
  private readonly next: Record<Lane, number> = { high: 0, other: 0 }
  private readonly intervalMs: number

  /** `rate`: messages a second per lane after the first `burst`; 0: every message due at once (no pacing). */
  constructor(
    readonly rate: number,
    private readonly burst = PACE_BURST,
  ) {
    this.intervalMs = rate > 0 ? 1000 / rate : 0
  }

  /** When a message of this urgency queued at `now` is due. */
  dueAt(urgency: Urgency, now: number): number {
    if (this.intervalMs === 0) return now
    const next = Math.max(this.next[laneOf(urgency)], now)
    return Math.max(now, Math.round(next - (this.burst - 1) * this.intervalMs))
  }

  /** `count` messages of this urgency were queued at `now` (each device of the recipient is one). */
  took(urgency: Urgency, count: number, now: number): void {
    if (this.intervalMs === 0 || count === 0) return
    const lane = laneOf(urgency)
    this.next[lane] = Math.max(this.next[lane], now) + count * this.intervalMs
  }
}
