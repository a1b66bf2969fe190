import type { Db, Param, Queryable } from '../../../db/sql'
import type { Urgency } from './payload'

// The SQL of `push_outbox` (issue 33): what waits to be sent, claimed by one sender at a time, and each attempt's
// outcome. The loop that sends is src/platform/push/sender.ts; docs/decisions/035-web-push.md says why it is built so.

/** A message claimed for sending, with its device's endpoint and keys. */
export type Claimed = {
  id: number
  subscriptionId: number
  payload: string
  ttl: number
  urgency: Urgency
  topic: string | null
  /** What it tells of, for the guard to judge at the send (PushSenderOptions.guard); null: nothing to judge. */
  subject: string | null
  /** The device's owner: the recipient. */
  userId: number
  /** Attempts made before this one. */
  attempts: number
  createdAt: number
  /** When it is to leave: its pace's place in a burst (./pace.ts), or a retry's time; a claim may take it a little early. */
  dueAt: number
  /** The claim: the row is this sender's until then, and its outcome is written only while it still is. */
  claimedUntil: number
  endpoint: string
  p256dh: string
  auth: string
}

/** What one attempt came to, as it is written to the outbox. */
export type Outcome =
  | { kind: 'delivered' }
  | { kind: 'withheld' }
  | { kind: 'gone'; status: number }
  | { kind: 'unusable'; error: string }
  | { kind: 'retry'; dueAt: number; error: string }
  | { kind: 'failed'; error: string }

/** PostgreSQL: the advisory-lock key of the outbox, "Push" (the second key is one notify() call's token). */
export const PUSH_LOCK = 0x50757368

/**
 * `ids` as placeholders for `in (…)`, padded (repeating the last) to one of a few lengths, so a handful of statement
 * texts serve every batch (each text is prepared and cached once per connection).
 */
function inList(ids: readonly number[]): { sql: string; params: number[] } {
  const size = [1, 4, 16, 64].find((n) => n >= ids.length) ?? ids.length
  const params = [...ids, ...Array<number>(size - ids.length).fill(ids[ids.length - 1]!)]
  return { sql: params.map(() => '?').join(', '), params }
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size)
}

/**
 * Queues one message for every device of these users, through `q` (a transaction's: it exists exactly when the change
 * it tells of does), due at `dueAt` (now, or its place in a burst: ./pace.ts). On PostgreSQL the statement first takes the advisory lock of `token`, held until `q`'s
 * transaction ends, which is what the sender waits on before it looks (it could not see the rows before the commit).
 * Answers how many were queued.
 */
export async function queue(
  q: Queryable,
  userIds: readonly number[],
  message: { payload: string; ttl: number; urgency: Urgency; topic: string | null; subject: string | null },
  token: number,
  now: number,
  dueAt = now,
): Promise<number> {
  if (q.dialect === 'postgres') await q.get(`select pg_advisory_xact_lock(${PUSH_LOCK}, ?::int) as held`, [token])
  let queued = 0
  for (const chunk of chunks([...new Set(userIds)], 64)) {
    const users = inList(chunk)
    const { changes } = await q.run(
      `insert into push_outbox (subscription_id, payload, ttl, urgency, topic, subject, status, attempts, due_at, created_at)
       select id, ?, ?, ?, ?, ?, 'PENDING', 0, ?, ? from push_subscriptions where user_id in (${users.sql})`,
      [message.payload, message.ttl, message.urgency, message.topic, message.subject, dueAt, now, ...users.params],
    )
    queued += changes
  }
  return queued
}

/** One message of a fan-out (`queueEach`): to every device of `userId`, its own text and subject, due at `dueAt`. */
export type QueuedEach = { userId: number; payload: string; subject: string | null; dueAt: number }

/**
 * As `queue`, for many messages that differ in recipient, text, subject and due time (a saved search's burst: 1,000
 * users, one message each): one statement per 500, the rows passed as one JSON parameter, where one statement per
 * recipient took the event loop a thousand times. Answers how many were queued (one per device).
 */
