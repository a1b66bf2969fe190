import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Database } from '../../db/client'
import { sqliteDb, type SqliteDb } from '../../db/sqlite'
import { Mailer, type MailMessage } from '../../src/platform/mail'
import { newRegistration, passwordReset, registrationApproved, registrationReceived, registrationRejected } from '../../src/modules/mail/templates'
import { decodeQp, startSmtp } from '../support/smtp'

const MAIL_FROM = 'Brokernet <no-reply@brokernet.test>'
const PUBLIC_URL = 'https://brokernet.test'

const message = (subject: string, to = 'broker@example.com'): MailMessage => ({
  to,
  subject,
  text: `Text of ${subject}`,
  html: `<p>HTML of ${subject}</p>`,
})

// A migrated SQLite file of its own per test, without the HTTP app: the mailer needs only the outbox. The mailer works
// through the data layer (`data`), and so does the test, reading and arranging rows in plain SQL.
let dir: string
let db: Database
let data: SqliteDb
let mailer: Mailer | null
let smtp: Awaited<ReturnType<typeof startSmtp>> | null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brokernet-mail-'))
  db = openDatabase(join(dir, 'test.db'))
  data = sqliteDb(db)
  mailer = null
  smtp = null
})

afterEach(async () => {
  await mailer?.close()
  await smtp?.close()
  await data.close()
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

type OutboxRow = { id: number; toAddress: string; subject: string; status: string; attempts: number; lastError: string | null; sentAt: number | string | null }
/** The outbox rows with the subject, oldest first; sent_at as a Date (or null). */
const rowsWithSubject = async (subject: string) =>
  (
    await data.all<OutboxRow>(
      `select id, to_address as "toAddress", subject, status, attempts, last_error as "lastError", sent_at as "sentAt" from mail_outbox where subject = ? order by id`,
      [subject],
    )
  ).map((r) => ({ ...r, sentAt: r.sentAt == null ? null : new Date(Number(r.sentAt)) }))
/** Inserts an outbox row as a previous run left it. */
const outboxRow = async (r: { toAddress: string; subject: string; textBody: string; htmlBody?: string | null; status?: string; attempts?: number; sentAt?: number }) =>
  (
    await data.run<{ id: number }>(
      'insert into mail_outbox (to_address, subject, text_body, html_body, status, attempts, created_at, sent_at) values (?, ?, ?, ?, ?, ?, ?, ?) returning id',
      [r.toAddress, r.subject, r.textBody, r.htmlBody ?? null, r.status ?? 'PENDING', r.attempts ?? 0, Date.now(), r.sentAt ?? null],
    )
  ).rows[0]!

describe('Mailer with SMTP', () => {
  test('delivers a message and marks its row SENT', async () => {
    smtp = await startSmtp()
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true })
    const resetUrl = `${PUBLIC_URL}/reset-password?token=abc123def456`
    const msg = passwordReset(PUBLIC_URL, { email: 'ana@example.com', fullName: 'Ana Broker' }, resetUrl)

    await mailer.send(data, msg)
    // Written at once, delivered later: the caller is never held up by SMTP.
    const [queued] = await rowsWithSubject(msg.subject)
    expect(queued.status).toBe('PENDING')
    expect(smtp.received).toHaveLength(0)

    await mailer.idle()

    expect(smtp.received).toHaveLength(1)
    const got = smtp.received[0]
    expect(got.to).toEqual(['ana@example.com'])
    expect(got.from).toBe('no-reply@brokernet.test')
    const raw = decodeQp(got.raw)
    expect(raw).toContain('Subject: Reset your Brokernet password')
    expect(raw).toContain(resetUrl)
    expect(raw).toContain('valid for one hour')
    expect(raw).toContain('Content-Type: text/html')

    const [row] = await rowsWithSubject(msg.subject)
    expect(row.status).toBe('SENT')
    expect(row.attempts).toBe(1)
    expect(row.sentAt).toBeInstanceOf(Date)
    expect(row.lastError).toBeNull()
  })

  test('retries a refused delivery and records both attempts', async () => {
    smtp = await startSmtp({ rejectRcpt: (n) => n === 1 })
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true }, { retryDelaysMs: [50, 50] })

    await mailer.send(data, message('retried'))
    await mailer.idle()

    expect(smtp.rcptCalls()).toBe(2)
    expect(smtp.received).toHaveLength(1)
    const [row] = await rowsWithSubject('retried')
    expect(row.status).toBe('SENT')
    expect(row.attempts).toBe(2)
    expect(row.sentAt).toBeInstanceOf(Date)
  })

  test('gives up after the last retry: FAILED with the error', async () => {
    smtp = await startSmtp({ rejectRcpt: () => true })
    const retryDelaysMs = [20, 20, 20]
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true }, { retryDelaysMs })

    await mailer.send(data, message('refused'))
    await mailer.idle()

    expect(smtp.rcptCalls()).toBe(retryDelaysMs.length + 1)
    expect(smtp.received).toHaveLength(0)
    const [row] = await rowsWithSubject('refused')
    expect(row.status).toBe('FAILED')
    expect(row.attempts).toBe(retryDelaysMs.length + 1)
    expect(row.lastError).toContain('450')
    expect(row.lastError!.length).toBeLessThanOrEqual(500)
    expect(row.sentAt).toBeNull()
  })

  test('a message sent in a transaction that rolls back is neither stored nor delivered', async () => {
    smtp = await startSmtp()
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true })
    const m = mailer
    const before = (await data.get<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM mail_outbox'))!

    const rolledBack = () =>
      data.tx(async (tx) => {
        await m.send(tx, message('rolled back', 'ghost@example.com'))
        throw new Error('boom')
      })
    await expect(rolledBack()).rejects.toThrow('boom')
    // The rolled-back id is free again: a row that takes it before delivery runs is delivered only if PENDING.
    // SQLite only: a rolled-back insert gives its id back there (a PostgreSQL sequence never does).
    const reused = await outboxRow({ toAddress: 'old@example.com', subject: 'already sent', textBody: 'x', status: 'SENT', attempts: 1 })
    expect(reused.id).toBe(before.id + 1)
    await data.tx((tx) => m.send(tx, message('committed', 'real@example.com')))
    await mailer.idle()

    expect(await rowsWithSubject('rolled back')).toHaveLength(0)
    expect(smtp.received.map((r) => r.to)).toEqual([['real@example.com']])
    expect((await rowsWithSubject('committed'))[0].status).toBe('SENT')

    // The next send() in the same tick takes the freed id: that row is queued twice but delivered once.
    await expect(rolledBack()).rejects.toThrow('boom')
    await m.send(data, message('took the id', 'again@example.com'))
    await m.idle()
    await Bun.sleep(200) // room for a duplicate to arrive
    expect(await rowsWithSubject('rolled back')).toHaveLength(0)
    expect(smtp.received.map((r) => r.to)).toEqual([['real@example.com'], ['again@example.com']])
  })

  test('a message sent early in a transaction that goes on is delivered once it commits', async () => {
    smtp = await startSmtp()
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true })
    const m = mailer
    await data.tx(async (tx) => {
      await m.send(tx, message('after commit'))
      await Bun.sleep(100) // the transaction outlives the tick delivery starts in
    })
    await mailer.idle()

    expect(smtp.received).toHaveLength(1)
    expect((await rowsWithSubject('after commit'))[0]).toMatchObject({ status: 'SENT', attempts: 1 })
  })

  test('an unreachable server counts as a failed attempt, not a crash', async () => {
    const closed = await startSmtp()
    await closed.close()
    mailer = new Mailer(data, { smtpUrl: closed.url, mailFrom: MAIL_FROM, production: true }, { retryDelaysMs: [10] })

    await mailer.send(data, message('nobody home'))
    await mailer.idle()

    const [row] = await rowsWithSubject('nobody home')
    expect(row).toMatchObject({ status: 'FAILED', attempts: 2 })
    expect(row.lastError).toContain('ECONNREFUSED')
  })

  test('resume() delivers PENDING rows left by a previous run, each once', async () => {
    for (const row of [
      { toAddress: 'left1@example.com', subject: 'left over 1', textBody: 'one', htmlBody: '<p>one</p>' },
      { toAddress: 'left2@example.com', subject: 'left over 2', textBody: 'two', htmlBody: null, attempts: 2 },
      { toAddress: 'done@example.com', subject: 'already sent', textBody: 'x', status: 'SENT', attempts: 1, sentAt: Date.now() },
      { toAddress: 'bad@example.com', subject: 'already failed', textBody: 'x', status: 'FAILED', attempts: 5 },
    ])
      await outboxRow(row)
    let release = () => {}
    smtp = await startSmtp({ holdData: new Promise<void>((resolve) => (release = resolve)) })
    mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true })

    await Promise.all([mailer.resume(), mailer.resume()]) // queued twice in one tick
    while (smtp.rcptCalls() < 2) await Bun.sleep(5)
    await mailer.resume() // both rows still PENDING, but already on the wire
    release()
    await mailer.idle()
    await Bun.sleep(200) // room for a duplicate to arrive

    expect(smtp.received.map((r) => r.to[0]).sort()).toEqual(['left1@example.com', 'left2@example.com'])
    expect((await rowsWithSubject('left over 1'))[0]).toMatchObject({ status: 'SENT', attempts: 1 })
    expect((await rowsWithSubject('left over 2'))[0]).toMatchObject({ status: 'SENT', attempts: 3 })
    expect((await rowsWithSubject('already failed'))[0].status).toBe('FAILED')
  })

  test('close() cancels a waiting retry and leaves its row PENDING for resume()', async () => {
    smtp = await startSmtp({ rejectRcpt: () => true })
    const first = (mailer = new Mailer(data, { smtpUrl: smtp.url, mailFrom: MAIL_FROM, production: true }, { retryDelaysMs: [300] }))
    await first.send(data, message('interrupted'))
    while ((await rowsWithSubject('interrupted'))[0].attempts === 0) await Bun.sleep(5)

    await first.close() // would never resolve if the cancelled retry still counted as pending
    await Bun.sleep(500) // a window to watch for what must not come (the retry), not a wait for something
    expect(smtp.rcptCalls()).toBe(1)
    expect((await rowsWithSubject('interrupted'))[0]).toMatchObject({ status: 'PENDING', attempts: 1 })
  })

  // SQLite only: the child process opens a SQLite file of its own.
  test('a waiting retry does not keep the process alive', async () => {
    const closed = await startSmtp()
    await closed.close()
    const script = join(dir, 'exits.ts')
    await Bun.write(
      script,
      `import { openDatabase } from ${JSON.stringify(join(import.meta.dir, '../../db/client'))}
import { sqliteDb } from ${JSON.stringify(join(import.meta.dir, '../../db/sqlite'))}
import { Mailer } from ${JSON.stringify(join(import.meta.dir, '../../src/platform/mail'))}
const db = openDatabase(${JSON.stringify(join(dir, 'child.db'))})
const data = sqliteDb(db)
const mailer = new Mailer(data, { smtpUrl: ${JSON.stringify(closed.url)}, mailFrom: 'a@b.test', production: true }, { retryDelaysMs: [600_000] })
await mailer.send(data, { to: 'x@example.com', subject: 'later', text: 't', html: 'h' })
while (db.$client.query('SELECT attempts FROM mail_outbox').get().attempts === 0) await Bun.sleep(5)
console.log('first attempt done')
`,
    )
    // Its retry is due in 10 minutes: exiting by itself (code 0) within the 2 minutes it is given, however slow the
    // machine, it was not kept alive by it (killed at the timeout, it would have no exit code).
    const started = performance.now()
    const child = Bun.spawnSync([process.execPath, script], { timeout: 120_000 })
    expect(child.stdout.toString()).toContain('first attempt done')
    expect(child.exitCode).toBe(0)
    console.log(`[mail] the child with a waiting retry exited after ${(performance.now() - started).toFixed(0)} ms`)
  }, 180_000)
})

