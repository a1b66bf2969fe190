import type { Db, Queryable } from '../../../db/sql'
import { conflict, Invalid } from '../errors'
import { HttpError } from '../http/errors'
import { MAX_PUSH_DEVICES } from '../../shared/constants'
import { deviceLabel } from './device'
import { checkEndpoint, EndpointRefused, EndpointUnresolved, type AllowList, type Resolver } from './endpoint'
import { authProblem, p256dhProblem } from './keys'

// The devices a user takes push alerts on (issue 33): one row per browser subscription, `push_subscriptions`.

/** Devices per user (src/shared/constants.ts). */
export const MAX_DEVICES = MAX_PUSH_DEVICES

/** A subscription as the browser gives it (PushSubscription.toJSON()): read from a request body, so checked here. */
export type SubscriptionInput = { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null }

/** A device as its owner sees it in a list: never its endpoint or keys. */
export type PushDevice = { id: number; device: string; createdAt: number; lastUsedAt: number }

/** How endpoints are judged: PUSH_ALLOW_HOSTS and the resolver (the system's; a test's stub). */
export type EndpointPolicy = { allow: AllowList; resolve: Resolver }

/** A refusal naming the body's field (`keys.p256dh` as its path), answered as schema validation is. */
const field = (loc: string[], msg: string) => new Invalid(msg, { loc: ['body', ...loc], msg, type: 'value_error' })

/** PostgreSQL: the advisory lock of one user's subscribing, two 32-bit keys: "Push", and the user id folded into 31 bits. */
const subscribeLock = (userId: number) => `pg_advisory_xact_lock(${0x50757368}, ${userId % 2147483648})`

/**
 * Adds the device, or refreshes it when its endpoint is known (a browser renews its subscription; a browser shared by
 * two people alerts whoever subscribed last). Refusals: 422 naming the field (`endpoint`, `keys.p256dh`, `keys.auth`),
 * 409 past MAX_DEVICES, 503 when the endpoint's host cannot be resolved just now.
 */
export async function subscribe(db: Db, userId: number, input: SubscriptionInput, userAgent: string | null, policy: EndpointPolicy, now = Date.now()): Promise<PushDevice> {
  const keys = input.keys ?? {}
  const keyProblem = await p256dhProblem(keys.p256dh)
  if (keyProblem) throw field(['keys', 'p256dh'], keyProblem)
  const secretProblem = authProblem(keys.auth)
  if (secretProblem) throw field(['keys', 'auth'], secretProblem)
  try {
    await checkEndpoint(input.endpoint, policy.allow, policy.resolve)
  } catch (e) {
    if (e instanceof EndpointRefused) throw field(['endpoint'], e.message)
    if (e instanceof EndpointUnresolved) throw new HttpError(503, e.message, { 'retry-after': '5' })
    throw e
  }
  const endpoint = input.endpoint as string
  const device = deviceLabel(userAgent)
  // One subscribe of a user at a time, so two devices added at once cannot both be the tenth (SQLite's transactions
  // already run one at a time).
  return db.tx(async (tx) => {
    if (tx.dialect === 'postgres') await tx.get(`select ${subscribeLock(userId)} as held`)
    const others = await tx.get<{ n: number }>('select count(*) as n from push_subscriptions where user_id = ? and endpoint <> ?', [userId, endpoint])
    if (Number(others!.n) >= MAX_DEVICES)
      throw conflict(`Push alerts are on for ${MAX_DEVICES} devices already: turn them off on one of them to add this one`)
    // A browser that changes hands drops what was still queued for its previous user: their alerts are not the new one's.
    await tx.run('delete from push_outbox where subscription_id in (select id from push_subscriptions where endpoint = ? and user_id <> ?)', [endpoint, userId])
    const { rows } = await tx.run<PushDevice>(
      `insert into push_subscriptions (user_id, endpoint, p256dh, auth, device, created_at, last_used_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
         device = excluded.device, last_used_at = excluded.last_used_at
       returning id, device, created_at as "createdAt", last_used_at as "lastUsedAt"`,
      [userId, endpoint, keys.p256dh as string, keys.auth as string, device, now, now],
    )
    return numbers(rows[0]!)
  })
}

const numbers = (d: PushDevice): PushDevice => ({ id: Number(d.id), device: d.device, createdAt: Number(d.createdAt), lastUsedAt: Number(d.lastUsedAt) })

/** The user's devices, the most recently used first. */
export async function listDevices(db: Queryable, userId: number): Promise<PushDevice[]> {
  const rows = await db.all<PushDevice>(
    `select id, device, created_at as "createdAt", last_used_at as "lastUsedAt" from push_subscriptions where user_id = ?
     order by last_used_at desc, id desc`,
    [userId],
  )
  return rows.map(numbers)
}

/** Removes one of the user's devices (and the messages still waiting for it); false when they have none of that id. */
export async function removeDevice(db: Queryable, userId: number, id: number): Promise<boolean> {
  return (await db.run('delete from push_subscriptions where id = ? and user_id = ?', [id, userId])).changes > 0
}

/** Removes the user's device of this endpoint (the browser unsubscribing knows its endpoint, not our id). */
export async function removeEndpoint(db: Queryable, userId: number, endpoint: string): Promise<boolean> {
  return (await db.run('delete from push_subscriptions where endpoint = ? and user_id = ?', [endpoint, userId])).changes > 0
}

/** Removes every device of the user (signing out everywhere, deactivation): how many there were. */
export async function removeAllDevices(db: Queryable, userId: number): Promise<number> {
  return (await db.run('delete from push_subscriptions where user_id = ?', [userId])).changes
}

/** Which of these users have at least one device (a feature skips the work of an alert nobody would receive). */
export async function usersWithDevices(db: Queryable, userIds: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>()
  const ids = [...new Set(userIds)]
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500)
    const rows = await db.all<{ user_id: number }>(`select distinct user_id from push_subscriptions where user_id in (${chunk.map(() => '?').join(', ')})`, chunk)
    for (const r of rows) found.add(Number(r.user_id))
  }
  return found
}
