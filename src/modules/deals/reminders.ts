import type { AppContext } from '../../platform/context'
import { inTurns } from '../../platform/turns'
import { calendarDate, formatMoment, formatterOf } from '../../shared/dates'
import { siteVisitReminder } from '../mail/templates'
import { recipientsOf } from '../users/store'
import { dealPush, entryAs, type DealPush } from './push'
import { addMessage, claimVisitReminder, expireDue, visitsDue } from './store'

// Co-broking's timers (issue 35), run by the primary process: requests unanswered for 72 hours become EXPIRED (their
// brokers' streams hear of it through the feed), and the morning of a site visit both brokers are reminded in the
// deal's thread (which their streams hear of too) and by a push where they take co-broking alerts on a device, or else
// by mail.

/** How often the primary looks. */
export const DEAL_CHECK_MS = 5 * 60_000
/** "The morning of": from this hour of the visit's day, in the installation's time zone. */
export const MORNING_HOUR = 7

const day = calendarDate
const hours = new Map<string, Intl.DateTimeFormat>()
const hour = (at: number, timeZone: string) => Number(formatterOf(hours, timeZone, (timeZone) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' })).format(at))

/** One look: expiries, and the visits of today due their reminder. Returns how many deals were reminded. */
type TimerCtx = Pick<AppContext, 'db' | 'mail' | 'config'> & { push?: DealPush }

export async function runDealTimers(ctx: TimerCtx, now = Date.now()): Promise<number> {
  const push = ctx.push ?? dealPush(undefined)
  await expireDue(ctx.db, now)
  const tz = ctx.config.timeZone
  let reminded = 0
  // In turns: a morning's visits come due together, and requests must not wait for all of them.
  await inTurns(await visitsDue(ctx.db, now), async (d) => {
    const at = Number(d.visit_at)
    if (day(at, tz) !== day(now, tz) || hour(now, tz) < MORNING_HOUR) return
    const sent = await ctx.db.tx(async (tx) => {
      if (!(await claimVisitReminder(tx, d.id, now))) return false
      const when = formatMoment(at, tz)
      await addMessage(tx, d.id, null, 'STEP', `Reminder: the site visit is today, ${when}`, now)
      const people = await recipientsOf(tx, [Number(d.owner_id), Number(d.requester_id)])
      const nameOf = (id: number) => people.find((p) => p.id === id)?.fullName ?? 'the other broker'
      // A push to each broker who takes co-broking alerts on a device (sent, or held to their quiet hours' end); a mail
      // to the others. The listing's entry ID only for the broker who may still see it.
      const alerts = []
      for (const p of people) alerts.push({ to: p.id, step: 'visit' as const, extra: when, entry: await entryAs(tx, p.id, d.listing_id), deal: Number(d.id) })
      const pushed = await push(tx, alerts)
      await ctx.mail.send(
        tx,
        ...people
          .filter((p) => !pushed.has(p.id))
          .map((p) => siteVisitReminder(ctx.config.publicUrl, p, { at: when, with: nameOf(p.id === Number(d.owner_id) ? Number(d.requester_id) : Number(d.owner_id)), dealId: Number(d.id) })),
      )
      return true
    })
    if (sent) reminded++
  })
  return reminded
}

/** The primary's timer; returns the stop. */
export function startDealTimers(ctx: TimerCtx): () => void {
  const timer = setInterval(() => {
    runDealTimers(ctx).catch((err) => console.error('[deals] timers:', (err as Error).message))
  }, DEAL_CHECK_MS)
  timer.unref?.()
  return () => clearInterval(timer)
}