describe('Mailer without SMTP', () => {
  test('marks the row LOGGED and prints it, with the body outside production', async () => {
    const info = spyOn(console, 'info').mockImplementation(() => {})
    try {
      mailer = new Mailer(data, { smtpUrl: undefined, mailFrom: MAIL_FROM, production: false })
      await mailer.send(data, message('no smtp', 'dev@example.com'))
      await mailer.idle()

      const [row] = await rowsWithSubject('no smtp')
      expect(row.status).toBe('LOGGED')
      expect(row.sentAt).toBeNull()
      const printed = info.mock.calls.map((args) => args.join(' ')).join('\n')
      expect(printed).toContain('[mail] to dev@example.com: no smtp (SMTP_URL not set: kept in the outbox)')
      expect(printed).toContain('Text of no smtp')
    } finally {
      info.mockRestore()
    }
  })

  test('does not print the body in production', async () => {
    const info = spyOn(console, 'info').mockImplementation(() => {})
    try {
      mailer = new Mailer(data, { smtpUrl: undefined, mailFrom: MAIL_FROM, production: true })
      await mailer.send(data, message('quiet'))
      await mailer.idle()
      const printed = info.mock.calls.map((args) => args.join(' ')).join('\n')
      expect(printed).toContain('[mail] to broker@example.com: quiet')
      expect(printed).not.toContain('Text of quiet')
      expect((await rowsWithSubject('quiet'))[0].status).toBe('LOGGED')
    } finally {
      info.mockRestore()
    }
  })

  test('a status that cannot be written is logged, not thrown', async () => {
    const info = spyOn(console, 'info').mockImplementation(() => {})
    const error = spyOn(console, 'error').mockImplementation(() => {})
    try {
      mailer = new Mailer(data, { smtpUrl: undefined, mailFrom: MAIL_FROM, production: true })
      await mailer.send(data, message('unwritable'))
      // SQLite only: a trigger in SQLite's syntax makes the outbox refuse updates.
      await data.run(`CREATE TRIGGER no_status BEFORE UPDATE ON mail_outbox BEGIN SELECT RAISE(ABORT, 'read only'); END`)
      await mailer.idle()
      expect(error).toHaveBeenCalled()
      expect((await rowsWithSubject('unwritable'))[0].status).toBe('PENDING')
    } finally {
      info.mockRestore()
      error.mockRestore()
    }
  })
})

