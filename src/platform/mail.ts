import type { Transporter } from 'nodemailer'
import type { Db, Param, Queryable } from '../../db/sql'
import type { Config } from './config'
import { logText } from './http/log-text'

export type MailMessage = { to: string; subject: string; text: string; html: string }

type Column = 'status' | 'attempts' | 'sent_at' | 'last_error'

type OutboxRow = { to_address: string; subject: string; text_body: string; html_body: string | null; attempts: number }

const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000]
/** How often resume()'s sweep looks for PENDING rows nobody is delivering, and how old a row must be before it does. */
const DEFAULT_SWEEP_MS = 30_000
const DEFAULT_SWEEP_GRACE_MS = 30_000
/** Rows one sweep takes at most (oldest first); the next sweep takes the rest. */
const SWEEP_BATCH = 500
/**
 * Deliveries in flight per Mailer. On PostgreSQL each holds a pooled connection (its claim's transaction) for as long
 * as the SMTP server takes: a backlog must never take the pool from requests (db/postgres.ts: 10 connections).
 */
const DELIVERY_SLOTS = 4
/**
 * SQLite: how long a claim holds a row (one attempt, within the SMTP timeouts of smtp() below, takes far less). A claim
 * older than this was left by a process that died mid-send: the row may be tried again.
 */
export const SQLITE_CLAIM_MS = 5 * 60_000
/**
 * PostgreSQL: a row's advisory lock, of two 32-bit keys: "Mail", and the id (64-bit) folded into 31 bits. Ids 2^31
 * apart share one: a delivery may then wait for a transaction that wrote another row, never miss its own.
 */
const outboxLock = (id: string) => `${0x4d61696c}, (${id} % 2147483648)::int`

/**
 * Delivers mail through the `mail_outbox` table: a message exists as soon as its row does, so a request
 * never waits on (or fails because of) an SMTP server, and nothing is lost across a restart.
 *
 * Several processes may deliver from one outbox (instances on one PostgreSQL database, issue 16; WORKERS on one SQLite
 * file): each delivers the rows it queued, resume() at start what earlier runs left, and a periodic sweep what a dead
 * process left. Any two of them may pick the same row, so an attempt first claims it, and a row claimed elsewhere is
 * skipped, never waited for:
 * - PostgreSQL: `select … for update skip locked` in the delivering transaction, which stays open while the SMTP server
 *   answers, and the row's new status (SENT, FAILED, or PENDING with one more attempt) commits with it;
 * - SQLite has no row locks, and its one writer at a time cannot be held over an SMTP exchange: the claim is a write of
 *   its own, `sent_at` set on a PENDING row (an attempt in flight since then), taken only from a row with no claim or
 *   one older than SQLITE_CLAIM_MS; the attempt's outcome then clears it (or sets it to the time it was sent).
 * So no two processes ever send the same row while both are alive. A process that dies mid-send (killed, machine
 * lost, database connection cut) leaves its row PENDING: on PostgreSQL the lock goes with its connection at once, on
 * SQLite the claim expires after SQLITE_CLAIM_MS; then another instance's sweep (or the next resume()) sends it. If the
 * SMTP server had already accepted the message, its recipient gets it twice: delivery is exactly once while
 * processes live, at least once across such a crash (as it is when a status cannot be written after a send).
 */
