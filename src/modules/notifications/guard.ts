import type { Queryable } from '../../../db/sql'
import type { PushGuard } from '../../platform/push'
import { visibleIds } from '../listings/store/read'
import { activeViewers, pendingInScope } from '../users/store/read'
import { readableCobroking } from '../deals/store'
import type { PushSubject } from './kinds'

// Scope at send time (issue 33): a push alert leaves only if its recipient may still see what it tells of, judged on
// who they are when it leaves (active, approved, their role and city now) and on the thing now (a listing suspended,
// expired or deleted since; a registration decided or moved to another city).

export const subjectText = (s: PushSubject): string => {
  const [[kind, id]] = Object.entries(s) as [[string, number]]
  return `${kind}:${id}`
}

type SubjectKind = 'listing' | 'registration' | 'cobroke_request' | 'deal'

function subjectOf(text: string): { kind: SubjectKind; id: number } | null {
  const m = /^(listing|registration|cobroke_request|deal):(\d+)$/.exec(text)
  return m ? { kind: m[1] as SubjectKind, id: Number(m[2]) } : null
}

/** For each (recipient, subject): may the alert still go? One read of the recipients, then one per recipient and kind. */
export async function mayStillSee(db: Queryable, items: readonly { userId: number; subject: string }[]): Promise<boolean[]> {
  const viewers = await activeViewers(db, items.map((i) => i.userId))
  const wanted = new Map<number, Record<SubjectKind, Set<number>>>()
  for (const { userId, subject } of items) {
    const s = subjectOf(subject)
    if (!s || !viewers.has(userId)) continue
    const w = wanted.get(userId) ?? { listing: new Set(), registration: new Set(), cobroke_request: new Set(), deal: new Set() }
    wanted.set(userId, w)
    w[s.kind].add(s.id)
  }
  const allowed = new Set<string>()
  const allow = (userId: number, kind: SubjectKind, ids: number[]) => ids.forEach((id) => allowed.add(`${userId} ${kind}:${id}`))
  for (const [userId, w] of wanted) {
    const viewer = viewers.get(userId)!
    if (w.listing.size > 0) allow(userId, 'listing', await visibleIds(db, viewer, [...w.listing]))
    if (w.registration.size > 0) allow(userId, 'registration', await pendingInScope(db, viewer, [...w.registration]))
    // Co-broking (issue 35): a request or deal the recipient still reads (one of its two brokers).
    if (w.cobroke_request.size > 0) allow(userId, 'cobroke_request', await readableCobroking(db, viewer, 'cobroke_requests', [...w.cobroke_request]))
    if (w.deal.size > 0) allow(userId, 'deal', await readableCobroking(db, viewer, 'deals', [...w.deal]))
  }
  return items.map((i) => allowed.has(`${i.userId} ${i.subject}`))
}

/** The guard the push sender asks before it sends (src/platform/push/sender.ts). */
export const pushGuard = (db: Queryable): PushGuard => (items) => mayStillSee(db, items)