describe('templates', () => {
  const evil = { email: 'x@example.com', fullName: '<b>x</b> & "co"' }

  test('escape user data in HTML and keep it readable in text', () => {
    const messages = [
      registrationReceived(PUBLIC_URL, evil),
      newRegistration(PUBLIC_URL, 'admin@example.com', { ...evil, cityName: '<i>City</i>', stateName: 'State' }),
      registrationApproved(PUBLIC_URL, evil),
      registrationRejected(PUBLIC_URL, evil, '<script>alert(1)</script>'),
      passwordReset(PUBLIC_URL, evil, `${PUBLIC_URL}/reset-password?token=a&b=<c>`),
    ]
    for (const m of messages) {
      expect(m.html).not.toContain('<b>x</b>')
      expect(m.html).toContain('&lt;b&gt;x&lt;/b&gt; &amp; &quot;co&quot;')
      expect(m.text).toContain('<b>x</b> & "co"')
      expect(m.html).not.toContain('<script>')
      expect(m.html).not.toContain('<i>City</i>')
      expect(m.html).not.toContain('<c>')
    }
    expect(messages[1].html).toContain('&lt;i&gt;City&lt;/i&gt;, State')
    expect(messages[3].html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(messages[4].html).toContain(`href="${PUBLIC_URL}/reset-password?token=a&amp;b=&lt;c&gt;"`)
  })

  test('say what each mail is for, with absolute links', () => {
    const user = { email: 'ana@example.com', fullName: 'Ana Broker' }

    const received = registrationReceived(PUBLIC_URL, user)
    expect(received).toMatchObject({ to: 'ana@example.com', subject: 'Registration received - Brokernet' })
    expect(received.text).toContain('pending')
    expect(received.text).toContain('1-2 business days')

    const admin = newRegistration(PUBLIC_URL, 'admin@example.com', { ...user, cityName: 'Pune', stateName: null })
    expect(admin).toMatchObject({ to: 'admin@example.com', subject: 'New broker registration: Ana Broker' })
    expect(admin.text).toContain(`${PUBLIC_URL}/dashboard/approvals`)
    expect(admin.html).toContain(`href="${PUBLIC_URL}/dashboard/approvals"`)
    expect(admin.text).toContain('Location: Pune\n')

    const approved = registrationApproved(PUBLIC_URL, user)
    expect(approved.subject).toBe('Your Brokernet account is approved')
    expect(approved.html).toContain(`href="${PUBLIC_URL}/login"`)

    expect(registrationRejected(PUBLIC_URL, user, 'Blurry ID card').text).toContain('Reason: Blurry ID card')
    expect(registrationRejected(PUBLIC_URL, user, null).text).not.toContain('Reason')
    expect(registrationRejected(PUBLIC_URL, user).subject).toBe('Your Brokernet registration')

    const reset = passwordReset(PUBLIC_URL, user, `${PUBLIC_URL}/reset-password?token=t0k`)
    expect(reset.subject).toBe('Reset your Brokernet password')
    expect(reset.text).toContain(`${PUBLIC_URL}/reset-password?token=t0k`)
    expect(reset.text).toContain('one hour')
    expect(reset.text).toContain('used once')
    expect(reset.text).toContain('ignore this mail')
  })
})
