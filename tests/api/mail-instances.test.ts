// Several instances on one database deliver the outbox (issue 16): each mail reaches the SMTP server exactly once,
// however their resume(), sweeps and own deliveries overlap. Two app contexts on the same database stand for two
// instances: on PostgreSQL (BROKERNET_TEST_DATABASE=postgres) two pools on one database of the test cluster, on SQLite
// two connections (each with its reader) to one file.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { openDataSource, sqliteSource, type DataSource } from '../../db/open'
import { loadConfig } from '../../src/platform/config'
import { createContext, type AppContext } from '../../src/platform/context'
import { Mailer, SQLITE_CLAIM_MS, type MailMessage } from '../../src/platform/mail'
import { ON_POSTGRES } from '../support/app'
import { sharedCluster } from '../support/postgres'
import { clusterOfTests } from '../support/pg-cluster'
import { startSmtp } from '../support/smtp'
import { eventually } from '../support/eventually'

type Instance = { ctx: AppContext; source: DataSource; mail: Mailer }

let dir: string
let databaseUrl: string | undefined
let instances: Instance[]
let smtp: Awaited<ReturnType<typeof startSmtp>> | null

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brokernet-mail-instances-'))
  databaseUrl = ON_POSTGRES ? await (await sharedCluster()).createDatabase() : undefined
  instances = []
  smtp = null
})

/** What a test leaves to be done after its instances are closed (a cluster of its own, stopped). */
const afterThis: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const i of instances) await i.mail.close()
  for (const i of instances) await i.source.close()
  for (const done of afterThis.splice(0)) await done()
  await smtp?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** One more instance on the test's database: its own connections, context and Mailer (nothing started: tests call resume()). */
async function instance(mailOptions: ConstructorParameters<typeof Mailer>[2] = {}): Promise<Instance> {
  const config = loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', SMTP_URL: smtp!.url, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) })
  const source = databaseUrl ? await openDataSource(config) : sqliteSource(openDatabase(config.databasePath))
  const mail = new Mailer(source.db, config, mailOptions)
  const i = { ctx: createContext(source, config, { mail }), source, mail }
  instances.push(i)
  return i
}

const message = (n: number): MailMessage => ({ to: `broker${n}@example.com`, subject: `mail ${n}`, text: `Text ${n}`, html: `<p>HTML ${n}</p>` })

/** PENDING rows as a previous run left them. */
async function leftOver(i: Instance, count: number, from = 0, createdAt = Date.now()) {
  for (let n = from; n < from + count; n++)
    await i.ctx.db.run(
      "insert into mail_outbox (to_address, subject, text_body, html_body, status, attempts, created_at) values (?, ?, ?, ?, 'PENDING', 0, ?)",
      [`broker${n}@example.com`, `mail ${n}`, `Text ${n}`, `<p>HTML ${n}</p>`, createdAt],
    )
}

/** Recipients as the SMTP server received them, sorted; and what each of `count` addresses should be. */
const receivedSorted = () => smtp!.received.map((r) => r.to.join(',')).sort()
const expected = (count: number, from = 0) => Array.from({ length: count }, (_, k) => `broker${from + k}@example.com`).sort()

async function settled(...all: Instance[]) {
  await Promise.all(all.map((i) => i.mail.idle()))
  await Bun.sleep(200) // room for a duplicate to arrive
}

const statuses = async (i: Instance) =>
  await i.ctx.db.all<{ status: string; attempts: number; n: number }>(
    'select status, attempts, count(*) as n from mail_outbox group by status, attempts order by status, attempts',
  )

