import { Counts, Distribution, type MetricJson } from '../metrics'
import type { Outcome } from './outbox'

// What /metrics tells of this process's push sending (issue 33): messages queued, each attempt's outcome, and how
// long a message takes. The sender may run in a thread of its own (./thread.ts); it then sends its events here in
// batches, so the numbers are the process's, added up across WORKERS like the other counts.

/** One attempt's outcome, as counted; `sendMs` the request to the push service, `delayMs` from queueing to its answer. */
export type PushEvent = { outcome: Outcome['kind']; sendMs: number | null; delayMs: number | null }

/** Seconds: a push service answers in tens of milliseconds; a retry waits minutes. */
const SEND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const DELAY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600]

/** The counter's label for an outcome: the words an operator reads (a 404/410 is `gone`). */
const RESULT: Record<Outcome['kind'], string> = {
  delivered: 'sent',
  gone: 'gone',
  unusable: 'gone',
  retry: 'retried',
  failed: 'failed',
  withheld: 'withheld',
}

export class PushStats {
  private readonly messages = new Counts()
  private readonly send = new Distribution(SEND_BUCKETS)
  private readonly delay = new Distribution(DELAY_BUCKETS)

  queued(n: number): void {
    if (n > 0) this.messages.inc('queued', () => ({ result: 'queued' }), n)
  }

  record({ outcome, sendMs, delayMs }: PushEvent): void {
    const result = RESULT[outcome]
    this.messages.inc(result, () => ({ result }))
    if (sendMs !== null) this.send.observe('', () => ({}), sendMs / 1000)
    if (delayMs !== null && outcome === 'delivered') this.delay.observe('', () => ({}), delayMs / 1000)
  }

  json(): MetricJson[] {
    return [
      this.messages.json(
        'brokernet_push_messages_total',
        'Push messages queued (one per device), and what each attempt to send one came to: sent, retried (429, 5xx, no answer), failed (given up), gone (404/410 or an endpoint no longer allowed: the device removed), withheld (its recipient may no longer see what it tells of).',
      ),
      this.send.json('brokernet_push_send_duration_seconds', 'One request to a push service: encryption, connection and its answer.'),
      this.delay.json('brokernet_push_delivery_delay_seconds', 'From a message queued to a push service accepting it (waits for retries and quiet hours included).'),
    ]
  }
}
