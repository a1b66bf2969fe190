import type { Db, Queryable } from '../../../db/sql'
import type { Actor } from '../../platform/http/auth'
import { scopeOf } from '../../platform/policy/scope'
import { forbidden, notFound } from '../../platform/errors'
import { recordAudit } from '../audit/service'
import { findMatches, sourceOf } from './find'
import { brokersWhoSee } from '../listings/store/read'
import { anyQueued, entryById, insertEntries, pairedWith, queueListing, readQueue, setEntryDismissed, setEntrySeen, setEntryUndismissed, takeQueued, takeQueuedAsRead, type Entry, type InsertedEntry, type Queued } from './store'
import { cityTolerance, setCityTolerance } from '../geography/store'

/**
 * At most this many new pairs are announced per write, the best first: a broad listing can match thousands in a big
 * city, and an inbox is for the ones worth a call. The rest are on the listing's Matches tab; a later edit that still
 * finds one unannounced announces it then.
 */
export const ANNOUNCE_LIMIT = 20

/**
 * Announces the pairs a listing newly makes (issue 15), right after the write that made them: for each of the best new
 * counterparts (no entry for the pair yet, either way round; another owner's; not one of `later`, the listings
 * written after it that are still to be announced), an unseen inbox entry for the counterpart's owner. The author sees
 * their listing's matches on its Matches tab. One statement inserts them all; the change feed carries them to every
 * process's event streams. Returns how many pairs were announced.
 */
export async function announceMatches(
  db: Queryable,
  listingId: number,
  now = Date.now(),
  later: ReadonlySet<number> = new Set(),
  made: Announced[] = [],
): Promise<number> {
  const rows = (await newPairs(db, listingId, now)).filter(([other]) => !later.has(other!)).slice(0, ANNOUNCE_LIMIT)
  if (rows.length === 0) return 0
  const inserted = await insertEntries(db, rows)
  made.push(...inserted.map(announced))
  return inserted.length
}

/**
 * Every pair a listing newly makes now, as insertEntries takes them ([counterpart, listing, the counterpart's owner,
 * score, now] each), best first; those with listings written after it (`later`) and ANNOUNCE_LIMIT are the caller's.
 */
async function newPairs(db: Queryable, listingId: number, now: number): Promise<number[][]> {
  const [src, known] = await Promise.all([sourceOf(db, listingId), pairedWith(db, listingId)])
  if (!src || src.status !== 'ACTIVE') return []
  const candidates = (await findMatches(db, src, now)).filter((m) => m.owner_user_id !== src.owner_user_id && !known.has(m.id))
  // Only to brokers who may see the listing (issue 35: a CIRCLE or ONLY_ME listing is matched for its owner, and told
  // to its circle only); a pair left out now is announced when a change shows it to them.
  const seeing = await brokersWhoSee(db, listingId, [...new Set(candidates.map((m) => m.owner_user_id))])
  return candidates.filter((m) => seeing.has(Number(m.owner_user_id))).map((m) => [m.id, listingId, m.owner_user_id, m.score, now])
}

/** An inbox entry just made: `userId` owns `listingId`, which the write of `counterpartId` newly matches. */
export type Announced = { entryId: number; userId: number; listingId: number; counterpartId: number }
const announced = (r: InsertedEntry): Announced => ({ entryId: Number(r.id), userId: Number(r.user_id), listingId: Number(r.listing_id), counterpartId: Number(r.match_id) })

/** What else follows announcements, inside the drain's transaction (push alerts: src/modules/notifications/). */
export type AnnouncedListener = (tx: Queryable, made: readonly Announced[]) => Promise<void>
const listeners = new WeakMap<Db, AnnouncedListener[]>()

/** Registers what follows every drain's announcements on this database handle (one per process). */
export function onAnnounced(db: Db, listener: AnnouncedListener): void {
  const list = listeners.get(db) ?? []
  listeners.set(db, [...list, listener])
}

/** Inside a listing's write: its matches are to be announced (once, whatever the edits before that happens). */
export async function queueAnnouncement(db: Queryable, listingId: number, now = Date.now()): Promise<void> {
  await queueListing(db, listingId, now)
}

/** This process's drain in progress on a database, and the one that follows it (db/sql.ts: one Db per process). */
const drains = new WeakMap<Db, { running: Promise<number> | null; next: Promise<number> | null }>()
const ignore = () => {}

/**
 * Announces for every queued listing and takes them off the queue: what a write answered before this call queued is
 * announced when it resolves (the inbox, the badge and the digest call it before reading). Cheap when the queue is
 * empty. Resolves to how many pairs the drain announced.
 *
 * A process drains once at a time: a call while a drain runs (which may have taken the queue before the caller's
 * write) is answered by the next one, shared by every call made meanwhile, so a burst of reads waits on one drain and
 * holds one connection, not a connection each.
 */
