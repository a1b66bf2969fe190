import type { Feed } from '../../../db/change-feed'
import type { Credentials } from './credentials'

// Read-after-write across instances (issue 36; docs/decisions/072-read-after-write.md). On PostgreSQL each process's
// caches hear of another instance's write a moment after its commit (db/pg-feed.ts). A signed-in write's answer names
// the feed position its write reached, as a header for API clients to echo and as a short cookie for browsers; a
// request that brings one back waits (at most a second) for this process to have heard it before anything is read,
// or reads from the database. SQLite's feed has no positions: there nothing here runs.

/** The header a write's answer carries and an API client may send back on its next request. */
export const READ_AFTER_HEADER = 'x-read-after'
/** The same for browsers, which send it back by themselves. */
export const READ_AFTER_COOKIE = 'brokernet_read_after'
/**
 * How long a browser keeps sending it: a write reaches every instance within milliseconds; after a minute the position
 * is long heard (or forgotten, when it costs one round trip to the database, no more).
 */
export const READ_AFTER_MAX_AGE_S = 60

/** Digits only, as a write's answer writes them; anything else is ignored (never refused). */
const POSITION = /^\d{1,16}$/

/** The position a request carries (the header first, then the cookie), or null when none, or not a number. */
export function positionOf(credentials: Credentials): number | null {
  const value = credentials.header(READ_AFTER_HEADER) ?? credentials.cookie(READ_AFTER_COOKIE)
  return value !== undefined && POSITION.test(value) ? Number(value) : null
}

/**
 * Resolves once this process's feed has heard the position the request carries, or has given up waiting for it (then
 * its caches serve nobody until it catches up): what the request reads next shows the write it names. Null (nothing to
 * await) without a position, or on SQLite.
 */
export function readAfterWrite(feed: Feed, credentials: Credentials): Promise<void> | null {
  if (!feed.reach) return null
  const position = positionOf(credentials)
  return position === null ? null : feed.reach(position)
}

type Answering = { headers: Record<string, unknown>; status?: unknown }

/** Whether the answer about to be sent says success (2xx): a refused write changed nothing to wait for. */
function succeeded(set: Answering, response: unknown): boolean {
  const status = response instanceof Response ? response.status : typeof set.status === 'number' ? set.status : 200
  return status >= 200 && status < 300
}

/**
 * Names the feed position on a successful write's answer (any method but GET, HEAD and OPTIONS), after its work is
 * done: its transactions have committed and this process has heard them, so the position is theirs or later.
 */
export function markWrite(feed: Feed, method: string, set: Answering, credentials: Credentials, response: unknown, secure: boolean): void {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return
  const position = feed.position
  if (!position || !succeeded(set, response)) return
  const value = String(position)
  set.headers[READ_AFTER_HEADER] = value
  credentials.setCookie(READ_AFTER_COOKIE, { value, httpOnly: true, sameSite: 'lax', path: '/', maxAge: READ_AFTER_MAX_AGE_S, secure })
}
