import type { Change, Feed, FeedEvent } from '../../db/change-feed'
import type { Queryable } from '../../db/sql'
import { RENEW_WITHIN_MS, sessionIdOf, validateSessionToken } from './sessions'

type Validated = NonNullable<Awaited<ReturnType<typeof validateSessionToken>>>

/** At most this long a session is answered from memory, whatever the feed says (see below). */
const HOLD_MS = 10_000
const MAX_ENTRIES = 10_000

/**
 * The sessions this process validated lately, with their users: a request answered from the caches then needs no
 * database round trip at all. On PostgreSQL every round trip waits a turn of a busy event loop (tens of ms under load,
 * bench:http --postgres); on SQLite the lookup is a few microseconds, but one code path serves both.
 *
 * True through the change feed, like every cache here (docs/decisions/005-change-feed.md): a session ended anywhere
 * (sign-out, password change, deactivation, expiry removed; feed topic `session`) or a change of its user the feed
 * carries (role, activation, registration, city, name, email, phone) drops it before the next lookup of any process
 * on the database; a feed that cannot be trusted (PostgreSQL's listener down) serves nothing from here. Other user
 * fields the session carries (the identity card's) come from the database again within HOLD_MS. A session due for
 * renewal is always read from the database, which extends it.
 */
export class SessionCache {
  private readonly byId = new Map<string, { value: Validated; at: number }>()
  private readonly byUser = new Map<number, Set<string>>()
  /** Validations answered from memory, and those read from the database, since start (for the app's metrics). */
  readonly lookups = { hits: 0, misses: 0 }

  constructor(private readonly feed: Feed) {
    feed.subscribe((event) => this.apply(event))
  }

  get size(): number {
    return this.byId.size
  }

  /** The session and user for a token (as `validateSessionToken`), from memory when this process knows it is current. */
  async validate(db: Queryable, token: string): Promise<Validated | null> {
    const id = sessionIdOf(token)
    const now = Date.now()
    if (this.feed.sync()) {
      const hit = this.byId.get(id)
      if (hit && now - hit.at < HOLD_MS && hit.value.session.expiresAt.getTime() - now > RENEW_WITHIN_MS) {
        this.lookups.hits++
        return { ...hit.value, renewed: false }
      }
    }
    this.lookups.misses++
    const synced = this.feed.seq
    const value = await validateSessionToken(db, token)
    if (!value || !this.feed.sync()) return value
    // Ended or changed while it was read (the change then reached no entry): served, not kept.
    const missed = this.feed.since(synced)
    if (missed === null || missed.some((c) => ends(c, id, value.user.id))) return value
    this.keep(id, value, now)
    return value
  }

  private keep(id: string, value: Validated, now: number): void {
    this.forget(id)
    if (this.byId.size >= MAX_ENTRIES) this.forget(this.byId.keys().next().value!)
    this.byId.set(id, { value, at: now })
    let ids = this.byUser.get(value.user.id)
    if (!ids) this.byUser.set(value.user.id, (ids = new Set()))
    ids.add(id)
  }

  private forget(id: string): void {
    const entry = this.byId.get(id)
    if (!entry) return
    this.byId.delete(id)
    const ids = this.byUser.get(entry.value.user.id)
    ids?.delete(id)
    if (ids?.size === 0) this.byUser.delete(entry.value.user.id)
  }

  private apply(event: FeedEvent): void {
    if ('reset' in event) {
      this.byId.clear()
      this.byUser.clear()
      return
    }
    for (const c of event.changes) {
      if (c.topic === 'session') this.forget(String(c.before?.id))
      else if (c.topic === 'user') for (const id of [...(this.byUser.get(userOf(c)) ?? [])]) this.forget(id)
    }
  }
}

const userOf = (c: Change) => Number((c.before ?? c.after)?.id)

/** Whether a change ends (or alters) the session `id` of user `userId`. */
const ends = (c: Change, id: string, userId: number) => (c.topic === 'session' && c.before?.id === id) || (c.topic === 'user' && userOf(c) === userId)