describe(`two instances on one ${ON_POSTGRES ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  test('resuming the same PENDING rows at once, they send each exactly once', async () => {
    const release = Promise.withResolvers<void>()
    // Every message is held "on the wire" for a moment: the other instance reads the rows while they are in flight.
    smtp = await startSmtp({ holdData: release.promise })
    const [a, b] = [await instance(), await instance()]
    await leftOver(a, 24)

    await Promise.all([a.mail.resume(), b.mail.resume()])
    await eventually('deliveries on the wire', () => smtp!.rcptCalls() > 0, 20_000)
    await Promise.all([a.mail.resume(), b.mail.resume()]) // again, while the first deliveries are on the wire
    release.resolve()
    await settled(a, b)

    expect(receivedSorted()).toEqual(expected(24))
    expect(await statuses(a)).toEqual([{ status: 'SENT', attempts: 1, n: 24 }])
  })

  test('one resuming while the other delivers what it queued: each once', async () => {
    const release = Promise.withResolvers<void>()
    smtp = await startSmtp({ holdData: release.promise })
    const [a, b] = [await instance(), await instance()]

    await a.ctx.db.tx((tx) => a.mail.send(tx, ...Array.from({ length: 16 }, (_, n) => message(n))))
    for (let k = 0; k < 5; k++) {
      await b.mail.resume()
      await Bun.sleep(20)
    }
    release.resolve()
    await b.mail.resume()
    await settled(a, b)

    expect(receivedSorted()).toEqual(expected(16))
    expect(await statuses(b)).toEqual([{ status: 'SENT', attempts: 1, n: 16 }])
  })

  test('a mail queued early in a transaction that goes on is delivered once it commits, once', async () => {
    smtp = await startSmtp()
    const [a, b] = [await instance(), await instance({ sweepGraceMs: 0 })]
    // Until the commit, no other connection sees the row (PostgreSQL): A's delivery waits for it instead of finding
    // nothing, and B's resume and sweep in the meantime do not see it at all.
    await a.ctx.db.tx(async (tx) => {
      await a.mail.send(tx, message(1))
      await Bun.sleep(100)
      await b.mail.resume()
      await b.mail.sweep()
      await Bun.sleep(50)
    })
    await b.mail.sweep()
    await settled(a, b)

    expect(receivedSorted()).toEqual(expected(1, 1))
    expect(await statuses(a)).toEqual([{ status: 'SENT', attempts: 1, n: 1 }])
  })

  test('the sweep takes PENDING rows nobody holds once their next attempt is due, and stops at close()', async () => {
    smtp = await startSmtp()
    const a = await instance({ sweepMs: 0 }) // swept by hand below
    const now = Date.now()
    await leftOver(a, 1, 0, now - 60_000) // left by a dead instance a minute ago: due
    await leftOver(a, 1, 1, now) // just queued, its instance is on it: not yet
    await leftOver(a, 1, 2, now - 35_000) // retried twice by a live instance (2 s, 10 s): due at 30 s + 12 s
    await a.ctx.db.run('update mail_outbox set attempts = 2 where subject = ?', ['mail 2'])

    await a.mail.sweep(now)
    await settled(a)
    expect(receivedSorted()).toEqual(expected(1, 0))
    await a.mail.sweep(now + 10_000)
    await settled(a)
    expect(receivedSorted()).toEqual(expected(1, 0).concat(expected(1, 2)).sort())

    // On a timer from resume() on: a mail a dead instance left goes out without a restart.
    const b = await instance({ sweepMs: 20 })
    await b.mail.resume()
    await leftOver(b, 1, 3, Date.now() - 60_000)
    await eventually('the sweep’s delivery', () => smtp!.received.length >= 4, 20_000)
    expect(receivedSorted()).toEqual(expected(4))
    await b.mail.close()
    await leftOver(b, 1, 4, Date.now() - 60_000)
    await Bun.sleep(200) // a window to watch for what must not come (a send after close), not a wait for something
    expect(smtp.received).toHaveLength(4)
  })
})

// What each backend's claim does when its process dies: PostgreSQL's is a row lock, which goes with the connection;
// SQLite's a time written on the row, which lasts SQLITE_CLAIM_MS. Each on its own backend, whichever the run's.
describe('a claim when its process dies', () => {
  test('PostgreSQL: an instance killed mid-send leaves its row PENDING and another sends it (at least once)', async () => {
    const cluster = clusterOfTests()
    afterThis.push(cluster.release)
    databaseUrl = await (await cluster.get()).createDatabase()
    const release = Promise.withResolvers<void>()
    smtp = await startSmtp({ holdData: release.promise })
    const b = await instance({ sweepMs: 20, sweepGraceMs: 0 })
    await leftOver(b, 1)
    // Instance A is a process of its own, killed (-9) while its message is on the wire.
    const script = join(dir, 'instance-a.ts')
    await Bun.write(
      script,
      `import { postgresDb } from ${JSON.stringify(join(import.meta.dir, '../../db/postgres'))}
import { Mailer } from ${JSON.stringify(join(import.meta.dir, '../../src/platform/mail'))}
const mailer = new Mailer(postgresDb(${JSON.stringify(databaseUrl)}), { smtpUrl: ${JSON.stringify(smtp.url)}, mailFrom: 'a@b.test', production: true })
await mailer.resume()
setInterval(() => {}, 1_000)
`,
    )
    const a = Bun.spawn([process.execPath, script], { stdout: 'ignore', stderr: 'ignore' })
    try {
      await eventually('A’s message on the wire', () => smtp!.rcptCalls() >= 1, 20_000)
      expect(smtp.rcptCalls()).toBe(1)

      // A holds the row (for as long as it lives: its message is held on the wire): B's resume and sweeps skip it.
      // Had B waited for A's lock, it would not be done before A is killed below.
      const t0 = performance.now()
      const skipped = await Promise.race([(async () => (await b.mail.resume(), await b.mail.idle(), true))(), Bun.sleep(20_000).then(() => false)])
      expect(skipped).toBe(true)
      console.log(`[mail] a row another instance holds, skipped in ${(performance.now() - t0).toFixed(0)} ms`)
      await Bun.sleep(100) // a window to watch for what must not come (B sending it too)
      expect(smtp.rcptCalls()).toBe(1)

      // Killed, A's connection closes and its lock goes with it: the row is still PENDING, and B's sweep sends it.
      a.kill(9)
      await eventually('B’s sweep sending it', () => smtp!.rcptCalls() >= 2, 20_000)
      expect(smtp.rcptCalls()).toBe(2)
    } finally {
      a.kill(9)
      release.resolve()
    }
    await settled(b)
    // A had handed its copy over before it died: the recipient gets two. Exactly once while instances live, at least
    // once across a crash.
    expect(receivedSorted()).toEqual([...expected(1), ...expected(1)])
    expect(await statuses(b)).toEqual([{ status: 'SENT', attempts: 1, n: 1 }])
  }, 90_000)

  test('SQLite: a claim holds its row until it expires (a process that died mid-send)', async () => {
    databaseUrl = undefined
    smtp = await startSmtp()
    const [a, b] = [await instance(), await instance()]
    await leftOver(a, 2)
    // Row 0 claimed a moment ago by a live process, row 1 by one that died longer ago than a claim lasts.
    await a.ctx.db.run('update mail_outbox set sent_at = ? where subject = ?', [Date.now() - 1_000, 'mail 0'])
    await a.ctx.db.run('update mail_outbox set sent_at = ? where subject = ?', [Date.now() - SQLITE_CLAIM_MS - 1_000, 'mail 1'])

    await Promise.all([a.mail.resume(), b.mail.resume()])
    await settled(a, b)

    expect(receivedSorted()).toEqual(expected(1, 1))
    const rows = await a.ctx.db.all<{ subject: string; status: string; claimed: number | null }>(
      'select subject, status, sent_at as claimed from mail_outbox order by id',
    )
    expect(rows.map((r) => [r.subject, r.status])).toEqual([['mail 0', 'PENDING'], ['mail 1', 'SENT']])
  })
})
