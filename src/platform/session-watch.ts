import type { Change, Feed, FeedEvent } from '../../db/change-feed'
import type { Queryable } from '../../db/sql'
import type { Role } from '../shared/constants'
import { LIVE_POLL_MS } from './http/live-topic'

/** What an open event stream was opened as: its session (the token's SHA-256, as stored) and the user it serves. */
export type WatchedSession = { sessionId: string; userId: number; role: Role; cityId: number | null }

/**
 * Why a stream must close: `ended`, its session is over (signed out here or elsewhere, every session of the user ended
 * by a deactivation or a password reset, the token rotated, the session expired, the user gone or inactive); `changed`,
 * the user's role or city is no longer what the stream was opened with (what it carries was scoped by them: a new
 * stream is scoped anew). A read that failed is `changed` too: the session could not be confirmed, and a stream that
 * is not known to be allowed closes; the client's next connection is authenticated like any request.
 */
export type StreamEnd = 'ended' | 'changed'

/** One stream's watch: `end` releases it and closes the stream; `done` once it is released, either way. */
type Watcher = WatchedSession & { end: (why: StreamEnd) => void; timer: ReturnType<typeof setTimeout> | null; done: boolean }

type Row = { id: string; expiresAt: number | string; isActive: unknown; role: Role; cityId: number | null }

/** setTimeout's longest wait (about 24.8 days; a session lives 30): a longer expiry is checked then and waited on again. */
const MAX_WAIT_MS = 2 ** 31 - 1
/** Sessions read in one statement when many are checked at once (after a feed reset). */
const BATCH = 500

/**
 * Ends each open event stream of this process when its session ends, however and wherever it ended
 * (docs/decisions/023-streams-end-with-their-session.md). A stream is authenticated once, when it opens; from then
 * on its session is watched here, through the change feed that every process and instance on the database follows:
 *
 * - a `session` change (the row deleted: sign-out, token rotation, deactivation, rejection, password reset, an expired
 *   row removed) ends the streams of that session at once, with no query;
 * - a `user` change (activity, role, city...) has the streams of that user only read their session again;
 * - a timer at the session's expiry reads it again: ended if it was not extended meanwhile (a request elsewhere slid
 *   it: renewals are not in the feed), else the timer is set to the new expiry;
 * - a feed reset (changes missed, PostgreSQL's listener reconnected) has every watched session read again, in batches.
 *
 * So thousands of open streams cost nothing per feed event beyond two map lookups per change; only the streams of a
 * session or user that changed run a query. While any stream is watched, the feed is polled (SQLite) as for the
 * streams' news, so an end made through another process arrives within LIVE_POLL_MS; on PostgreSQL, within the
 * notification's milliseconds.
 */
export class SessionWatch {
  private readonly bySession = new Map<string, Set<Watcher>>()
  private readonly byUser = new Map<number, Set<Watcher>>()

  constructor(
    private readonly db: Queryable,
    private readonly feed: Feed,
  ) {
    feed.subscribe((event) => this.apply(event))
  }

  /**
   * Watches `session` for one stream: `end` is called once, when it must close. Returns the release (when the stream
   * closes for any other reason). The session is read once now, after the watch is in place: an end committed before
   * that read is in it, and one committed after reaches the watch through the feed, so none falls between the
   * stream's authentication and its watch.
   */
  watch(session: WatchedSession, end: (why: StreamEnd) => void): () => void {
    const unpoll = this.feed.poll(LIVE_POLL_MS)
    const release = () => {
      if (w.done) return
      w.done = true
      if (w.timer) clearTimeout(w.timer)
      remove(this.bySession, w.sessionId, w)
      remove(this.byUser, w.userId, w)
      unpoll()
    }
    const w: Watcher = { ...session, timer: null, done: false, end: (why) => (release(), end(why)) }
    add(this.bySession, w.sessionId, w)
    add(this.byUser, w.userId, w)
    void this.check([w])
    return release
  }

  private apply(event: FeedEvent): void {
    if ('reset' in event) {
      void this.check([...this.bySession.values()].flatMap((set) => [...set]))
      return
    }
    const stale = new Set<Watcher>()
    for (const c of event.changes) {
      if (c.topic === 'session') for (const w of [...(this.bySession.get(String(c.before?.id)) ?? [])]) this.finish(w, 'ended')
      else if (c.topic === 'user') for (const w of this.byUser.get(userOf(c)) ?? []) stale.add(w)
    }
    if (stale.size > 0) void this.check([...stale])
  }

  private finish(w: Watcher, why: StreamEnd): void {
    if (w.done) return
    w.end(why)
  }

  /** Reads the watchers' sessions (without extending them) and ends, or waits for the expiry of, each. */
  private async check(watchers: Watcher[]): Promise<void> {
    for (let i = 0; i < watchers.length; i += BATCH) {
      const batch = watchers.slice(i, i + BATCH).filter((w) => !w.done)
      if (batch.length === 0) continue
      const ids = [...new Set(batch.map((w) => w.sessionId))]
      let rows: Row[]
      try {
        rows = await this.db.all<Row>(
          `select sessions.id, sessions.expires_at as "expiresAt", users.is_active as "isActive", users.role, users.city_id as "cityId"
           from sessions join users on users.id = sessions.user_id where sessions.id in (${ids.map(() => '?').join(', ')})`,
          ids,
        )
      } catch (err) {
        console.error('[events] could not read the sessions of open streams; closing them:', err)
        for (const w of batch) this.finish(w, 'changed')
        continue
      }
      const byId = new Map(rows.map((r) => [r.id, r]))
      const now = Date.now()
      for (const w of batch) {
        if (w.done) continue
        const row = byId.get(w.sessionId)
        const expiresAt = row ? Number(row.expiresAt) : 0
        if (!row || now >= expiresAt || !row.isActive) this.finish(w, 'ended')
        else if (row.role !== w.role || (row.cityId ?? null) !== w.cityId) this.finish(w, 'changed')
        else this.wait(w, expiresAt - now)
      }
    }
  }

  private wait(w: Watcher, ms: number): void {
    if (w.timer) clearTimeout(w.timer)
    w.timer = setTimeout(
      () => {
        w.timer = null
        void this.check([w])
      },
      Math.min(ms, MAX_WAIT_MS),
    )
    // A watch alone keeps nothing running: the stream it belongs to does.
    w.timer.unref?.()
  }
}

const userOf = (c: Change) => Number((c.before ?? c.after)?.id)

function add<K>(map: Map<K, Set<Watcher>>, key: K, w: Watcher): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(w)
}

function remove<K>(map: Map<K, Set<Watcher>>, key: K, w: Watcher): void {
  const set = map.get(key)
  set?.delete(w)
  if (set?.size === 0) map.delete(key)
}