export async function queueEach(
  q: Queryable,
  items: readonly QueuedEach[],
  common: { ttl: number; urgency: Urgency; topic: string | null },
  token: number,
  now: number,
): Promise<number> {
  if (items.length === 0) return 0
  if (q.dialect === 'postgres') await q.get(`select pg_advisory_xact_lock(${PUSH_LOCK}, ?::int) as held`, [token])
  const sql =
    q.dialect === 'postgres'
      ? `insert into push_outbox (subscription_id, payload, ttl, urgency, topic, subject, status, attempts, due_at, created_at)
         select s.id, v.p, ?, ?, ?, v.s, 'PENDING', 0, v.d, ?
         from json_to_recordset(cast(?::text as json)) as v(u bigint, p text, s text, d bigint) join push_subscriptions s on s.user_id = v.u`
      : `insert into push_outbox (subscription_id, payload, ttl, urgency, topic, subject, status, attempts, due_at, created_at)
         select s.id, json_extract(v.value, '$.p'), ?, ?, ?, json_extract(v.value, '$.s'), 'PENDING', 0, json_extract(v.value, '$.d'), ?
         from json_each(?) v join push_subscriptions s on s.user_id = json_extract(v.value, '$.u')`
  let queued = 0
  for (const chunk of chunks(items, 500)) {
    const rows = JSON.stringify(chunk.map((i) => ({ u: i.userId, p: i.payload, s: i.subject, d: i.dueAt })))
    queued += (await q.run(sql, [common.ttl, common.urgency, common.topic, now, rows])).changes
  }
  return queued
}

/** How many devices each of these users has (a fan-out's pace counts each device as a message). */
export async function devicesPerUser(q: Queryable, userIds: readonly number[]): Promise<Map<number, number>> {
  const found = new Map<number, number>()
  for (const chunk of chunks([...new Set(userIds)], 500)) {
    const rows = await q.all<{ user_id: number; n: number }>(
      `select user_id, count(*) as n from push_subscriptions where user_id in (${chunk.map(() => '?').join(', ')}) group by user_id`,
      chunk,
    )
    for (const r of rows) found.set(Number(r.user_id), Number(r.n))
  }
  return found
}

/** PostgreSQL: waits until the transactions that queued under these tokens have ended (committed or not). */
export async function waitForQueued(db: Db, tokens: readonly number[]): Promise<void> {
  if (db.dialect !== 'postgres' || tokens.length === 0) return
  await db.tx(async (tx) => {
    for (const token of new Set(tokens)) await tx.get(`select pg_advisory_xact_lock_shared(${PUSH_LOCK}, ?::int) as held`, [token])
  })
}

type ClaimedRow = { id: number; subscription_id: number; payload: string; ttl: number; urgency: Urgency; topic: string | null; subject: string | null; attempts: number; created_at: number; due_at: number }

/**
 * Takes up to `limit` messages due by `dueBy` (now, or a little ahead: a paced burst's next ones, sent on time from
 * memory) that no live sender holds, oldest due first, and holds them until `claimedUntil`. One statement: on SQLite
 * the file's one writer makes it whole; on PostgreSQL `skip locked` passes over rows another instance is claiming at
 * that moment instead of waiting for them.
 */
export async function claim(db: Db, limit: number, now: number, claimedUntil: number, dueBy = now): Promise<Claimed[]> {
  const skipLocked = db.dialect === 'postgres' ? ' for update skip locked' : ''
  const { rows } = await db.run<ClaimedRow>(
    `update push_outbox set claimed_until = ? where id in (
       select id from push_outbox where status = 'PENDING' and due_at <= ? and (claimed_until is null or claimed_until < ?)
       order by due_at limit ?${skipLocked})
     returning id, subscription_id, payload, ttl, urgency, topic, subject, attempts, created_at, due_at`,
    [claimedUntil, dueBy, now, limit],
  )
  if (rows.length === 0) return []
  const devices = new Map<number, { user_id: number; endpoint: string; p256dh: string; auth: string }>()
  for (const chunk of chunks([...new Set(rows.map((r) => Number(r.subscription_id)))], 64)) {
    const ids = inList(chunk)
    const found = await db.all<{ id: number; user_id: number; endpoint: string; p256dh: string; auth: string }>(
      `select id, user_id, endpoint, p256dh, auth from push_subscriptions where id in (${ids.sql})`,
      ids.params,
    )
    for (const d of found) devices.set(Number(d.id), d)
  }
  // A device removed meanwhile took its messages with it (the foreign key's cascade): nothing to send.
  return rows.flatMap((r) => {
    const device = devices.get(Number(r.subscription_id))
    if (!device) return []
    const { endpoint, p256dh, auth } = device
    return [{ id: Number(r.id), subscriptionId: Number(r.subscription_id), userId: Number(device.user_id), payload: r.payload, ttl: Number(r.ttl), urgency: r.urgency, topic: r.topic, subject: r.subject, attempts: Number(r.attempts), createdAt: Number(r.created_at), dueAt: Number(r.due_at), claimedUntil, endpoint, p256dh, auth }]
  })
}

