import { and, eq } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Database } from '../../../db/client'
import { mailOutbox } from '../../../db/schema'
import type { Config } from '../../config'
import { logText } from '../../http/log-text'

export type MailMessage = { to: string; subject: string; text: string; html: string }

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
    private readonly db: Database,
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

  send(...messages: MailMessage[]): void {
    for (const m of messages) {
      // Through `db`, not a transaction handle: bun:sqlite has one connection, so an open transaction includes this insert.
      const row = this.db
        .insert(mailOutbox)
        .values({ toAddress: m.to, subject: m.subject, textBody: m.text, htmlBody: m.html })
        .returning({ id: mailOutbox.id })
        .get()
      this.enqueue(row.id)
    }
  }

  idle(): Promise<void> {
    if (this.tracked.size === 0) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  resume(): void {
    try {
      const rows = this.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.status, 'PENDING')).all()
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
    // A later tick, not now: the caller's transaction has then committed or rolled back.
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
      // Rows of a rolled-back transaction are simply absent; rows already delivered are no longer PENDING.
      const row = this.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'PENDING')))
        .get()
      if (!row) return

      if (!this.config.smtpUrl) {
        console.info(`[mail] to ${logText(row.toAddress)}: ${logText(row.subject)} (SMTP_URL not set: kept in the outbox)`)
        // A developer without SMTP still needs the reset and approval links (each line of the body marked as the mail's).
        if (!this.config.production) console.info(row.textBody.split('\n').map((line) => `[mail]   ${logText(line)}`).join('\n'))
        this.update(id, { status: 'LOGGED' })
        return
      }

      const attempts = row.attempts + 1
      try {
        const transport = await this.smtp(this.config.smtpUrl)
        await transport.sendMail({
          from: this.config.mailFrom,
          to: row.toAddress,
          subject: row.subject,
          text: row.textBody,
          html: row.htmlBody ?? undefined,
        })
        this.update(id, { status: 'SENT', attempts, sentAt: new Date(), lastError: null })
      } catch (err) {
        const lastError = (err instanceof Error ? err.message : String(err)).trim().slice(0, 500)
        const final = attempts > this.retryDelaysMs.length
        this.update(id, { attempts, lastError, ...(final ? { status: 'FAILED' as const } : {}) })
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

  private update(id: number, values: Partial<typeof mailOutbox.$inferInsert>): void {
    this.db.update(mailOutbox).set(values).where(eq(mailOutbox.id, id)).run()
  }
}
