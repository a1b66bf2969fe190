import type { Db, Queryable } from '../../../db/sql'
import type { Config } from '../../platform/config'
import type { Mailer } from '../../platform/mail'
import { inTurns } from '../../platform/turns'
import { EXPIRY_REMINDER_MS, RENEW_LINK_MS } from '../../shared/constants'
import { formatMoment } from '../../shared/dates'
import { expiryReminder, type ReminderItem } from '../mail/templates'
import type { RaisePush } from '../notifications/kinds'
import { renewKey, renewToken } from './renew-link'
import { reachableUser } from '../users/store'
import { claimReminder, dueListingsOf, dueOwners, endingWithin } from './store/reminders'

// Expiry reminders (issue 17): an owner hears EXPIRY_REMINDER_MS (3 days) before a listing of theirs leaves the
// network, once per end: by mail, with a one-click renew link per listing (./renew-link.ts), and on their event stream
// (the `reminder` feed rows that listing_reminders' triggers write; ./expiring-events.ts). Sent by the primary process
// on a timer, through the outbox, as the match digest is (src/modules/matches/digest.ts).

/**
 * How often the primary looks for listings due a reminder. Minutes late against a 3-day notice is nothing, while an end
 * set a little under 3 days ahead (an owner's earlier date) still hears of it well before; each look is one range read
 * of listings_expiry_idx.
 */
export const REMINDER_CHECK_MS = 5 * 60_000

/** `push`: the owner's push alert too (issue 33), raised with the mail. */
export type ReminderContext = { db: Db; mail: Mailer; config: Pick<Config, 'publicUrl' | 'timeZone'>; push?: RaisePush }

type Due = { id: number; entry_id: string; property_type: string; expires_at: number; city: string }
type Recipient = { id: number; email: string; full_name: string }

/**
 * Reminds every owner of their listings due now: one mail per owner listing each of them (a broker who posted ten
 * listings together hears once, not ten times), each listing claimed in the same transaction that queues the mail, so
 * two processes running this at once mail each end once. Returns how many owners were mailed, of how many listings.
 */
export async function runExpiryReminders(ctx: ReminderContext, now = Date.now()): Promise<{ users: number; listings: number }> {
  const done = { users: 0, listings: 0 }
  const window = [now, now + EXPIRY_REMINDER_MS]
  const owners = await dueOwners(ctx.db, window[0]!, window[1]!)
  if (owners.length === 0) return done
  // Read before any transaction: on SQLite the key's first write would wait for the transaction's own writer.
  const key = await renewKey(ctx.db)
  // In turns: a backlog of owners (the first run after a long stop) must not keep requests waiting.
  await inTurns(owners, async ({ user_id }) => {
    const listed = await ctx.db.tx((tx) => remindOwner(ctx, tx, user_id, key, now))
    if (listed > 0) (done.users++, (done.listings += listed))
  })
  return done
}

/** One owner's reminder, inside the caller's transaction: how many listings it names (0: none left to claim). */
async function remindOwner(ctx: ReminderContext, tx: Queryable, userId: number, key: Buffer, now: number): Promise<number> {
  const user: Recipient | undefined = await reachableUser(tx, userId)
  if (!user) return 0
  const due: Due[] = await dueListingsOf(tx, userId, now, now + EXPIRY_REMINDER_MS)
  const items: ReminderItem[] = []
  const claimed: Due[] = []
  for (const l of due) {
    if (!(await claimReminder(tx, l.id, l.expires_at, now))) continue // another sender reminded of this end meanwhile
    claimed.push(l)
    const token = renewToken(key, { id: l.id, expiresAt: Number(l.expires_at) }, now)
    items.push({ entryId: l.entry_id, what: `${l.property_type}, ${l.city}`, ends: formatMoment(Number(l.expires_at), ctx.config.timeZone), renewLink: `${ctx.config.publicUrl}/renew/${token}` })
  }
  if (items.length === 0) return 0
  // In this transaction: the mail exists exactly when the claims do; the outbox delivers it after commit.
  await ctx.mail.send(tx, expiryReminder(ctx.config.publicUrl, { email: user.email, fullName: user.full_name }, items, RENEW_LINK_MS / 86_400_000))
  // And on their devices: one alert per listing (each opens that listing), judged again when it leaves.
  await ctx.push?.(
    tx,
    'expiring',
    claimed.map((l) => ({
      userId,
      title: `${l.entry_id} ends ${formatMoment(Number(l.expires_at), ctx.config.timeZone)}`,
      body: `${l.property_type}, ${l.city}: renew it to keep it on the network`,
      url: `/dashboard/listings?search=${encodeURIComponent(l.entry_id)}`,
      subject: { listing: l.id },
    })),
  )
  return items.length
}

/** A listing of the owner's that ends within the notice, as the `expiring` event lists it. */
export type ExpiringListing = { id: number; entry_id: string; expires_at: string }

/** The owner's ACTIVE or ON_HOLD listings ending within EXPIRY_REMINDER_MS of `now`, soonest first. */
export async function expiringListings(db: Queryable, userId: number, now = Date.now()): Promise<ExpiringListing[]> {
  const rows = await endingWithin(db, userId, now, now + EXPIRY_REMINDER_MS)
  return rows.map((r) => ({ id: r.id, entry_id: r.entry_id, expires_at: new Date(Number(r.expires_at)).toISOString() }))
}

/** Runs the reminders every REMINDER_CHECK_MS in this process (the primary's only: src/server.ts). Returns the stop. */
export function startExpiryReminders(ctx: ReminderContext): () => void {
  const timer = setInterval(async () => {
    try {
      const sent = await runExpiryReminders(ctx)
      if (sent.users > 0) console.info(`[reminders] mailed ${sent.users} owner(s) about ${sent.listings} expiring listing(s)`)
    } catch (err) {
      // A busy or closed database: the next run tries again; nothing was claimed meanwhile.
      console.error('[reminders] could not send the expiry reminders:', err)
    }
  }, REMINDER_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
