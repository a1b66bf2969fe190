import type { Db, Queryable } from '../../../db/sql'
import type { Config } from '../../platform/config'
import { POST_TYPE_LABELS, type PostType } from '../../shared/constants'
import { currencyFor } from '../../shared/currency'
import { formatMoney } from '../../shared/money'
import type { Mailer } from '../../platform/mail'
import { inTurns } from '../../platform/turns'
import { matchDigest, type DigestItem } from '../mail/templates'
import { scoreMatch } from './rules'
import { drainAnnouncements } from './service'
import { reachableUser } from '../users/store'
import { claimDigest, digestSentAfter, digestSides, digestUsers, markMailed, pendingEntries, type DigestSide } from './store'

// The digest mail of new matches (issue 15; docs/decisions/009-live-events.md): at most one per user per
// MATCH_DIGEST_HOURS, listing the entries announced to them that are still unseen, undismissed and holding, and were
// in no earlier digest. Sent by the primary process on a timer, through the outbox (failed sends retry as all mail).

/** How often the primary looks for users due a digest. */
export const DIGEST_CHECK_MS = 15 * 60_000
/** At most this many matches listed in one digest, the best first; the mail counts the rest, which wait for the next. */
export const DIGEST_LIMIT = 20
/** Reasons shown per match: the first ones (budget, then size, then place). */
const REASONS_SHOWN = 2

export type DigestContext = { db: Db; mail: Mailer; config: Pick<Config, 'matchDigestHours' | 'publicUrl'> }

type Side = DigestSide
type Entry = { id: number; listing_id: number; match_id: number }
type Recipient = { id: number; email: string; full_name: string }

/**
 * Sends every digest due now, each user in a write transaction of its own that claims their digest before marking
 * anything (digestFor): two processes running this at once, the primaries of two instances on one PostgreSQL among
 * them, still mail a user once. Returns how many users were mailed, with how many matches.
 */
export async function runMatchDigest(ctx: DigestContext, now = Date.now()): Promise<{ users: number; matches: number }> {
  const hours = ctx.config.matchDigestHours
  const done = { users: 0, matches: 0 }
  if (hours <= 0) return done
  // What writes answered a moment ago still have queued is announced first, so it can be in this digest.
  await drainAnnouncements(ctx.db)
  const since = now - hours * 3_600_000
  const due = await digestUsers(ctx.db, since)
  // In turns: every user with new matches may be due at once, and requests must not wait for all of them.
  await inTurns(due, async ({ user_id }) => {
    const listed = await ctx.db.tx((tx) => digestFor(ctx, tx, user_id, since, now))
    if (listed > 0) (done.users++, (done.matches += listed))
  })
  return done
}

/** One user's digest, inside the caller's transaction: how many matches it listed (0: none due after all). */
async function digestFor(ctx: DigestContext, tx: Queryable, userId: number, since: number, now: number): Promise<number> {
  if (await digestSentAfter(tx, userId, since)) return 0
  const user: Recipient | undefined = await reachableUser(tx, userId)
  if (!user) return 0
  const entries: Entry[] = await pendingEntries(tx, userId)
  if (entries.length === 0) return 0
  // Claimed once there is something to send (a user with nothing new keeps their window open); taken by another
  // sender meanwhile: theirs is the mail.
  if (!(await claimDigest(tx, userId, now, since))) return 0
  const sides = await sidesOf(tx, entries)
  const scored = entries
    .map((e) => {
      const [mine, other] = [sides.get(e.listing_id)!, sides.get(e.match_id)!]
      return { e, mine, other, ...scoreMatch(mine, other, mine.tolerance, mine.country, now) }
    })
    .sort((a, b) => b.score - a.score || b.e.id - a.e.id)
  const shown = scored.slice(0, DIGEST_LIMIT)
  const items: DigestItem[] = shown.map(({ e, mine, other, score, reasons }) => ({
    mine: describe(mine),
    other: describe(other),
    broker: other.owner_name,
    score,
    reasons: reasons.slice(0, REASONS_SHOWN),
    link: `${ctx.config.publicUrl}/dashboard/matches#match-${e.id}`,
  }))
  for (const { e } of shown) await markMailed(tx, e.id, now)
  // In this transaction: the outbox row exists exactly when the entries are marked mailed; it is delivered after commit.
  await ctx.mail.send(tx, matchDigest(ctx.config.publicUrl, { email: user.email, fullName: user.full_name }, items, scored.length - shown.length))
  return shown.length
}

const sidesOf = (db: Queryable, entries: Entry[]): Promise<Map<number, Side>> => digestSides(db, [...new Set(entries.flatMap((e) => [e.listing_id, e.match_id]))])

/** "Requirement MUM-REQ-0001: 2 BHK, Andheri West, ₹48,000". */
function describe(l: Side): string {
  const money = l.budget === null ? null : formatMoney(l.budget, currencyFor(l.country))
  return `${POST_TYPE_LABELS[l.post_type as PostType]} ${l.entry_id}: ${[l.property_type, l.locality?.trim(), money].filter(Boolean).join(', ')}`
}

/**
 * Runs the digest every DIGEST_CHECK_MS in this process (the primary's only: src/server.ts); nothing when
 * MATCH_DIGEST_HOURS is 0. Returns the stop.
 */
export function startMatchDigests(ctx: DigestContext): () => void {
  if (ctx.config.matchDigestHours <= 0) return () => {}
  const timer = setInterval(async () => {
    try {
      const sent = await runMatchDigest(ctx)
      if (sent.users > 0) console.info(`[digest] mailed ${sent.users} user(s) ${sent.matches} new match(es)`)
    } catch (err) {
      // A busy or closed database: the next run tries again; the entries stay unmailed meanwhile.
      console.error('[digest] could not send the match digests:', err)
    }
  }, DIGEST_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