export function drainAnnouncements(db: Db): Promise<number> {
  let state = drains.get(db)
  if (!state) drains.set(db, (state = { running: null, next: null }))
  const s = state
  if (s.running)
    return (s.next ??= s.running.then(ignore, ignore).then(() => {
      s.next = null
      return drainAnnouncements(db)
    }))
  const run = drainQueue(db).finally(() => {
    if (s.running === run) s.running = null
  })
  s.running = run
  return run
}

/**
 * One drain: a write transaction that takes every queued listing off the queue and announces for each, so nothing is
 * lost if the process stops (rolled back, the rows stay queued). Drains run one at a time, across all processes and
 * instances: a second one would take the same rows, or announce the same pairs from the other side. SQLite's
 * transactions write one at a time anyway (BEGIN IMMEDIATE, db/sqlite.ts); on PostgreSQL the drain's transaction first
 * takes an advisory lock, waited for rather than failed: each drain then sees what the one before it did, and nothing
 * conflicts (issue 29: repeatable-read drains racing each other filled PostgreSQL's log with serialization failures
 * and made inbox reads fail after five retries). PostgreSQL reads first, outside that lock (drainAfterReading).
 *
 * On PostgreSQL each statement sees what is committed when it starts, other writers' work included: insertHolding (./store.ts)
 * says how the announcements stay what SQLite's one writer at a time makes of them.
 */
async function drainQueue(db: Db): Promise<number> {
  // PostgreSQL's first read is the queue itself (empty: done), outside any transaction.
  if (db.dialect === 'postgres') return drainAfterReading(db, Date.now())
  if (!(await anyQueued(db))) return 0
  const now = Date.now()
  return db.tx(async (tx) => {
    // In the order of the writes; a listing written after another is left out of the earlier one's announcement
    // (it did not exist yet, or not so, at that write): its own turn announces the pair to the earlier one's owner.
    const queued = (await takeQueued(tx)).sort(inOrderOfWrites)
    const later = new Set(queued.map((q) => q.id))
    let count = 0
    const made: Announced[] = []
    for (const q of queued) {
      later.delete(q.id)
      count += await announceMatches(tx, q.id, now, later, made)
    }
    await tellListeners(db, tx, made)
    return count
  })
}

const inOrderOfWrites = (a: Queued, b: Queued) => a.at - b.at || a.id - b.id

/** What follows announcements (push alerts), in the drain's transaction. */
async function tellListeners(db: Db, tx: Queryable, made: readonly Announced[]): Promise<void> {
  if (made.length > 0) for (const listener of listeners.get(db) ?? []) await listener(tx, made)
}

/**
 * PostgreSQL's drain: the queue and every queued listing's new pairs are read first, outside any transaction and lock
 * (each read sees what is committed), a few listings at a time; then one short transaction under the drain's lock takes
 * the queue rows still as they were read (takeQueuedAsRead: a listing written again since stays queued, for the next
 * drain to read again) and inserts, for each listing taken, its pairs as the drain of SQLite's one writer would
 * (insertHolding judges each again on what is committed by then, leaves out a counterpart queued by then and a pair
 * another drain announced meanwhile).
 *
 * Which pairs are left out as "written after it" is decided under the lock, on what this drain took, never on the
 * queue as read: a listing read on the queue may be taken meanwhile by another process's drain whose reads came before
 * this listing was committed (a write's queue time is when it was sent, not when it committed), and then no drain
 * would announce the pair (decision 067: how a match was lost; tests/unit/pg-match-drain.test.ts makes it happen).
 *
 * The lock was held, with every listing of the queue locked for share (an edit of one waits), through five round trips
 * a queued listing, each a turn of a busy event loop: seconds under bench:http's load, edits and the other instance's
 * drains waiting behind it (issue 36). Now through two, however many were queued, and whatever push alerts add.
 */
async function drainAfterReading(db: Db, now: number): Promise<number> {
  const queued = (await readQueue(db)).sort(inOrderOfWrites)
  if (queued.length === 0) return 0
  // A few listings' reads at a time: a queue a stopped instance left can be long, and the pool serves requests too.
  const position = new Map(queued.map((q, i) => [q.id, i]))
  const pairs: number[][][] = []
  for (let i = 0; i < queued.length; i += READS_AT_ONCE) {
    const some = queued.slice(i, i + READS_AT_ONCE)
    pairs.push(...(await Promise.all(some.map(async (q, k) => enoughOf(await newPairs(db, q.id, now), (id) => (position.get(id) ?? -1) > i + k)))))
  }
  return db.tx(async (tx) => {
    const taken = new Set(await takeQueuedAsRead(tx, queued, pairs.flat().map(([other]) => other!)))
    const later = new Set(taken)
    const rows: number[][] = []
    queued.forEach((q, i) => {
      if (!taken.has(q.id)) return
      later.delete(q.id)
      rows.push(...pairs[i]!.filter(([other]) => !later.has(other!)).slice(0, ANNOUNCE_LIMIT))
    })
    const made = rows.length > 0 ? (await insertEntries(tx, rows)).map(announced) : []
    await tellListeners(db, tx, made)
    return made.length
  })
}

