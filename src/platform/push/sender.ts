import type { Db, Queryable } from '../../../db/sql'
import type { Config } from '../config'
import { allowList, checkedLookup, checkEndpointUrl, systemResolver, type AllowList, type Resolver } from './endpoint'
import { anyDue, claim, devicesPerUser, nextDue, pruneFailed, queue, queueEach, record, release, waitForQueued, type Claimed, type Outcome } from './outbox'
import { PushPace } from './pace'
import { checkPushOptions, pushPayload, type PushMessage, type PushOptions } from './payload'
import type { PushStats } from './stats'
import { SenderThread, type ThreadConfig, type ThreadSenderOptions } from './thread'
import { post, type PushAnswer } from './transport'
import { vapidKeys, vapidSubject, type VapidKeys } from './vapid'

type WebPush = typeof import('web-push')
let webPushModule: Promise<WebPush> | null = null
/** web-push (its encryption and VAPID signing) is imported by the first send, not at start (docs/decisions/004-lazy-start.md). */
const loadWebPush = () => (webPushModule ??= import('web-push').then((m) => ((m as { default?: WebPush }).default ?? m) as WebPush))

/** The sender's options: the tunables (./thread.ts: they can cross to a thread), and what only this process has. */
export type PushSenderOptions = ThreadSenderOptions & {
  /** What endpoints' host names resolve to (tests pass a stub). */
  resolve?: Resolver
  /**
   * Judged just before messages with a subject are sent: whether each recipient may still see what it tells of (the
   * feature that queued it answers; the platform knows no subject). A message answered false is deleted unsent.
   */
  guard?: PushGuard
  /** Where this sender counts what it queues and what each attempt comes to (/metrics). */
  stats?: Pick<PushStats, 'queued' | 'record'>
  /**
   * The entry file of a Worker that sends (./thread.ts): this sender then only queues, and the thread, with its own
   * database connection and its own PushSender (whose guard its entry file makes), does the rest off this event loop.
   * The other options go to the thread's sender, but for `resolve` (a function: the system's resolver there).
   */
  thread?: string | URL
  /**
   * Messages a second that a burst queued through this sender is spread over (./pace.ts: the first PACE_BURST, and a
   * lone alert, are due at once); 0 or unset: every message due when queued. With a thread, the thread's sender paces
   * what the thread's tasks queue at the same rate.
   */
  rate?: number
}

/** For each claimed message with a subject, in order: may it still go to its recipient? */
export type PushGuard = (items: readonly { userId: number; subject: string }[]) => Promise<boolean[]>

const DEFAULTS = {
  concurrency: 32,
  retryDelaysMs: [10_000, 60_000, 300_000, 1_800_000],
  maxRetryAfterMs: 3_600_000,
  leaseMs: 120_000,
  sweepMs: 30_000,
  timeoutMs: 30_000,
}

/**
 * How far ahead of their due time a claim takes a paced burst's messages (they wait in memory and leave on time), and
 * how long before the next one is due the sender claims again: a claim (a write) every ~200 ms of a burst, not one per
 * message.
 */
const CLAIM_AHEAD_MS = 250
const RECLAIM_BEFORE_MS = 50

/** How long an outcome waits for others to be written with it (one transaction; `recordSoon`). */
const RECORD_BATCH_MS = 10

/** FAILED messages are kept this long, then pruned by a sweep (at most one prune an hour). */
const FAILED_KEPT_MS = 7 * 86_400_000
const PRUNE_EVERY_MS = 3_600_000
/** The VAPID signature's life (RFC 8292 allows 24 h), and how long one is reused for an audience before a new one. */
const VAPID_JWT_SECONDS = 12 * 3600
const VAPID_REUSE_MS = 3_600_000

/** What one message to one device came to, for the caller of `check` (the `push-check` command). */
export type CheckResult = { ok: boolean; status: number | null; error?: string }

