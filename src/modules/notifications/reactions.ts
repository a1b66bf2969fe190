import type { Db, Queryable } from '../../../db/sql'
import { usersWithDevices, type PushSender } from '../../platform/push'
import { listingRow, type Row } from '../listings/store'
import type { Announced } from '../matches/service'
import { instantHits } from '../saved-searches/alerts'
import type { PushAlert, RaisePush } from './kinds'

// The alerts of matches and saved searches (issue 33), built from what those features hand over. Expiry reminders and
// registrations raise theirs where they happen (listings/reminders.ts, auth/registration.ts) with `raise`.

/** "REQ RENT 2 BHK, Andheri West": a listing as a notification's line names it (no contact, no price). */
const what = (l: Row) => `${l.postType} ${l.saleOrRent} ${l.propertyType}${l.locality ? `, ${l.locality}` : l.location ? `, ${l.location}` : ''}`

const listingUrl = (entryId: string) => `/dashboard/listings?search=${encodeURIComponent(entryId)}`

/** A new inbox entry: its owner hears of the counterpart, inside the drain's transaction. */
export const matchesAnnounced =
  (raise: RaisePush) =>
  async (tx: Queryable, made: readonly Announced[]): Promise<void> => {
    const reachable = await usersWithDevices(tx, made.map((m) => m.userId))
    const wanted = made.filter((m) => reachable.has(m.userId))
    if (wanted.length === 0) return
    const rows = new Map<number, Row | null>()
    for (const id of new Set(wanted.flatMap((m) => [m.listingId, m.counterpartId]))) rows.set(id, await listingRow(tx, id))
    const alerts: PushAlert[] = []
    for (const m of wanted) {
      const [mine, theirs] = [rows.get(m.listingId), rows.get(m.counterpartId)]
      if (!mine || !theirs) continue
      alerts.push({ userId: m.userId, title: `New match for ${mine.entryId}`, body: `${theirs.entryId}: ${what(theirs)}`, url: '/dashboard/matches', subject: { listing: theirs.id } })
    }
    await raise(tx, 'match', alerts)
  }

/**
 * A listing posted, repriced or back on the market: the users whose INSTANT saved searches let it through hear of it.
 * Run once committed by the process that wrote it, in its push sender's thread (./push-thread.ts: the searches judged,
 * the users' settings read and a thousand messages queued took the event loop that answers requests;
 * docs/decisions/055-burst-off-thread.md), or here when the sender has none. A crash before the messages are queued
 * loses these alerts (the stream and the daily mail still tell); once queued, they are in the outbox.
 */
export const listingNews =
  (db: Db, raise: RaisePush, sender: Pick<PushSender, 'task' | 'stopped'>, timeZone: string) =>
  (listingId: number): void => {
    // Handed over on a timer after the write's answer (listings/after-write.ts): by then the process may be stopping,
    // its database closing, and the news is dropped as a crash would drop it.
    if (sender.stopped) return
    const task: ListingNewsTask = { listingId, timeZone, at: Date.now() }
    if (!sender.task(LISTING_NEWS, task)) void savedSearchAlerts(db, raise)(listingId)
  }

/** The task's name and data, as the thread's entry file (./push-thread.ts) takes them. */
export const LISTING_NEWS = 'listing-news'
/** `at`: when the listing's news was handed over (its burst's deadline counts from then: SAVED_SEARCH_BURST_MS). */
export type ListingNewsTask = { listingId: number; timeZone: string; at: number }

/**
 * A saved search's burst is all due within this long of the listing's news (issue 33: 1,000 pushes leave in ≤ 10 s;
 * 2 s left for the sending itself). The pace (PUSH_RATE, 125/s: 7.75 s for 1,000) counts from when the alerts are
 * queued, after the searches are judged; on a busy machine that judging takes seconds, and the burst is then squeezed
 * into what is left instead of starting its 7.75 s late (docs/decisions/061-burst-cost.md).
 */
export const SAVED_SEARCH_BURST_MS = 8_000

/** The saved-search alerts of one listing with news, judged and queued over `db` (the thread's, or the server's). */
export const savedSearchAlerts =
  (db: Db, raise: RaisePush) =>
  (listingId: number): Promise<void> =>
    (async () => {
      const hits = await instantHits(db, listingId, (ids) => usersWithDevices(db, ids))
      if (hits.length === 0) return
      const row = await listingRow(db, listingId)
      if (!row) return
      // One alert per user: the first of their searches that caught it.
      const byUser = new Map(hits.map((h) => [h.userId, h] as const).reverse())
      const alerts = [...byUser.values()].map((h) => ({
        userId: h.userId,
        title: `Saved search: ${h.search.name}`,
        body: `${h.entryId}: ${what(row)}`,
        url: listingUrl(h.entryId),
        subject: { listing: listingId },
      }))
      await db.tx((tx) => raise(tx, 'saved_search', alerts))
    })().catch((err) => console.error(`[push] could not raise the saved-search alerts of listing ${listingId}:`, err))
