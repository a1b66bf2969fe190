import type { Queryable } from '../../../db/sql'
import type { AppContext } from '../../platform/context'
import { recordAudit, type AuditActor } from '../audit/service'
import { queueAnnouncement, type Announcer } from '../matches/service'
import type { Expiry } from './expiry'
import { tellOwner, type ModerationStep } from './moderation'
import type { Row } from './store'

// What follows a listing write, top to bottom: the one place to read it, and to add to it. Push alerts, photos and
// co-broking add a line here rather than a path of their own (docs/decisions/033-feature-plugins.md).
//
// 1. In the write's own transaction (committed with it, or not at all): the audit trail; the owner's mail when an
//    admin moderates; the match queue; what other features keep of the listing (`parts`: a deleted listing's photos).
// 2. In the process that took the write, once committed: the matches it queued announced (their push alerts go with
//    the announcement: notifications/reactions.ts); the expiry timer awake for its end; a listing with news (posted,
//    repriced, back on the market) handed to the INSTANT saved searches' push alerts; the parts' own (a deleted
//    listing's photo files removed).
// 3. In every process, whoever wrote, through the one change-feed row the write leaves (the triggers of
//    db/sqlite/feed.sql and db/pg/feed.sql, in the same transaction), which each process reads before its next cached
//    answer and while event streams are open (db/change-feed.ts):
//    - the caches of counts and pages adjust or forget the answers the change touches (./affects.ts judges which);
//    - the owner's `expiring` event (./expiring-events.ts), a deleted listing's inbox entries (matches/events.ts) and
//      INSTANT saved-search alerts (saved-searches/alerts.ts), each a topic of the user's event stream (events/);
//    - kept counts, search tags and id blocks are the database's own (triggers of db/*/derived.sql, search.sql).
// Expiry's timer (./expiry.ts) writes status EXPIRED itself: no audit, nothing queued (an expired listing matches
// nothing); its feed row does the rest.

/** One write of one listing: what the audit trail records, and what decides what follows. */
export type ListingWrite = {
  action: string
  actor: AuditActor
  /** The listing as it was (null: created) and as it is (null: deleted). */
  before: Row | null
  after: Row | null
  now: number
  /** Why, when the write says (a suspension's reason, a review request's note). */
  reason?: string | null
  /** Renewals: through the API or a mailed link. */
  via?: 'api' | 'link'
  /** An admin's moderation of it (./moderation.ts): whom to tell and what. */
  moderation?: ModerationStep
  /**
   * The names of the private fields the write changed (issue 35): the audit trail says which, never their values
   * (docs/decisions/038-private-fields.md).
   */
  privateChanged?: string[]
}

/**
 * What another feature keeps of a listing and must follow its writes (photos, issue 34): handed in by src/app.ts, so
 * this feature imports none of them. Each is told of every write inside its transaction and once it has committed.
 */
export type ListingParts = {
  within(tx: Queryable, write: ListingWrite): Promise<void>
  committed(write: ListingWrite): void
}

export type AfterListingWrite = {
  /** Inside the write's transaction, after its statement. */
  within(tx: Queryable, write: ListingWrite): Promise<void>
  /** Once the transaction has committed, in this process. */
  committed(write: ListingWrite): void
}

/** The listing's columns matching reads (MATCH_FIELDS, as the row names them). */
// Visibility too (issue 35): a listing shown to more brokers than before is news to those who now see it.
const MATCHED_BY = ['postType', 'saleOrRent', 'propertyType', 'budget', 'size', 'location', 'locality', 'status', 'cityId', 'visibility', 'circleId'] as const satisfies readonly (keyof Row)[]

/**
 * Only what matching reads can make new pairs: a new listing, or a change of one of those columns (renewing an expired
 * listing makes it ACTIVE again). An edit of the details or comments, a renewal of a live listing, announce nothing.
 */
/** News as the hotsheet and saved searches count it (saved-searches/news.ts): posted, repriced, or back to ACTIVE. */
const isNews = (w: ListingWrite): boolean =>
  w.after !== null && (w.before === null || w.before.budget !== w.after.budget || (w.before.status !== 'ACTIVE' && w.after.status === 'ACTIVE'))

const mayMatchAnew = (w: ListingWrite): boolean => w.after !== null && (w.before === null || MATCHED_BY.some((k) => w.before![k] !== w.after![k]))

/** What the audit trail keeps of a listing: its whole content, so a deleted listing's last state survives there. */
const auditView = (l: Row) => ({ ...l })

export function afterListingWrite(
  ctx: Pick<AppContext, 'mail' | 'config'>,
  uses: { announcer: Announcer; expiry: Expiry; news?: (listingId: number) => void; parts?: ListingParts[] },
): AfterListingWrite {
  return {
    async within(tx, w) {
      const listing = (w.after ?? w.before)!
      // Statements of one step each go out with the transaction's COMMIT, not one round trip after another
      // (`defer`: on PostgreSQL a write is then one round trip more than its listing's own statement, issue 36; a
      // failure of either still fails the whole write). What needs answers first (the mail, photos) is awaited below.
      // The audit trail (audit/): who did what, the listing before and after.
      const audit = recordAudit(
        tx,
        {
          actor: w.actor,
          action: w.action,
          entityType: 'listing',
          entityId: listing.id,
          cityId: listing.cityId,
          before: w.before ? auditView(w.before) : undefined,
          after: w.after ? { ...auditView(w.after), ...(w.via ? { via: w.via } : {}), ...(w.privateChanged?.length ? { private_fields_changed: w.privateChanged } : {}) } : undefined,
          reason: w.reason,
        },
        w.now,
      )
      // The match queue (matches/): announced once committed, by this process or the primary's sweep.
      tx.defer(mayMatchAnew(w) ? Promise.all([audit, queueAnnouncement(tx, listing.id, w.now)]) : audit)
      // The owner's mail when an admin suspends, upholds or lifts (through the outbox, so with the write or not at all).
      if (w.moderation && w.after) await tellOwner(ctx, tx, w.after, w.moderation)
      // Photos (photos/): a deleted listing's go with it.
      for (const part of uses.parts ?? []) await part.within(tx, w)
    },
    committed(w) {
      // The matches the write queued, announced right after its answer is sent.
      if (mayMatchAnew(w)) uses.announcer.soon()
      // The expiry timer of this process, awake for the listing's end.
      uses.expiry.due(w.after?.expiresAt)
      // The INSTANT saved searches' push alerts (notifications/reactions.ts), handed over once the answer has gone (a
      // timer runs after the response is written, as the announcer's): the handover (a message to the push thread, or
      // the judging begun here when there is none) took about a millisecond of a post's answer (issue 36). Durable as
      // before: a crash before the alerts are queued loses them either way.
      const news = uses.news
      if (news && isNews(w)) {
        const id = w.after!.id
        setTimeout(() => news(id), 0)
      }
      // Photos (photos/): a deleted listing's files no other photo shares, removed.
      for (const part of uses.parts ?? []) part.committed(w)
    },
  }
}