/**
 * Writes an attempt's outcome: a delivered message is deleted (and its device marked used), a device the push service
 * no longer knows (or whose endpoint the rules no longer let us post to) is removed with everything still queued for
 * it, a retry waits until `dueAt`, a failure stays for a week. Only while the claim is still this sender's: one that outlived its claim leaves the row to whoever took it.
 */
export async function record(db: Queryable, row: Claimed, outcome: Outcome, now: number): Promise<void> {
  const mine: Param[] = [row.id, row.claimedUntil]
  const attempts = row.attempts + 1
  switch (outcome.kind) {
    case 'delivered':
      await db.run('update push_subscriptions set last_used_at = ? where id = ?', [now, row.subscriptionId])
      await db.run('delete from push_outbox where id = ? and claimed_until = ?', mine)
      return
    case 'withheld':
      await db.run('delete from push_outbox where id = ? and claimed_until = ?', mine)
      return
    case 'gone':
    case 'unusable':
      await db.run('delete from push_subscriptions where id = ?', [row.subscriptionId])
      return
    case 'retry':
      await db.run('update push_outbox set attempts = ?, due_at = ?, claimed_until = null, last_error = ? where id = ? and claimed_until = ?', [
        attempts,
        outcome.dueAt,
        outcome.error,
        ...mine,
      ])
      return
    case 'failed':
      await db.run("update push_outbox set status = 'FAILED', attempts = ?, claimed_until = null, last_error = ? where id = ? and claimed_until = ?", [
        attempts,
        outcome.error,
        ...mine,
      ])
  }
}

/** Lets go of claimed messages not yet sent (a sender closing), so another sender takes them at once. */
export async function release(db: Db, rows: readonly Claimed[]): Promise<void> {
  for (const row of rows) await db.run('update push_outbox set claimed_until = null where id = ? and claimed_until = ?', [row.id, row.claimedUntil])
}

/** Whether any message is due now (a read, so an idle sweep writes nothing). */
export async function anyDue(db: Db, now: number): Promise<boolean> {
  const row = await db.get(
    "select id from push_outbox where status = 'PENDING' and due_at <= ? and (claimed_until is null or claimed_until < ?) limit 1",
    [now, now],
  )
  return row !== undefined
}

/**
 * When the next first attempt due after `after` is (a paced burst's later messages), or null: the sender looks again
 * then. Retries are not looked for here: the sender that scheduled one wakes for it, the sweeps find the others.
 */
export async function nextDue(db: Db, after: number): Promise<number | null> {
  const row = await db.get<{ due_at: number }>("select due_at from push_outbox where status = 'PENDING' and due_at > ? and attempts = 0 order by due_at limit 1", [after])
  return row ? Number(row.due_at) : null
}

/** Removes failures older than `before` (kept a while to be looked at). */
export async function pruneFailed(db: Db, before: number): Promise<number> {
  return (await db.run("delete from push_outbox where status = 'FAILED' and created_at < ?", [before])).changes
}

/** The outbox as monitoring sees it: messages waiting, how many of them are being retried, failures kept. */
export async function pushOutboxState(db: Queryable): Promise<{ pending: number; retrying: number; failed: number }> {
  const rows = await db.all<{ status: string; n: number; retrying: number }>(
    'select status, count(*) as n, sum(case when attempts > 0 then 1 else 0 end) as retrying from push_outbox group by status',
  )
  const of = (status: string) => rows.find((r) => r.status === status)
  return { pending: Number(of('PENDING')?.n ?? 0), retrying: Number(of('PENDING')?.retrying ?? 0), failed: Number(of('FAILED')?.n ?? 0) }
}