/**
 * Sends the push outbox (issue 33; docs/decisions/035-web-push.md), off the request path: `notify` only writes rows.
 * Several senders may share one outbox (WORKERS on one SQLite file, instances on one PostgreSQL database): each takes
 * rows with a claim (src/platform/push/outbox.ts), so no two send one message while both live, and a dead sender's
 * claims lapse after `leaseMs`. The sender that queued a message sends it at once; retries wait in the database for
 * their time (its own timer wakes the sender that scheduled one, every sender's sweep finds the rest).
 *
 * At most `concurrency` requests are on the wire, and up to as many claimed messages wait in memory for a free one.
 */
export class PushSender {
  private readonly allow: AllowList
  private readonly subject: string
  private readonly options: typeof DEFAULTS & { resolve: Resolver; guard?: PushGuard; stats?: PushSenderOptions['stats'] }
  /** Set when the sending runs in a thread of its own (`options.thread`). */
  private readonly thread: SenderThread | null = null
  private threadLook: ReturnType<typeof setInterval> | null = null
  private closed = false
  private inFlight = 0
  private buffer: Claimed[] = []
  private claiming = false
  /** Whether the outbox may hold more due rows than were claimed; `kicks` counts the reasons to look again. */
  private wanted = false
  private kicks = 0
  /** PostgreSQL: tokens of notify() calls whose transaction may still be open (the next claim waits for them). */
  private expected: number[] = []
  private kickTimer: ReturnType<typeof setTimeout> | null = null
  /** SQLite with a thread: an empty transaction is queued to tell the thread (`kickThreadAfter`); kicks still to come. */
  private kickQueued = false
  private pendingKicks = 0
  private wakeTimer: ReturnType<typeof setTimeout> | null = null
  private wakeAt = Infinity
  /** The claimed message first due (the buffer is in due order) is started by this timer when no send frees a place first. */
  private dueTimer: ReturnType<typeof setTimeout> | null = null
  private dueTimerAt = Infinity
  private readonly pace: PushPace
  private sweepTimer: ReturnType<typeof setInterval> | null = null
  private sweeping = false
  private prunedAt = 0
  private idleWaiters: Array<() => void> = []
  /** Outcomes waiting to be written together (`recordSoon`), and the write that will take them. */
  private outcomes: { row: Claimed; outcome: Outcome; at: number }[] = []
  private recording: Promise<void> | null = null
  private readonly vapidHeaders = new Map<string, { header: string; until: number }>()

  constructor(
    private readonly db: Db,
    config: Pick<Config, 'pushAllowHosts' | 'publicUrl' | 'mailFrom'> & Partial<Pick<Config, 'databasePath' | 'databaseUrl'>>,
    options: PushSenderOptions = {},
  ) {
    this.allow = allowList(config.pushAllowHosts)
    this.subject = vapidSubject(config)
    const { thread, guard: _guard, resolve: _resolve, stats, rate, ...rest } = options
    this.pace = new PushPace(rate ?? 0)
    this.options = { ...DEFAULTS, resolve: systemResolver, ...options }
    if (thread) {
      if (config.databasePath === undefined) throw new Error('a push sender thread needs the database’s configuration')
      const { pushAllowHosts, publicUrl, mailFrom, databasePath, databaseUrl } = config
      const threadConfig: ThreadConfig = { pushAllowHosts, publicUrl, mailFrom, databasePath, ...(databaseUrl ? { databaseUrl } : {}) }
      this.thread = new SenderThread(thread, threadConfig, { ...rest, ...(rate === undefined ? {} : { rate }) }, stats)
    }
  }

