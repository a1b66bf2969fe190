import type { Db, Queryable } from '../../../db/sql'
import type { Config } from '../../platform/config'
import type { Mailer } from '../../platform/mail'
import { inTurns } from '../../platform/turns'
import { serializeListingFilters, type ListingFilterState } from '../../../islands/listings/url-filters'
import { HOT_LABELS } from '../../../islands/listings/HotTag'
import { currencyFor } from '../../shared/currency'
import { formatMoney } from '../../shared/money'
import type { Role } from '../../shared/constants'
import { savedSearchDigest } from '../mail/templates'
import type { Listing } from '../listings/model'
import { listingsByIds } from '../listings/store/read'
import { allOf, listedWhere, ownedBy, type Viewer } from '../listings/store/where'
import { filtersOf, type SavedSearchRow } from './service'
import { newestNewsIds } from '../listings/store'
import { claimDailyLook, dueDailySearches } from './store'

// DAILY alerts (issue 17): at most one mail a day per saved search, listing what came into it (posted, repriced, back
// on the market; not the user's own) since its last mail. Sent by the primary process on a timer through the outbox, as
// the match digest (src/modules/matches/digest.ts).

/** How often the primary looks for searches due a mail. */
export const SAVED_SEARCH_CHECK_MS = 15 * 60_000
/** A day between two mails of one search. */
export const DAILY_MS = 24 * 3_600_000
/** Listings named in one mail, the newest news first; the mail counts the rest. */
export const MAIL_LIMIT = 10
/** Counted at most, as the new counts are. */
const COUNT_LIMIT = 100

export type SavedSearchDigestContext = { db: Db; mail: Mailer; config: Pick<Config, 'publicUrl'> }

type Due = Pick<SavedSearchRow, 'id' | 'user_id' | 'name' | 'filters' | 'alerted_at' | 'created_at'> & { email: string; full_name: string; role: Role; city_id: number | null }

/**
 * Looks at every DAILY search whose last look is a day old, each in a transaction of its own that claims it first (its
 * `alerted_at` moved to now only if still as read): two processes running this at once mail a search once. A search
 * with nothing new gets no mail; its next look is a day later and covers the whole time since. Returns the mails sent.
 */
export async function runSavedSearchDigest(ctx: SavedSearchDigestContext, now = Date.now()): Promise<number> {
  const due: Due[] = await dueDailySearches(ctx.db, now - DAILY_MS)
  let sent = 0
  // In turns: a day's searches come due together, and requests must not wait for all of them.
  await inTurns(due, async (search) => {
    if (await ctx.db.tx((tx) => mailFor(ctx, tx, search, now))) sent++
  })
  return sent
}

async function mailFor(ctx: SavedSearchDigestContext, tx: Queryable, s: Due, now: number): Promise<boolean> {
  const since = s.alerted_at ?? s.created_at
  if (!(await claimDailyLook(tx, s.id, since, now))) return false
  const viewer: Viewer = { id: s.user_id, role: s.role, cityId: s.city_id }
  const filters = filtersOf(s)
  const where = allOf(listedWhere(viewer, { ...filters, changed_since: new Date(Math.max(since, Date.parse(filters.changed_since ?? '') || 0)).toISOString() }, tx.dialect), ownedBy(s.user_id, false))
  const ids = await newestNewsIds(tx, where, COUNT_LIMIT)
  if (ids.length === 0) return false
  const found = await listingsByIds(tx, viewer, ids.slice(0, MAIL_LIMIT))
  const items = ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : [])).map((l) => ({ entryId: l.entry_id, what: describe(l), news: HOT_LABELS[l.hotsheet.event] }))
  const link = `${ctx.config.publicUrl}/dashboard/listings?${serializeListingFilters(filters as ListingFilterState)}`
  await ctx.mail.send(tx, savedSearchDigest(ctx.config.publicUrl, { email: s.email, fullName: s.full_name }, { name: s.name, link }, items, ids.length - items.length))
  return true
}

/** "Availability, 2 BHK, Andheri West, Mumbai, ₹45,000". */
function describe(l: Listing): string {
  const money = l.budget === null ? null : formatMoney(l.budget, currencyFor(l.country_name))
  return [l.post_type === 'REQ' ? 'Requirement' : 'Availability', l.property_type, l.locality?.trim(), l.city_name, money].filter(Boolean).join(', ')
}

/** Runs the daily mails every SAVED_SEARCH_CHECK_MS in this process (the primary's only: src/server.ts). Returns the stop. */
export function startSavedSearchDigests(ctx: SavedSearchDigestContext): () => void {
  const timer = setInterval(async () => {
    try {
      const sent = await runSavedSearchDigest(ctx)
      if (sent > 0) console.info(`[saved-searches] mailed ${sent} daily alert(s)`)
    } catch (err) {
      // A busy or closed database: the next run tries again.
      console.error('[saved-searches] could not send the daily alerts:', err)
    }
  }, SAVED_SEARCH_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}