export class Mailer {
  /** The pooled SMTP transport, made at the first delivery: nodemailer is imported then, not at start. */
  private transport: Promise<Transporter> | null = null
  private readonly retryDelaysMs: number[]
  /** Ids queued, waiting for a retry or being delivered: what idle() waits on, and what resume() must not deliver twice. */
  private readonly tracked = new Set<number>()
  private queue: number[] = []
  private flushTimer: ReturnType<typeof setTimeout> | null = null
  private readonly retryTimers = new Map<number, ReturnType<typeof setTimeout>>()
  private idleWaiters: Array<() => void> = []
  private closed = false
  private readonly sweepMs: number
  private readonly sweepGraceMs: number
  private sweepTimer: ReturnType<typeof setInterval> | null = null
  private sweeping = false
  /** Deliveries in flight, and those waiting for one of the DELIVERY_SLOTS. */
  private active = 0
  private readonly slotWaiters: Array<() => void> = []

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'production'>,
    options: { retryDelaysMs?: number[]; sweepMs?: number; sweepGraceMs?: number } = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    this.sweepMs = options.sweepMs ?? DEFAULT_SWEEP_MS
    this.sweepGraceMs = options.sweepGraceMs ?? DEFAULT_SWEEP_GRACE_MS
  }

  /** nodemailer and its transport on first use (docs/decisions/004-lazy-start.md); only called when SMTP_URL is set. */
  private smtp(url: string): Promise<Transporter> {
    // Explicit timeouts: nodemailer's 10-minute socket default would hold up retries and shutdown on a silent server.
    return (this.transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url, pool: true, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 }),
    ))
  }

  /**
   * Writes the messages to the outbox through `q`: inside a transaction pass its `tx`, so a mail exists exactly when
   * the change it tells of does (a rollback takes it away). Delivery starts after that transaction has ended.
   */
  async send(q: Queryable, ...messages: MailMessage[]): Promise<void> {
    // PostgreSQL: the row's advisory lock, held until the writing transaction ends, is what its delivery waits on
    // (another connection cannot see the row before the commit: it would find nothing and never send it). SQLite's
    // delivery waits its turn behind this process's transaction anyway.
    const held = q.dialect === 'postgres' ? `, pg_advisory_xact_lock(${outboxLock('id')}) as held` : ''
    for (const m of messages) {
      const { rows } = await q.run<{ id: number }>(
        `insert into mail_outbox (to_address, subject, text_body, html_body, status, attempts, created_at)
         values (?, ?, ?, ?, 'PENDING', 0, ?) returning id${held}`,
        [m.to, m.subject, m.text, m.html, Date.now()],
      )
      this.enqueue(rows[0]!.id)
    }
  }

  idle(): Promise<void> {
    if (this.tracked.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /**
   * At start: delivers every PENDING row (left by an earlier run, or by another instance: the claim keeps any row from
   * going out twice), then sweeps the outbox every `sweepMs` until close().
   */
  async resume(): Promise<void> {
    try {
      const rows = await this.db.all<{ id: number }>("select id from mail_outbox where status = 'PENDING'")
      for (const { id } of rows) if (!this.tracked.has(id)) this.enqueue(id)
    } catch (err) {
      console.error('[mail] could not read the outbox to resume delivery:', err)
    }
    if (!this.closed && this.sweepMs > 0 && !this.sweepTimer) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs)
      this.sweepTimer.unref() // never the reason a process stays up
    }
  }

  /**
   * Delivers what a dead instance left, without waiting for a restart: PENDING rows older than `sweepGraceMs` (a
   * live instance is still delivering a fresh one) whose next attempt is due by the retry schedule counted from their
   * creation (one that another instance is retrying is left to its timer), not already held here. One query on the
   * (status, created_at) index. Every instance may sweep: the claim makes a row another one is sending a skip.
   */
  async sweep(now = Date.now()): Promise<void> {
    if (this.closed || this.sweeping) return
    this.sweeping = true
    try {
      const rows = await this.db.all<{ id: number; attempts: number; created_at: number }>(
        "select id, attempts, created_at from mail_outbox where status = 'PENDING' and created_at <= ? order by created_at limit ?",
        [now - this.sweepGraceMs, SWEEP_BATCH],
      )
      for (const { id, attempts, created_at } of rows) {
        const waited = this.retryDelaysMs.slice(0, attempts).reduce((sum, ms) => sum + ms, 0)
        if (!this.tracked.has(id) && Number(created_at) + this.sweepGraceMs + waited <= now) this.enqueue(id)
      }
    } catch (err) {
      console.error('[mail] could not sweep the outbox:', err)
    } finally {
      this.sweeping = false
    }
  }

  /** Rows still waiting (queued, for a slot, or between retries) stay PENDING for another instance or the next start. */
  async close(): Promise<void> {
    this.closed = true
    if (this.sweepTimer) clearInterval(this.sweepTimer)
    this.sweepTimer = null
    if (this.flushTimer) clearTimeout(this.flushTimer)
    this.flushTimer = null
    for (const id of this.queue) this.untrack(id)
    this.queue = []
    for (const [id, timer] of this.retryTimers) {
      clearTimeout(timer)
      this.untrack(id)
    }
    this.retryTimers.clear()
    // A graceful pool close lets a delivery already on the wire finish, so its row gets its final status.
    const closeTransport = () => void this.transport?.then((transport) => transport.close())
    closeTransport()
    await this.idle()
    closeTransport() // one a delivery in flight made after close() began (closing twice is harmless)
  }

  private enqueue(id: number): void {
    if (this.closed) return
    this.tracked.add(id)
    this.queue.push(id)
    // A later tick, not now: the caller is still writing its transaction (deliver() waits for it to end).
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null
      const ids = [...new Set(this.queue)]
      this.queue = []
      for (const id of ids) void this.deliver(id)
    }, 0)
  }

  private untrack(id: number): void {
    this.tracked.delete(id)
    if (this.tracked.size > 0) return
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  private async deliver(id: number): Promise<void> {
    let retryIn: number | null = null
    try {
      if (this.active >= DELIVERY_SLOTS) await new Promise<void>((resolve) => this.slotWaiters.push(resolve))
      else this.active++
      try {
        if (this.closed) return // a row still waiting for a slot at close() is left PENDING
        retryIn = this.db.dialect === 'postgres' ? await this.deliverLocked(id) : await this.deliverClaimed(id)
      } finally {
        // The next waiter inherits the slot; with none, it is free.
        const next = this.slotWaiters.shift()
        if (next) next()
        else this.active--
      }
    } catch (err) {
      // The database, not SMTP, failed (locked, closed, full): log it and leave the row for the sweep, never crash.
      console.error(`[mail] could not read or record the status of outbox row ${id}:`, err)
    } finally {
      if (retryIn !== null && !this.closed) this.scheduleRetry(id, retryIn)
      else this.untrack(id)
    }
  }

  /**
   * PostgreSQL: one transaction claims the row, holds it while the SMTP server answers, and commits its new status.
   * It first waits for the transaction that wrote the row to end (the advisory lock send() took); a row that another
   * instance is delivering is locked: skipped at once, not waited for. Returns when to retry, or null.
   */
  private deliverLocked(id: number): Promise<number | null> {
    return this.db.tx(async (tx) => {
      await tx.get(`select pg_advisory_xact_lock_shared(${outboxLock('?::bigint')}) as held`, [id])
      const row = await tx.get<OutboxRow>(
        "select to_address, subject, text_body, html_body, attempts from mail_outbox where id = ? and status = 'PENDING' for update skip locked",
        [id],
      )
      if (!row) return null // rolled back, delivered already, or being delivered by another instance
      const outcome = await this.attempt(row)
      await this.update(tx, id, outcome.values)
      return outcome.retryIn
    })
  }

  /**
   * SQLite: the claim is a write of its own (its `sent_at`), then the attempt, then its outcome, which releases it.
   * As a write, the claim waits its turn behind this process's transaction: the one that wrote the row has ended by
   * then, and a row of a rolled-back one is simply absent. Rows delivered already are no longer PENDING; a row claimed
   * in the last SQLITE_CLAIM_MS is another process's. Returns when to retry, or null.
   */
  private async deliverClaimed(id: number): Promise<number | null> {
    const now = Date.now()
    const { rows } = await this.db.run<OutboxRow>(
      `update mail_outbox set sent_at = ? where id = ? and status = 'PENDING' and (sent_at is null or sent_at < ?)
       returning to_address, subject, text_body, html_body, attempts`,
      [now, id, now - SQLITE_CLAIM_MS],
    )
    const row = rows[0]
    if (!row) return null
    const outcome = await this.attempt(row)
    await this.update(this.db, id, { sent_at: null, ...outcome.values })
    return outcome.retryIn
  }

  /** Sends (or, without SMTP, logs) a claimed row: the columns that record the outcome, and when to retry, if ever. */
  private async attempt(row: OutboxRow): Promise<{ values: Partial<Record<Column, Param>>; retryIn: number | null }> {
    if (!this.config.smtpUrl) {
      console.info(`[mail] to ${logText(row.to_address)}: ${logText(row.subject)} (SMTP_URL not set: kept in the outbox)`)
      // A developer without SMTP still needs the reset and approval links (each line of the body marked as the mail's).
      if (!this.config.production) console.info(row.text_body.split('\n').map((line) => `[mail]   ${logText(line)}`).join('\n'))
      return { values: { status: 'LOGGED' }, retryIn: null }
    }

    const attempts = row.attempts + 1
    try {
      const transport = await this.smtp(this.config.smtpUrl)
      await transport.sendMail({
        from: this.config.mailFrom,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body ?? undefined,
      })
      return { values: { status: 'SENT', attempts, sent_at: Date.now(), last_error: null }, retryIn: null }
    } catch (err) {
      const lastError = (err instanceof Error ? err.message : String(err)).trim().slice(0, 500)
      const final = attempts > this.retryDelaysMs.length
      return {
        values: { attempts, last_error: lastError, ...(final ? { status: 'FAILED' } : {}) },
        retryIn: final ? null : this.retryDelaysMs[attempts - 1]!,
      }
    }
  }

  private scheduleRetry(id: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(id)
      void this.deliver(id)
    }, delayMs)
    // A retry must never be the reason a process stays up; an unfinished row is picked up by a sweep or resume().
    timer.unref()
    this.retryTimers.set(id, timer)
  }

  /** Sets columns of one outbox row (names from this file only, never from input). */
  private async update(q: Queryable, id: number, values: Partial<Record<Column, Param>>): Promise<void> {
    const columns = Object.keys(values)
    await q.run(`update mail_outbox set ${columns.map((c) => `${c} = ?`).join(', ')} where id = ?`, [...Object.values(values), id])
  }
}