  /**
   * Queues `message` for every device of `userIds` through `q` (inside a transaction pass its `tx`: the messages then
   * exist exactly when the change they tell of does). Sending starts once that transaction has ended. Answers how many
   * messages were queued (one per device).
   */
  async notify(q: Queryable, userIds: readonly number[], message: PushMessage, options: PushOptions, subject: string | null = null): Promise<number> {
    const payload = pushPayload(message)
    const { ttl, urgency, topic } = checkPushOptions(options)
    if (userIds.length === 0) return 0
    const token = Math.floor(Math.random() * 2_147_483_647)
    const now = Date.now()
    const row = { payload, ttl, urgency, topic: topic ?? null, subject }
    let queued = 0
    // Paced, each recipient takes their own place (the features queue one user per call; a call for many is a burst).
    for (const users of this.pace.rate > 0 ? [...new Set(userIds)].map((id) => [id]) : [userIds]) {
      const n = await queue(q, users, row, token, now, this.pace.dueAt(urgency, now))
      this.pace.took(urgency, n, now)
      queued += n
    }
    this.queued(q, queued, token)
    return queued
  }

  /**
   * As `notify` for many recipients each with a message of their own (a fan-out: a saved search's hit on a listing is
   * 1,000 users): the same rows, the same pace (each recipient in turn takes their place, one per device), in one
   * statement per 500 recipients instead of one per recipient. Answers how many messages were queued.
   *
   * `lastDueBy`: the time by which the last of them must be due, whatever the pace says (the caller's deadline: a
   * burst queued late, after seconds of judging on a busy machine, is spread over what is left of it instead of the
   * whole pace; docs/decisions/061-burst-cost.md). Never earlier than now; the first PACE_BURST stay due at once.
   */
  async notifyEach(q: Queryable, items: readonly { userId: number; message: PushMessage; subject?: string | null }[], options: PushOptions, { lastDueBy }: { lastDueBy?: number } = {}): Promise<number> {
    const { ttl, urgency, topic } = checkPushOptions(options)
    if (items.length === 0) return 0
    const token = Math.floor(Math.random() * 2_147_483_647)
    const now = Date.now()
    const devices = this.pace.rate > 0 ? await devicesPerUser(q, items.map((i) => i.userId)) : null
    const rows = items.map((i) => {
      const dueAt = this.pace.dueAt(urgency, now)
      if (devices) this.pace.took(urgency, devices.get(i.userId) ?? 0, now)
      return { userId: i.userId, payload: pushPayload(i.message), subject: i.subject ?? null, dueAt }
    })
    if (lastDueBy !== undefined) within(rows, Math.max(now, lastDueBy))
    const queued = await queueEach(q, rows, { ttl, urgency, topic: topic ?? null }, token, now)
    this.queued(q, queued, token)
    return queued
  }

  /** After rows were queued through `q`: counted, and the sender (or its thread) told once `q`'s transaction ends. */
  private queued(q: Queryable, queued: number, token: number): void {
    this.options.stats?.queued(queued)
    if (q.dialect === 'postgres') this.expected.push(token)
    if (queued > 0 && !this.closed) {
      if (this.thread && q !== this.db && q.dialect === 'sqlite') this.kickThreadAfter()
      // A later tick, not now: the caller is still in its transaction (and the claim waits for it to end).
      else
        this.kickTimer ??= setTimeout(() => {
          this.kickTimer = null
          if (this.thread) this.thread.kick(this.expected.splice(0))
          else this.kick()
        }, 0)
    }
  }

  /**
   * SQLite, inside the caller's transaction: the thread is told once it has committed. Its claim is a write on another
   * connection, which would otherwise wait in SQLite's busy handler (sleeping up to 100 ms at a time) for this
   * process's transaction to end. An empty transaction of this process queues behind the caller's (this process's
   * transactions take turns), so it runs just after that commit (or rollback).
   */
  private kickThreadAfter(): void {
    // One empty transaction waiting covers every transaction running meanwhile: they are all ahead of it in the queue.
    if (this.kickQueued) return
    this.kickQueued = true
    this.pendingKicks++
    void this.db
      .tx(async () => {
        this.kickQueued = false
      })
      .catch(() => {})
      .then(() => {
        this.pendingKicks--
        if (!this.closed) this.thread!.kick([])
      })
  }

