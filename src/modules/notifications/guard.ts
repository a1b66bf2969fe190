import type { Queryable } from '../../../db/sql'
import type { PushGuard } from '../../platform/push'
import { visibleIds } from '../listings/read'
import { activeViewers, pendingInScope } from '../users/read'
import type { PushSubject } from './kinds'

// Scope at send time (issue 33): a push alert leaves only if its recipient may still see what it tells of, judged on
// who they are when it leaves (active, approved, their role and city now) and on the thing now (a listing suspended,
// expired or deleted since; a registration decided or moved to another city).

export const subjectText = (s: PushSubject): string => ('listing' in s ? `listing:${s.listing}` : `registration:${s.registration}`)

function subjectOf(text: string): PushSubject | null {
  const m = /^(listing|registration):(\d+)$/.exec(text)
  if (!m) return null
  return m[1] === 'listing' ? { listing: Number(m[2]) } : { registration: Number(m[2]) }
}

/** For each (recipient, subject): may the alert still go? One read of the recipients, then one per recipient and kind. */
export async function mayStillSee(db: Queryable, items: readonly { userId: number; subject: string }[]): Promise<boolean[]> {
  const viewers = await activeViewers(db, items.map((i) => i.userId))
  const wanted = new Map<number, { listings: Set<number>; registrations: Set<number> }>()
  for (const { userId, subject } of items) {
    const s = subjectOf(subject)
    if (!s || !viewers.has(userId)) continue
    const w = wanted.get(userId) ?? { listings: new Set(), registrations: new Set() }
    wanted.set(userId, w)
    if ('listing' in s) w.listings.add(s.listing)
    else w.registrations.add(s.registration)
  }
  const allowed = new Set<string>()
  for (const [userId, w] of wanted) {
    const viewer = viewers.get(userId)!
    if (w.listings.size > 0) for (const id of await visibleIds(db, viewer, [...w.listings])) allowed.add(`${userId} listing:${id}`)
    if (w.registrations.size > 0) for (const id of await pendingInScope(db, viewer, [...w.registrations])) allowed.add(`${userId} registration:${id}`)
  }
  return items.map((i) => allowed.has(`${i.userId} ${i.subject}`))
}

/** The guard the push sender asks before it sends (src/platform/push/sender.ts). */
export const pushGuard = (db: Queryable): PushGuard => (items) => mayStillSee(db, items)