/** The outbox as monitoring sees it: the backlog, how much of it is being retried, what was given up, the oldest wait. */
export type OutboxState = { pending: number; retrying: number; failed: number; oldestAgeSeconds: number }

/** The outbox's state in one query (the (status, created_at) index): for /metrics and the system screen. */
/** The newest five mails whose last attempt failed: given up, or waiting to be tried again (the system screen). */
export const failedMails = (db: Queryable) =>
  db.all<{ id: number; subject: string; attempts: number; error: string | null; status: 'PENDING' | 'FAILED'; created_at: number }>(
    "select id, subject, attempts, last_error as error, status, created_at from mail_outbox where last_error is not null and status in ('PENDING', 'FAILED') order by id desc limit 5",
  )

export async function outboxState(db: Queryable, now = Date.now()): Promise<OutboxState> {
  const rows = await db.all<{ status: string; n: number; retrying: number; oldest: number }>(
    `select status, count(*) as n, sum(case when attempts > 0 then 1 else 0 end) as retrying, min(created_at) as oldest
     from mail_outbox where status in ('PENDING', 'FAILED') group by status`,
  )
  const pending = rows.find((r) => r.status === 'PENDING')
  const failed = rows.find((r) => r.status === 'FAILED')
  return {
    pending: Number(pending?.n ?? 0),
    retrying: Number(pending?.retrying ?? 0),
    failed: Number(failed?.n ?? 0),
    oldestAgeSeconds: pending ? Math.max(0, (now - Number(pending.oldest)) / 1000) : 0,
  }
}
