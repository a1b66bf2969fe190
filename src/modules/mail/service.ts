import type { Transporter } from 'nodemailer'
import type { Db, Param, Queryable } from '../../../db/sql'
import type { Config } from '../../config'
import { logText } from '../../http/log-text'

export type MailMessage = { to: string; subject: string; text: string; html: string }

type OutboxRow = { to_address: string; subject: string; text_body: string; html_body: string | null; attempts: number }

const DEFAULT_RETRY_DELAYS_MS = [2_000, 10_000, 60_000, 300_000]

/**
 * Delivers mail through the `mail_outbox` table: a message exists as soon as its row does, so a request
 * never waits on (or fails because of) an SMTP server, and nothing is lost across a restart.
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

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'production'>,
    options: { retryDelaysMs?: number[] } = {},
  ) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
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
    for (const m of messages) {
      const { rows } = await q.run<{ id: number }>(
        `insert into mail_outbox (to_address, subject, text_body, html_body, status, attempts, created_at)
         values (?, ?, ?, ?, 'PENDING', 0, ?) returning id`,
        [m.to, m.subject, m.text, m.html, Date.now()],
      )
      this.enqueue(rows[0]!.id)
    }
  }

  idle(): Promise<void> {
    if (this.tracked.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  async resume(): Promise<void> {
    try {
      const rows = await this.db.all<{ id: number }>("select id from mail_outbox where status = 'PENDING'")
      for (const { id } of rows) if (!this.tracked.has(id)) this.enqueue(id)
    } catch (err) {
      console.error('[mail] could not read the outbox to resume delivery:', err)
    }
  }

  /** Rows still waiting (queued or between retries) stay PENDING for resume() on the next start. */
  async close(): Promise<void> {
    this.closed = true
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
      // Read in a transaction: on SQLite this process runs one at a time, so it begins after the sender's has ended and
      // sees the row exactly if that committed (the root handle's reader could run before the commit and miss it).
      // Rows of a rolled-back transaction are simply absent; rows already delivered are no longer PENDING.
      const row = await this.db.tx((tx) =>
        tx.get<OutboxRow>("select to_address, subject, text_body, html_body, attempts from mail_outbox where id = ? and status = 'PENDING'", [id]),
      )
      if (!row) return

      if (!this.config.smtpUrl) {
        console.info(`[mail] to ${logText(row.to_address)}: ${logText(row.subject)} (SMTP_URL not set: kept in the outbox)`)
        // A developer without SMTP still needs the reset and approval links (each line of the body marked as the mail's).
        if (!this.config.production) console.info(row.text_body.split('\n').map((line) => `[mail]   ${logText(line)}`).join('\n'))
        await this.update(id, { status: 'LOGGED' })
        return
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
        await this.update(id, { status: 'SENT', attempts, sent_at: Date.now(), last_error: null })
      } catch (err) {
        const lastError = (err instanceof Error ? err.message : String(err)).trim().slice(0, 500)
        const final = attempts > this.retryDelaysMs.length
        await this.update(id, { attempts, last_error: lastError, ...(final ? { status: 'FAILED' } : {}) })
        if (!final) retryIn = this.retryDelaysMs[attempts - 1]
      }
    } catch (err) {
      // The database, not SMTP, failed (locked, closed, full): log it and leave the row for resume(), never crash.
      console.error(`[mail] could not read or record the status of outbox row ${id}:`, err)
    } finally {
      if (retryIn !== null && !this.closed) this.scheduleRetry(id, retryIn)
      else this.untrack(id)
    }
  }

  private scheduleRetry(id: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(id)
      void this.deliver(id)
    }, delayMs)
    // A retry must never be the reason a process stays up; an unfinished row is picked up by resume().
    timer.unref()
    this.retryTimers.set(id, timer)
  }

  /** Sets columns of one outbox row (names from this file only, never from input). */
  private async update(id: number, values: Partial<Record<'status' | 'attempts' | 'sent_at' | 'last_error', Param>>): Promise<void> {
    const columns = Object.keys(values)
    await this.db.run(`update mail_outbox set ${columns.map((c) => `${c} = ?`).join(', ')} where id = ?`, [...Object.values(values), id])
  }
}
