import type { AppContext } from '../../platform/context'
import { formatMoment } from '../../shared/dates'
import { siteVisitReminder } from '../mail/templates'
import { recipientsOf } from '../users/store'
import { addMessage, claimVisitReminder, expireDue, visitsDue } from './store'

// Co-broking's timers (issue 35), run by the primary process: requests unanswered for 72 hours become EXPIRED (their
// brokers' streams hear of it through the feed), and the morning of a site visit both brokers are reminded, by mail
// and in the deal's thread (which their streams hear of too).

/** How often the primary looks. */
export const DEAL_CHECK_MS = 5 * 60_000
/** "The morning of": from this hour of the visit's day, in the installation's time zone. */
export const MORNING_HOUR = 7

const day = (at: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
const hour = (at: number, timeZone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at))

/** One look: expiries, and the visits of today due their reminder. Returns how many deals were reminded. */
export async function runDealTimers(ctx: Pick<AppContext, 'db' | 'mail' | 'config'>, now = Date.now()): Promise<number> {
  await expireDue(ctx.db, now)
  const tz = ctx.config.timeZone
  let reminded = 0
  for (const d of await visitsDue(ctx.db, now)) {
    const at = Number(d.visit_at)
    if (day(at, tz) !== day(now, tz) || hour(now, tz) < MORNING_HOUR) continue
    const sent = await ctx.db.tx(async (tx) => {
      if (!(await claimVisitReminder(tx, d.id, now))) return false
      const when = formatMoment(at, tz)
      await addMessage(tx, d.id, null, 'STEP', `Reminder: the site visit is today, ${when}`, now)
      const people = await recipientsOf(tx, [Number(d.owner_id), Number(d.requester_id)])
      const nameOf = (id: number) => people.find((p) => p.id === id)?.fullName ?? 'the other broker'
      await ctx.mail.send(
        tx,
        ...people.map((p) => siteVisitReminder(ctx.config.publicUrl, p, { at: when, with: nameOf(p.id === Number(d.owner_id) ? Number(d.requester_id) : Number(d.owner_id)), dealId: Number(d.id) })),
      )
      return true
    })
    if (sent) reminded++
  }
  return reminded
}

/** The primary's timer; returns the stop. */
export function startDealTimers(ctx: Pick<AppContext, 'db' | 'mail' | 'config'>): () => void {
  const timer = setInterval(() => {
    runDealTimers(ctx).catch((err) => console.error('[deals] timers:', (err as Error).message))
  }, DEAL_CHECK_MS)
  timer.unref?.()
  return () => clearInterval(timer)
}
