import type { Db, Queryable } from '../../../db/sql'
import { usersWithDevices, type PushMessage, type PushOptions, type PushSender } from '../../platform/push'
import { mayStillSee, subjectText } from './guard'
import type { PushAlert, PushKind, RaisePush } from './kinds'
import { DEFAULT_QUIET, quietUntil } from './quiet'
import { hold, settingsOfUsers, takeReleased, type Held } from './store'

// Push alerts (issue 33): what the features raise becomes a message on the user's devices now, or is held through
// their quiet hours and summarised in one push at the end. The push sender (the platform's) takes it from there, off
// the request path, and asks ./guard.ts before each message leaves.

/** How long a push service keeps an alert for a device that is off, and how urgently it should wake it (RFC 8030). */
const OPTIONS: Record<PushKind | 'summary', PushOptions> = {
  // A counterpart is worth a call now: wake the phone; a day later the inbox says it as well.
  match: { ttl: 86_400, urgency: 'high' },
  saved_search: { ttl: 86_400, urgency: 'normal' },
  // The reminder comes 3 days before the end: a day's delay still leaves two.
  expiring: { ttl: 86_400, urgency: 'normal' },
  registration: { ttl: 3 * 86_400, urgency: 'normal' },
  // A co-broke request waits 72 hours and the answer's speed is on the broker's record: wake the phone.
  deal: { ttl: 86_400, urgency: 'high' },
  summary: { ttl: 86_400, urgency: 'normal' },
}

/** The screen each kind opens, for a summary of one kind. */
const SCREEN: Record<PushKind, string> = {
  match: '/dashboard/matches',
  saved_search: '/dashboard/listings',
  expiring: '/dashboard/my-listings',
  registration: '/dashboard/approvals',
  deal: '/dashboard/deals',
}

const COUNTED: Record<PushKind, [string, string]> = {
  match: ['new match', 'new matches'],
  saved_search: ['saved-search alert', 'saved-search alerts'],
  expiring: ['listing ending soon', 'listings ending soon'],
  registration: ['registration to review', 'registrations to review'],
  deal: ['co-broking update', 'co-broking updates'],
}

/** "3 new matches, 1 saved-search alert": what a summary says, in the kinds' order. */
export function summaryText(counts: Map<PushKind, number>): string {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${COUNTED[kind][n === 1 ? 0 : 1]}`)
    .join(', ')
}

export class PushAlerts {
  constructor(
    private readonly db: Db,
    private readonly sender: PushSender,
    /** The installation's TZ: the quiet hours' zone of a user who has not chosen one. */
    private readonly timeZone: string,
    /** When the last message of what this raises must be due at the latest (PushSender.notifyEach), if anything says. */
    private readonly lastDueBy?: number,
  ) {}

  /** RaisePush (./kinds.ts): inside the caller's transaction, each alert sent now, held, or dropped (kind turned off). */
  readonly raise: RaisePush = async (tx, kind, alerts) => {
    const reached = new Set<number>()
    if (alerts.length === 0) return reached
    const now = Date.now()
    // Only users with a device: the rest would receive nothing, and their settings need not be read.
    const reachable = await usersWithDevices(tx, alerts.map((a) => a.userId))
    const wanted = alerts.filter((a) => reachable.has(a.userId))
    if (wanted.length === 0) return reached
    const settings = await settingsOfUsers(tx, wanted.map((a) => a.userId), DEFAULT_QUIET)
    const held: (Held & { releaseAt: number })[] = []
    const sent: { userId: number; message: PushMessage; subject: string }[] = []
    for (const a of wanted) {
      const s = settings.get(a.userId)!
      if (s.kindsOff.includes(kind)) continue
      const subject = subjectText(a.subject)
      const until = quietUntil(s.quiet, s.timeZone ?? this.timeZone, now)
      if (until !== null) held.push({ userId: a.userId, kind, subject, releaseAt: until })
      else sent.push({ userId: a.userId, message: { title: a.title, body: a.body, url: a.url, tag: `${kind}-${subject.replace(':', '-')}` }, subject })
      reached.add(a.userId)
    }
    // One statement for all (a saved search's hit is a thousand users), not one per user.
    await hold(tx, held, now)
    await this.sender.notifyEach(tx, sent, OPTIONS[kind], this.lastDueBy === undefined ? {} : { lastDueBy: this.lastDueBy })
    return reached
  }

  /**
   * The alerts whose quiet hours have ended, one summary push per user, counting only what each may still see now
   * (what they no longer may is dropped unsaid). Taken and queued in one transaction: of two processes doing this at
   * once, each held alert is summarised by one. Answers how many summaries were queued.
   */
  async release(now = Date.now()): Promise<number> {
    return this.db.tx(async (tx) => {
      const held = await takeReleased(tx, now)
      if (held.length === 0) return 0
      const judged = held.filter((h): h is Held & { subject: string } => h.subject !== null)
      const verdicts = await mayStillSee(tx, judged.map((h) => ({ userId: h.userId, subject: h.subject })))
      const kept = new Set(judged.filter((_, i) => verdicts[i]))
      const byUser = new Map<number, Map<PushKind, number>>()
      for (const h of held) {
        if (h.subject !== null && !kept.has(h as Held & { subject: string })) continue
        const counts = byUser.get(h.userId) ?? new Map<PushKind, number>()
        byUser.set(h.userId, counts)
        counts.set(h.kind, (counts.get(h.kind) ?? 0) + 1)
      }
      let queued = 0
      for (const [userId, counts] of byUser) {
        const kinds = [...counts.keys()]
        const url = kinds.length === 1 ? SCREEN[kinds[0]!] : '/dashboard'
        const message = { title: 'During your quiet hours', body: summaryText(counts), url, tag: 'summary' }
        if ((await this.sender.notify(tx, [userId], message, OPTIONS.summary)) > 0) queued++
      }
      return queued
    })
  }

  /** Releases every `everyMs` in this process; answers the stop. */
  startReleasing(everyMs = 60_000): () => void {
    const timer = setInterval(() => {
      this.release().catch((err) => console.error('[push] could not release the alerts held through quiet hours (the next look tries again):', err))
    }, everyMs)
    timer.unref()
    return () => clearInterval(timer)
  }
}