const READS_AT_ONCE = 8

/**
 * A listing's pairs as far as the drain may need them: the first ANNOUNCE_LIMIT that are with no listing read after it
 * on the queue, and those before them that are (the ones left out under the lock are among these).
 */
function enoughOf(pairs: number[][], readAfter: (id: number) => boolean): number[][] {
  let n = 0
  const end = pairs.findIndex(([other]) => !readAfter(other!) && ++n === ANNOUNCE_LIMIT)
  return end < 0 ? pairs : pairs.slice(0, end + 1)
}

/**
 * Drains the queue right after the request that filled it has been answered (a timer runs after the response is
 * written), and every `sweepMs` for what a stopped process left (the primary only).
 */
export class Announcer {
  private scheduled = false
  private sweeper: ReturnType<typeof setInterval> | null = null
  private closed = false
  /** Drains under way: close() waits for them, so that none is cut off by the database closing under it. */
  private readonly running = new Set<Promise<void>>()

  constructor(private readonly db: Db) {}

  /** After a write that queued: announce as soon as this request is answered. */
  soon(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setTimeout(() => {
      this.scheduled = false
      if (!this.closed) this.drain()
    }, 0)
  }

  sweep(sweepMs: number): void {
    this.sweeper ??= setInterval(() => this.drain(), sweepMs)
    this.sweeper.unref?.()
  }

  /** No drain starts from now on (what is queued stays queued for the next sweep, of this process or another). */
  async close(): Promise<void> {
    this.closed = true
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = null
    await Promise.all(this.running)
  }

  private drain() {
    const run: Promise<void> = drainAnnouncements(this.db)
      .then(() => undefined, (e) => {
        // Left queued: the next write or sweep tries again.
        console.error(`announcing matches: ${(e as Error).message}`)
      })
      .finally(() => void this.running.delete(run))
    this.running.add(run)
  }
}

/** The caller's own inbox entry; anyone else's is "not found", as if it did not exist. */
async function ownEntry(db: Queryable, actor: { id: number }, id: number): Promise<Entry> {
  const entry = await entryById(db, id)
  if (!entry || entry.user_id !== actor.id) throw notFound('Match not found')
  return entry
}

export async function markSeen(db: Queryable, actor: { id: number }, id: number, now = Date.now()): Promise<void> {
  const entry = await ownEntry(db, actor, id)
  if (entry.seen_at === null) await setEntrySeen(db, id, now)
}

/** "Not interested": the pair leaves the inbox and the listing's matches for this owner, and is never announced again. */
export async function dismiss(db: Queryable, actor: { id: number }, id: number, now = Date.now()): Promise<void> {
  const entry = await ownEntry(db, actor, id)
  if (entry.dismissed_at === null) {
    // An unseen entry is seen at the dismissal's very moment; one seen before is dismissed strictly after it (a
    // millisecond later if both fell in the same one), so `undismiss` can tell which of the two it was.
    const at = entry.seen_at !== null && entry.seen_at >= now ? entry.seen_at + 1 : now
    await setEntryDismissed(db, id, at)
  }
}

/**
 * Takes "Not interested" back (the inbox's Undo, issue 32): the pair is in the inbox and the listing's matches again, as
 * it was; unseen again when the dismissal is what marked it seen (dismiss sets both at once). Nothing to undo is no
 * error (a second Undo, or one after the entry was restored elsewhere).
 */
export async function undismiss(db: Queryable, actor: { id: number }, id: number): Promise<void> {
  const entry = await ownEntry(db, actor, id)
  if (entry.dismissed_at !== null) await setEntryUndismissed(db, id)
}

/** A city's budget tolerance (0–30 %): a master admin for any city, a module admin for their own. */
export async function setTolerance(db: Queryable, actor: Actor, cityId: number, percent: number): Promise<{ city_id: number; match_tolerance: number }> {
  const city = await cityTolerance(db, cityId)
  if (!city) throw notFound('City not found')
  const scope = scopeOf(actor, 'matching', 'manage')
  if (scope.kind !== 'all' && !(scope.kind === 'city' && scope.cityId === cityId)) throw forbidden('You can only set the tolerance of your own city')
  await db.tx(async (tx) => {
    await setCityTolerance(tx, cityId, percent, Date.now())
    await recordAudit(tx, {
      actor: { id: actor.id, fullName: actor.fullName },
      action: 'city.match_tolerance',
      entityType: 'city',
      entityId: cityId,
      cityId,
      before: { match_tolerance: city.match_tolerance },
      after: { match_tolerance: percent },
    })
  })
  return { city_id: cityId, match_tolerance: percent }
}