  /**
   * Runs a task of the thread's entry file there (./serve-thread.ts), off this event loop, and answers true; false when
   * this sender has no thread (the caller then does the work itself).
   */
  task(name: string, data: unknown): boolean {
    if (!this.thread || this.closed) return false
    this.thread.task(name, data)
    return true
  }

  /** The sender thread's side of a kick (./serve-thread.ts): messages were queued, under these tokens on PostgreSQL. */
  wake(tokens: readonly number[]): void {
    this.expected.push(...tokens)
    this.kick()
  }

  /** Whether close() was called: the process is stopping, and nothing new is raised. */
  get stopped(): boolean {
    return this.closed
  }

  /** At start: sends what is due (left by an earlier run or another sender), then sweeps every `sweepMs` until close(). */
  resume(): void {
    if (this.closed) return
    if (this.thread) return this.resumeThread()
    if (this.options.sweepMs > 0 && !this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.options.sweepMs)
      this.sweepTimer.unref() // never the reason a process stays up
    }
    this.kick()
  }

  /**
   * Resolves when this sender has nothing left to do: nothing claimed, nothing on the wire, and no retry it scheduled
   * still to come (each message delivered, removed with its device, or given up).
   */
  idle(): Promise<void> {
    if (this.thread) return this.threadIdle()
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Stops: claimed messages not yet sent are let go of (for another sender), those on the wire finish and are recorded. */
  async close(): Promise<void> {
    this.closed = true
    this.wanted = false
    for (const timer of [this.kickTimer, this.wakeTimer, this.dueTimer]) if (timer) clearTimeout(timer)
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    this.kickTimer = this.wakeTimer = this.sweepTimer = this.dueTimer = null
    this.wakeAt = this.dueTimerAt = Infinity
    if (this.thread) {
      if (this.threadLook) clearInterval(this.threadLook)
      this.threadLook = null
      return this.thread.close()
    }
    const left = this.buffer.splice(0)
    try {
      await release(this.db, left)
    } catch (err) {
      console.error('[push] could not let go of claimed messages (their claims lapse):', err)
    }
    this.settle()
    await this.idle()
  }

  /** One message to one endpoint, now, through the same checks, encryption and signature: the `push-check` command. */
  async check(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }, message: PushMessage, options: PushOptions): Promise<CheckResult> {
    const { ttl, urgency, topic } = checkPushOptions(options)
    const now = Date.now()
    const row: Claimed = { id: 0, subscriptionId: 0, userId: 0, subject: null, payload: pushPayload(message), ttl, urgency, topic: topic ?? null, attempts: 0, createdAt: now, dueAt: now, claimedUntil: now, endpoint: subscription.endpoint, ...subscription.keys }
    let status: number | null = null
    const outcome = await this.attempt(row, now, (answer) => (status = answer.status))
    return outcome.kind === 'delivered' ? { ok: true, status } : { ok: false, status, error: 'error' in outcome ? outcome.error : `the push service answered ${status}` }
  }

  /**
   * With a thread: the thread starts with the first message queued here, or when a look (now, then every `sweepMs`)
   * finds one due that an earlier run or a dead sender left; once running, it sweeps itself. A server that never
   * pushes never starts it.
   */
  private resumeThread(): void {
    const look = async () => {
      if (this.closed || this.thread!.running) return
      try {
        if (await anyDue(this.db, Date.now())) this.thread!.start()
      } catch (err) {
        console.error('[push] could not look at the outbox:', err)
      }
    }
    void look()
    if (this.options.sweepMs > 0 && !this.threadLook) {
      this.threadLook = setInterval(() => void look(), this.options.sweepMs)
      this.threadLook.unref()
    }
  }

  /** With a thread: once a kick still waiting for its tick has been handed over, until the thread is idle. */
  private async threadIdle(): Promise<void> {
    while (this.kickTimer || this.pendingKicks > 0) await new Promise((resolve) => setTimeout(resolve, 1))
    await this.thread!.idle()
  }

  private kick(): void {
    if (this.closed) return
    this.kicks++
    this.wanted = true
    this.pump()
  }

  /** Starts sends while there are free places and claimed rows due, and claims more while the outbox may hold some. */
  private pump(): void {
    const now = Date.now()
    while (!this.closed && this.inFlight < this.options.concurrency && this.buffer.length > 0 && this.buffer[0]!.dueAt <= now) void this.send(this.buffer.shift()!)
    this.timeNextDue(now)
    if (!this.closed && this.wanted && !this.claiming && this.buffer.length < this.options.concurrency) void this.claimMore()
    else this.settle()
  }

  /** A timer for the first claimed message not yet due (a paced burst's), unless one is set for it already. */
  private timeNextDue(now: number): void {
    const at = this.buffer[0]?.dueAt
    if (this.closed || at === undefined || at <= now || at >= this.dueTimerAt) return
    if (this.dueTimer) clearTimeout(this.dueTimer)
    this.dueTimerAt = at
    this.dueTimer = setTimeout(() => {
      this.dueTimer = null
      this.dueTimerAt = Infinity
      this.pump()
    }, at - now)
  }

  private async claimMore(): Promise<void> {
    this.claiming = true
    const kicks = this.kicks
    const limit = 2 * this.options.concurrency - this.inFlight - this.buffer.length
    try {
      const tokens = this.expected.splice(0)
      await waitForQueued(this.db, tokens)
      const now = Date.now()
      const dueBy = now + CLAIM_AHEAD_MS
      // A little randomness: two senders' claims made in one millisecond still differ.
      const claimed = await claim(this.db, limit, now, now + this.options.leaseMs + Math.floor(Math.random() * 1000), dueBy)
      const rows = await this.guarded(claimed)
      if (this.closed) await release(this.db, rows)
      else if (rows.length > 0) {
        // In due order: a lone alert claimed now goes ahead of a burst's messages claimed earlier but due later.
        this.buffer.push(...rows)
        this.buffer.sort((a, b) => a.dueAt - b.dueAt)
      }
      // Fewer than asked: the outbox has no more due by then, unless something was queued since the claim began; a
      // paced burst's later messages are claimed again a little before they are due.
      if (claimed.length < limit && this.kicks === kicks) {
        this.wanted = false
        const next = await nextDue(this.db, dueBy)
        if (next !== null) this.wakeBy(next - RECLAIM_BEFORE_MS)
      }
    } catch (err) {
      console.error('[push] could not take messages from the outbox (the next sweep tries again):', err)
      this.wanted = false
    } finally {
      this.claiming = false
      this.pump()
    }
  }

  /** The claimed messages the guard lets go; the others are deleted unsent (their recipient may no longer see what they tell of). */
  private async guarded(rows: Claimed[]): Promise<Claimed[]> {
    const guard = this.options.guard
    const judged = rows.filter((r) => r.subject !== null)
    if (!guard || judged.length === 0) return rows
    const verdicts = await guard(judged.map((r) => ({ userId: r.userId, subject: r.subject! })))
    const withheld = new Set(judged.filter((_, i) => verdicts[i] !== true))
    for (const row of withheld) {
      this.options.stats?.record({ outcome: 'withheld', sendMs: null, delayMs: null })
      await record(this.db, row, { kind: 'withheld' }, Date.now())
    }
    return rows.filter((r) => !withheld.has(r))
  }

  private async send(row: Claimed): Promise<void> {
    this.inFlight++
    try {
      const now = Date.now()
      let outcome: Outcome
      let posted: number | null = null
      try {
        outcome = await this.attempt(row, now, () => (posted = Date.now()))
      } catch (err) {
        // Not the push service's answer: our side failed (the VAPID keys could not be read…). Retried like a 5xx.
        outcome = this.retryOrGiveUp(row, Date.now(), null, `could not send: ${(err as Error).message}`)
      }
      const answered: number | null = posted
      this.options.stats?.record({ outcome: outcome.kind, sendMs: answered === null ? null : answered - now, delayMs: answered === null ? null : answered - row.createdAt })
      await this.recordSoon(row, outcome)
      this.report(row, outcome)
      if (outcome.kind === 'retry') this.wakeBy(outcome.dueAt)
    } catch (err) {
      // The database failed to take the outcome: the claim lapses and the message is tried again (at least once).
      console.error(`[push] could not record the outcome of message ${row.id}:`, err)
    } finally {
      this.inFlight--
      this.pump()
    }
  }

  /**
   * Writes an outcome with the others that come in within RECORD_BATCH_MS, in one transaction: a burst of 1,000
   * messages was 2,000 commits, and on SQLite every commit by this connection makes each cached read of the server's
   * thread look at the change feed again (its data_version moved). Resolves once written; rejects if that write failed
   * (then the claims lapse and the messages are tried again: at least once).
   */
  private recordSoon(row: Claimed, outcome: Outcome): Promise<void> {
    this.outcomes.push({ row, outcome, at: Date.now() })
    return (this.recording ??= Bun.sleep(RECORD_BATCH_MS).then(() => {
      this.recording = null
      const batch = this.outcomes.splice(0)
      return this.db.tx(async (tx) => {
        for (const o of batch) await record(tx, o.row, o.outcome, o.at)
      })
    }))
  }

  /** One attempt: the endpoint checked again (its form, then every address as the connection is made), encrypted, signed, posted. */
  private async attempt(row: Claimed, now: number, answered?: (answer: PushAnswer) => void): Promise<Outcome> {
    const elapsed = Math.floor((now - row.createdAt) / 1000)
    if (row.attempts > 0 && elapsed >= row.ttl) return { kind: 'failed', error: 'its time to live ran out before the push service took it' }
    let url: URL
    try {
      url = checkEndpointUrl(row.endpoint, this.allow)
    } catch (err) {
      // Its form is refused for good (PUSH_ALLOW_HOSTS no longer lists its host): no message can ever go there. One
      // refused by what its name resolves to now is only this message's failure: DNS may change back.
      return { kind: 'unusable', error: (err as Error).message }
    }
    const [webPush, keys] = await Promise.all([loadWebPush(), vapidKeys(this.db)])
    const request = webPush.generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, row.payload, {
      TTL: Math.max(0, row.ttl - elapsed),
      urgency: row.urgency,
      ...(row.topic ? { topic: row.topic } : {}),
      // The signature is made once an hour per push service (below), not for every message.
      vapidDetails: null as never,
      headers: { Authorization: this.vapidHeader(webPush, url.origin, keys, now) },
    })
    let answer: PushAnswer
    try {
      answer = await post({
        url,
        headers: request.headers as Record<string, string | number>,
        body: request.body as Buffer | null,
        lookup: checkedLookup(url, this.allow, this.options.resolve),
        timeoutMs: this.options.timeoutMs,
      })
    } catch (err) {
      const e = err as Error & { code?: string }
      if (e.code === 'EPUSHREFUSED') return { kind: 'failed', error: e.message }
      return this.retryOrGiveUp(row, Date.now(), null, `no answer from the push service (${e.code ?? e.message})`)
    }
    answered?.(answer)
    const said = answer.body.trim() ? `: ${answer.body.trim().replace(/\s+/g, ' ').slice(0, 200)}` : ''
    if (answer.status >= 200 && answer.status < 300) return { kind: 'delivered' }
    if (answer.status === 404 || answer.status === 410) return { kind: 'gone', status: answer.status }
    if (answer.status === 429 || answer.status >= 500) return this.retryOrGiveUp(row, Date.now(), answer.retryAfter, `the push service answered ${answer.status}${said}`)
    return { kind: 'failed', error: `the push service refused it with ${answer.status}${said}` }
  }

  /** The next attempt's time (the service's Retry-After, else the backoff schedule), or giving up when none is left. */
  private retryOrGiveUp(row: Claimed, now: number, retryAfter: string | null, error: string): Outcome {
    const attempts = row.attempts + 1
    const delays = this.options.retryDelaysMs
    if (attempts > delays.length) return { kind: 'failed', error: `${error} (given up after ${attempts} attempts)` }
    const waitMs = Math.min(retryAfterMs(retryAfter, now) ?? delays[attempts - 1]!, this.options.maxRetryAfterMs)
    const dueAt = now + waitMs
    if (dueAt >= row.createdAt + row.ttl * 1000) return { kind: 'failed', error: `${error} (its time to live ends before it could be tried again)` }
    return { kind: 'retry', dueAt, error }
  }

  /** `vapid t=<JWT>, k=<public key>` for one push service (audience: its origin), made once an hour. */
  private vapidHeader(webPush: WebPush, audience: string, keys: VapidKeys, now: number): string {
    const known = this.vapidHeaders.get(audience)
    if (known && known.until > now) return known.header
    const expiration = Math.floor(now / 1000) + VAPID_JWT_SECONDS
    const header = webPush.getVapidHeaders(audience, this.subject, keys.publicKey, keys.privateKey, 'aes128gcm', expiration).Authorization
    this.vapidHeaders.set(audience, { header, until: now + VAPID_REUSE_MS })
    return header
  }

  private report(row: Claimed, outcome: Outcome): void {
    const where = hostOf(row.endpoint)
    if (outcome.kind === 'gone') console.info(`[push] device ${row.subscriptionId} is gone (${outcome.status} from ${where}): removed`)
    else if (outcome.kind === 'unusable') console.warn(`[push] device ${row.subscriptionId} removed: ${outcome.error}`)
    else if (outcome.kind === 'failed') console.warn(`[push] gave up on message ${row.id} to device ${row.subscriptionId} at ${where}: ${outcome.error}`)
  }

  /** Makes sure this sender looks again by `dueAt` (a retry it scheduled). */
  private wakeBy(dueAt: number): void {
    if (this.closed || dueAt >= this.wakeAt) return
    if (this.wakeTimer) clearTimeout(this.wakeTimer)
    this.wakeAt = dueAt
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null
      this.wakeAt = Infinity
      this.kick()
    }, Math.max(0, dueAt - Date.now()))
    this.wakeTimer.unref()
  }

  private async sweep(now = Date.now()): Promise<void> {
    if (this.closed || this.sweeping) return
    this.sweeping = true
    try {
      if (now - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = now
        await pruneFailed(this.db, now - FAILED_KEPT_MS)
      }
      if (await anyDue(this.db, now)) this.kick()
    } catch (err) {
      console.error('[push] could not sweep the outbox:', err)
    } finally {
      this.sweeping = false
    }
  }

  private isIdle(): boolean {
    return this.inFlight === 0 && this.buffer.length === 0 && !this.claiming && !this.wanted && !this.kickTimer && !this.wakeTimer && !this.dueTimer
  }

  private settle(): void {
    if (!this.isIdle()) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }
}

/**
 * Due times squeezed so that the last is due by `by`: each keeps its place between the first's time and `by` in
 * proportion (the order, and the messages due at once, stay as they were). Nothing changes when the last is due by
 * then already. The pace's own count runs on as if unsqueezed: the next burst is spread no thinner for it.
 */
function within(rows: { dueAt: number }[], by: number): void {
  const first = rows[0]?.dueAt
  const last = rows.at(-1)?.dueAt
  if (first === undefined || last === undefined || last <= by) return
  const to = Math.max(first, by)
  const scale = last > first ? (to - first) / (last - first) : 0
  for (const row of rows) row.dueAt = Math.min(to, first + Math.round((row.dueAt - first) * scale))
}

/** Retry-After as milliseconds from `now`: whole seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host
  } catch {
    return 'an unreadable endpoint'
  }
}
